// Nobody grants what they do not hold: kube's Covers, the escalation message, and the guard on role
// and binding writes (escalate and bind verbs, system:masters, garbage-collector updates).
import { describe, expect, it } from '@jest/globals';
import { privilegedGroupsAuthorizer, rbacAuthorizer, unionAuthorizer } from '../../../lib/testing/fakeApiServer/rbac/authorizer.js';
import { compactRules, confirmNoEscalation, covers } from '../../../lib/testing/fakeApiServer/rbac/escalation.js';
import { rbacWriteCheck, type RbacWrite } from '../../../lib/testing/fakeApiServer/rbac/rbacWriteCheck.js';
import { staticRbacObjects, type PolicyRule, type RbacBinding, type RbacRole } from '../../../lib/testing/fakeApiServer/rbac/rbacObjects.js';
import type { UserInfo } from '../../../lib/testing/fakeApiServer/rbac/userInfo.js';

const RBAC = 'rbac.authorization.k8s.io';
const rule = (apiGroups: string[], resources: string[], verbs: string[], resourceNames?: string[]): PolicyRule => ({ apiGroups, resources, verbs, ...(resourceNames && { resourceNames }) });

describe('covers', () => {
  it.each<[string, PolicyRule[], PolicyRule[], boolean]>([
    ['the same rule', [rule([''], ['pods'], ['get'])], [rule([''], ['pods'], ['get'])], true],
    ['more verbs than held', [rule([''], ['pods'], ['get'])], [rule([''], ['pods'], ['get', 'list'])], false],
    ['split over two held rules', [rule([''], ['pods'], ['get']), rule([''], ['pods'], ['list'])], [rule([''], ['pods'], ['get', 'list'])], true],
    ['* covers everything of its field', [rule(['*'], ['*'], ['*'])], [rule(['apps'], ['deployments/scale'], ['update'])], true],
    ['*/scale covers deployments/scale', [rule(['apps'], ['*/scale'], ['update'])], [rule(['apps'], ['deployments/scale'], ['update'])], true],
    ['*/scale does not cover deployments', [rule(['apps'], ['*/scale'], ['update'])], [rule(['apps'], ['deployments'], ['update'])], false],
    ['pods does not cover pods/log', [rule([''], ['pods'], ['get'])], [rule([''], ['pods/log'], ['get'])], false],
    ['held for every name covers one name', [rule([''], ['secrets'], ['get'])], [rule([''], ['secrets'], ['get'], ['a'])], true],
    ['held for one name does not cover every name', [rule([''], ['secrets'], ['get'], ['a'])], [rule([''], ['secrets'], ['get'])], false],
    ['non-resource prefix', [{ nonResourceURLs: ['/logs/*'], verbs: ['get'] }], [{ nonResourceURLs: ['/logs/a'], verbs: ['get'] }], true],
    ['a rule without apiGroups grants nothing, so is covered', [], [{ resources: ['pods'], verbs: ['get'] }], true],
  ])('%s', (_name, owner, servant, expected) => {
    expect(covers(owner, servant).covered).toBe(expected);
  });

  it('lists what is missing, one verb and resource each, and compacts by resource', () => {
    const { missing } = covers([rule([''], ['pods'], ['get'])], [rule([''], ['pods', 'secrets'], ['get', 'list'])]);
    expect(missing).toEqual([rule([''], ['pods'], ['list']), rule([''], ['secrets'], ['get']), rule([''], ['secrets'], ['list'])]);
    expect(compactRules(missing)).toEqual([rule([''], ['pods'], ['list']), rule([''], ['secrets'], ['get', 'list'])]);
  });
});

const alice: UserInfo = { name: 'alice', groups: ['system:authenticated'] };
const reader: RbacRole = { metadata: { name: 'reader', namespace: 'shop' }, rules: [rule([''], ['pods', 'configmaps'], ['get', 'list'])] };
const roleAdmin: RbacRole = { metadata: { name: 'role-admin' }, rules: [rule([RBAC], ['roles', 'rolebindings'], ['create', 'update'])] };
const secretsRole: RbacRole = { metadata: { name: 'secrets', namespace: 'shop' }, rules: [rule([''], ['secrets'], ['get'])] };
const binding = (name: string, namespace: string | undefined, kind: string, ref: string, user: string): RbacBinding => ({
  metadata: { name, ...(namespace && { namespace }) },
  roleRef: { apiGroup: RBAC, kind, name: ref },
  subjects: [{ kind: 'User', name: user }],
});
const objects = staticRbacObjects({
  roles: [reader, secretsRole],
  clusterRoles: [roleAdmin, { metadata: { name: 'escalator' }, rules: [rule([RBAC], ['roles'], ['escalate'])] }, { metadata: { name: 'binder' }, rules: [rule([RBAC], ['roles'], ['bind'], ['secrets'])] }],
  roleBindings: [binding('alice-reads', 'shop', 'Role', 'reader', 'alice'), binding('alice-admin', 'shop', 'ClusterRole', 'role-admin', 'alice')],
  clusterRoleBindings: [binding('carol-escalates', undefined, 'ClusterRole', 'escalator', 'carol'), binding('dan-binds', undefined, 'ClusterRole', 'binder', 'dan')],
});
const authorize = unionAuthorizer(privilegedGroupsAuthorizer, rbacAuthorizer(objects));

describe('confirmNoEscalation', () => {
  it('says what is not held, in kube words', () => {
    expect(confirmNoEscalation(objects, alice, 'shop', [rule([''], ['pods'], ['get', 'delete']), rule([''], ['secrets'], ['get'])])).toBe(
      'user "alice" (groups=["system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n' +
        '{APIGroups:[""], Resources:["pods"], Verbs:["delete"]}\n' +
        '{APIGroups:[""], Resources:["secrets"], Verbs:["get"]}',
    );
    expect(confirmNoEscalation(objects, alice, 'shop', [rule([''], ['pods'], ['list'])])).toBeUndefined();
  });

  it('only counts the rules held in that namespace', () => {
    expect(confirmNoEscalation(objects, alice, 'other', [rule([''], ['pods'], ['get'])])).toMatch(/not currently held/);
  });
});

describe('role and binding writes', () => {
  const write = (w: Partial<RbacWrite> & Pick<RbacWrite, 'resource' | 'object'>): RbacWrite => ({ namespace: 'shop', name: '', user: alice, ...w }) as RbacWrite;
  const role = (name: string, rules: PolicyRule[]): RbacRole => ({ metadata: { name, namespace: 'shop' }, rules });

  it('a Role within what the author holds is allowed; beyond it is kube 403', () => {
    expect(rbacWriteCheck(write({ resource: 'roles', object: role('r', [rule([''], ['pods'], ['get'])]) }), authorize, objects)).toBeUndefined();
    expect(rbacWriteCheck(write({ resource: 'roles', object: role('r', [rule([''], ['secrets'], ['get'])]) }), authorize, objects)).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message:
        'roles.rbac.authorization.k8s.io "r" is forbidden: user "alice" (groups=["system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n{APIGroups:[""], Resources:["secrets"], Verbs:["get"]}',
      reason: 'Forbidden',
      details: { name: 'r', group: RBAC, kind: 'roles' },
      code: 403,
    });
  });

  it('system:masters and the escalate verb may grant anything', () => {
    const wide = role('r', [rule(['*'], ['*'], ['*'])]);
    expect(rbacWriteCheck(write({ resource: 'roles', object: wide, user: { name: 'root', groups: ['system:masters'] } }), authorize, objects)).toBeUndefined();
    expect(rbacWriteCheck(write({ resource: 'roles', object: wide, user: { name: 'carol', groups: [] } }), authorize, objects)).toBeUndefined();
    expect(rbacWriteCheck(write({ resource: 'clusterroles', namespace: '', object: { metadata: { name: 'c' }, rules: wide.rules }, user: { name: 'carol', groups: [] } }), authorize, objects)?.code).toBe(403);
  });

  it('an update that only changes owner references or finalizers is not checked', () => {
    const old = role('r', [rule([''], ['secrets'], ['get'])]);
    const gcOnly = { ...old, metadata: { ...old.metadata, finalizers: ['x'], ownerReferences: [{ uid: 'u' }] } } as RbacRole;
    expect(rbacWriteCheck(write({ resource: 'roles', name: 'r', object: gcOnly, oldObject: old }), authorize, objects)).toBeUndefined();
    const labelled = { ...old, metadata: { ...old.metadata, labels: { a: 'b' } } };
    expect(rbacWriteCheck(write({ resource: 'roles', name: 'r', object: labelled, oldObject: old }), authorize, objects)?.code).toBe(403);
  });

  it('an aggregation rule takes every permission', () => {
    const aggregating: RbacRole = { metadata: { name: 'agg' }, rules: [], aggregationRule: { clusterRoleSelectors: [{ matchLabels: { a: 'b' } }] } };
    const res = rbacWriteCheck(write({ resource: 'clusterroles', namespace: '', object: aggregating }), authorize, objects);
    expect(res?.message).toBe('clusterroles.rbac.authorization.k8s.io "agg" is forbidden: must have cluster-admin privileges to use the aggregationRule');
  });

  it('a binding to a role the author holds, or may bind, is allowed; otherwise 403, or 404 for a missing role', () => {
    const bind = (ref: string, user: UserInfo, kind = 'Role'): RbacWrite => write({ resource: 'rolebindings', user, object: { ...binding('b', 'shop', kind, ref, 'eve') } });
    expect(rbacWriteCheck(bind('reader', alice), authorize, objects)).toBeUndefined();
    expect(rbacWriteCheck(bind('secrets', alice), authorize, objects)?.message).toBe(
      'rolebindings.rbac.authorization.k8s.io "b" is forbidden: user "alice" (groups=["system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n{APIGroups:[""], Resources:["secrets"], Verbs:["get"]}',
    );
    expect(rbacWriteCheck(bind('secrets', { name: 'dan', groups: [] }), authorize, objects)).toBeUndefined();
    expect(rbacWriteCheck(bind('reader', { name: 'dan', groups: [] }), authorize, objects)?.code).toBe(403); // bind is for "secrets" only
    expect(rbacWriteCheck(bind('gone', alice), authorize, objects)).toMatchObject({ code: 404, reason: 'NotFound', message: 'roles.rbac.authorization.k8s.io "gone" not found' });
    expect(rbacWriteCheck(bind('gone', alice, 'ClusterRole'), authorize, objects)?.message).toBe('clusterroles.rbac.authorization.k8s.io "gone" not found');
  });
});
