// The RBAC authorizer over plain role and binding objects: which bindings apply to whom and where,
// the decision with kube's reason, the union with system:masters and AlwaysAllow, the 403 text.
import { describe, expect, it } from '@jest/globals';
import type { AuthorizationAttributes } from '../../../lib/testing/fakeApiServer/rbac/attributes.js';
import {
  alwaysAllowAuthorizer,
  privilegedGroupsAuthorizer,
  rbacAuthorizer,
  rbacRuleResolver,
  unionAuthorizer,
  unionRuleResolver,
  alwaysAllowRuleResolver,
} from '../../../lib/testing/fakeApiServer/rbac/authorizer.js';
import { forbiddenError } from '../../../lib/testing/fakeApiServer/rbac/forbidden.js';
import { staticRbacObjects, type RbacBinding, type RbacRole, type Subject } from '../../../lib/testing/fakeApiServer/rbac/rbacObjects.js';
import { serviceAccountGroups, serviceAccountUsername, withAuthenticatedGroup, type UserInfo } from '../../../lib/testing/fakeApiServer/rbac/userInfo.js';

const RBAC = 'rbac.authorization.k8s.io';
const podReader: RbacRole = { metadata: { name: 'pod-reader', namespace: 'shop' }, rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get', 'list', 'watch'] }] };
const deployer: RbacRole = { metadata: { name: 'deployer' }, rules: [{ apiGroups: ['apps'], resources: ['deployments'], verbs: ['*'] }] };
const binding = (name: string, namespace: string | undefined, kind: 'Role' | 'ClusterRole', role: string, subjects: Subject[]): RbacBinding => ({
  metadata: { name, ...(namespace && { namespace }) },
  roleRef: { apiGroup: RBAC, kind, name: role },
  subjects,
});

const objects = staticRbacObjects({
  roles: [podReader],
  clusterRoles: [deployer],
  roleBindings: [
    binding('alice-reads', 'shop', 'Role', 'pod-reader', [{ kind: 'User', name: 'alice' }]),
    binding('app-deploys', 'shop', 'ClusterRole', 'deployer', [{ kind: 'ServiceAccount', name: 'app' }]),
    binding('ns-sas-read', 'shop', 'Role', 'pod-reader', [{ kind: 'Group', name: 'system:serviceaccounts:ci' }]),
    binding('dangling', 'broken', 'ClusterRole', 'gone', [{ kind: 'User', name: 'bob' }]),
  ],
  clusterRoleBindings: [
    binding('devs-deploy', undefined, 'ClusterRole', 'deployer', [{ kind: 'Group', name: 'devs' }]),
    binding('ci-deploys', undefined, 'ClusterRole', 'deployer', [{ kind: 'ServiceAccount', name: 'builder', namespace: 'ci' }]),
    binding('everyone', undefined, 'ClusterRole', 'deployer', [{ kind: 'Group', name: 'system:authenticated' }]),
    binding('missing', undefined, 'ClusterRole', 'nowhere', [{ kind: 'User', name: 'bob' }]),
    binding('missing-role', undefined, 'Role', 'pod-reader', [{ kind: 'User', name: 'bob' }]),
  ],
});
const authorize = rbacAuthorizer(objects);

const sa = (namespace: string, name: string): UserInfo => ({ name: serviceAccountUsername(namespace, name), groups: serviceAccountGroups(namespace) });
const alice: UserInfo = { name: 'alice', groups: [] };
const attrs = (user: UserInfo, verb: string, resource: string, namespace: string, group = '', name = ''): AuthorizationAttributes => ({
  kind: 'resource',
  user,
  verb,
  group,
  version: 'v1',
  resource,
  subresource: '',
  name,
  namespace,
});

describe('RBAC authorizer', () => {
  it.each<[string, AuthorizationAttributes, 'Allow' | 'NoOpinion', string]>([
    ['a Role through a RoleBinding, in its namespace', attrs(alice, 'list', 'pods', 'shop'), 'Allow', 'RBAC: allowed by RoleBinding "alice-reads/shop" of Role "pod-reader" to User "alice"'],
    ['the Role does not reach another namespace', attrs(alice, 'list', 'pods', 'other'), 'NoOpinion', ''],
    ['nor the cluster scope', attrs(alice, 'list', 'pods', ''), 'NoOpinion', ''],
    ['a verb the Role lacks', attrs(alice, 'delete', 'pods', 'shop'), 'NoOpinion', ''],
    [
      'a ClusterRole through a RoleBinding, to a namespace-less ServiceAccount subject',
      attrs(sa('shop', 'app'), 'create', 'deployments', 'shop', 'apps'),
      'Allow',
      'RBAC: allowed by RoleBinding "app-deploys/shop" of ClusterRole "deployer" to ServiceAccount "app/shop"',
    ],
    ['that ServiceAccount outside the binding namespace', attrs(sa('shop', 'app'), 'create', 'deployments', 'prod', 'apps'), 'NoOpinion', ''],
    ['a ServiceAccount of the same name in another namespace', attrs(sa('prod', 'app'), 'create', 'deployments', 'shop', 'apps'), 'NoOpinion', ''],
    ['a ClusterRoleBinding to a group, everywhere', attrs({ name: 'carol', groups: ['devs'] }, 'patch', 'deployments', 'prod', 'apps'), 'Allow', 'RBAC: allowed by ClusterRoleBinding "devs-deploy" of ClusterRole "deployer" to Group "devs"'],
    ['a ClusterRoleBinding to a ServiceAccount', attrs(sa('ci', 'builder'), 'get', 'deployments', '', 'apps'), 'Allow', 'RBAC: allowed by ClusterRoleBinding "ci-deploys" of ClusterRole "deployer" to ServiceAccount "builder/ci"'],
    ['the group system:serviceaccounts:<ns>', attrs(sa('ci', 'other'), 'get', 'pods', 'shop'), 'Allow', 'RBAC: allowed by RoleBinding "ns-sas-read/shop" of Role "pod-reader" to Group "system:serviceaccounts:ci"'],
    ['system:authenticated', attrs(withAuthenticatedGroup({ name: 'dave', groups: [] }), 'get', 'deployments', 'x', 'apps'), 'Allow', 'RBAC: allowed by ClusterRoleBinding "everyone" of ClusterRole "deployer" to Group "system:authenticated"'],
    ['a user no binding names', attrs({ name: 'eve', groups: [] }, 'get', 'pods', 'shop'), 'NoOpinion', ''],
    [
      'missing roles are named in the reason',
      attrs({ name: 'bob', groups: [] }, 'get', 'pods', 'broken'),
      'NoOpinion',
      'RBAC: [clusterrole.rbac.authorization.k8s.io "nowhere" not found, role.rbac.authorization.k8s.io "pod-reader" not found, clusterrole.rbac.authorization.k8s.io "gone" not found]',
    ],
  ])('%s', (_name, a, decision, reason) => {
    expect(authorize(a)).toEqual({ decision, reason });
  });

  it('a missing role does not stop other bindings from allowing', () => {
    const partial = rbacAuthorizer(
      staticRbacObjects({
        clusterRoles: [deployer],
        clusterRoleBindings: [binding('a', undefined, 'ClusterRole', 'gone', [{ kind: 'User', name: 'bob' }]), binding('b', undefined, 'ClusterRole', 'deployer', [{ kind: 'User', name: 'bob' }])],
      }),
    );
    expect(partial(attrs({ name: 'bob', groups: [] }, 'get', 'deployments', '', 'apps')).decision).toBe('Allow');
    expect(partial(attrs({ name: 'bob', groups: [] }, 'get', 'pods', '')).reason).toBe('RBAC: clusterrole.rbac.authorization.k8s.io "gone" not found');
  });

  it('system:masters is allowed before RBAC, without a reason; AlwaysAllow allows everyone', () => {
    const withMasters = unionAuthorizer(privilegedGroupsAuthorizer, authorize);
    expect(withMasters(attrs({ name: 'admin', groups: ['system:masters'] }, 'delete', 'nodes', ''))).toEqual({ decision: 'Allow', reason: '' });
    expect(withMasters(attrs({ name: 'bob', groups: [] }, 'get', 'pods', 'x')).reason).toMatch(/^RBAC: \[clusterrole/);
    expect(unionAuthorizer(privilegedGroupsAuthorizer, alwaysAllowAuthorizer)(attrs(alice, 'delete', 'nodes', ''))).toEqual({ decision: 'Allow', reason: '' });
  });

  it('a Deny stops the union; reasons of those without an opinion are joined by lines', () => {
    const deny = unionAuthorizer(() => ({ decision: 'NoOpinion', reason: 'first' }), () => ({ decision: 'NoOpinion', reason: 'second' }));
    expect(deny(attrs(alice, 'get', 'pods', 'x'))).toEqual({ decision: 'NoOpinion', reason: 'first\nsecond' });
    const denied = unionAuthorizer(() => ({ decision: 'Deny', reason: 'no' }), alwaysAllowAuthorizer);
    expect(denied(attrs(alice, 'get', 'pods', 'x'))).toEqual({ decision: 'Deny', reason: 'no' });
  });

  it('lists a user rules in a namespace, resource and non-resource ones apart, with resolution errors', () => {
    const resolver = unionRuleResolver(rbacRuleResolver(objects));
    expect(resolver(alice, 'shop')).toEqual({ resourceRules: [{ verbs: ['get', 'list', 'watch'], apiGroups: [''], resources: ['pods'] }], nonResourceRules: [], incomplete: false });
    expect(resolver({ name: 'bob', groups: [] }, 'broken').evaluationError).toBe(
      '[clusterrole.rbac.authorization.k8s.io "nowhere" not found, role.rbac.authorization.k8s.io "pod-reader" not found, clusterrole.rbac.authorization.k8s.io "gone" not found]',
    );
    expect(alwaysAllowRuleResolver(alice, 'shop').resourceRules).toEqual([{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }]);
  });
});

describe('the 403 of a request no authorizer allowed', () => {
  it.each<[string, AuthorizationAttributes, string, object]>([
    ['a named object in a namespace', attrs(alice, 'get', 'pods', 'shop', '', 'a'), 'pods "a" is forbidden: User "alice" cannot get resource "pods" in API group "" in the namespace "shop"', { name: 'a', kind: 'pods' }],
    ['a collection of a group at the cluster scope', attrs(alice, 'list', 'deployments', '', 'apps'), 'deployments.apps is forbidden: User "alice" cannot list resource "deployments" in API group "apps" at the cluster scope', { group: 'apps', kind: 'deployments' }],
    [
      'a subresource',
      { ...attrs(alice, 'update', 'deployments', 'shop', 'apps', 'web'), subresource: 'scale' } as AuthorizationAttributes,
      'deployments.apps "web" is forbidden: User "alice" cannot update resource "deployments/scale" in API group "apps" in the namespace "shop"',
      { name: 'web', group: 'apps', kind: 'deployments' },
    ],
    ['a path', { kind: 'nonResource', user: alice, verb: 'get', path: '/metrics' }, 'forbidden: User "alice" cannot get path "/metrics"', {}],
    ['markup in the request is escaped', { kind: 'nonResource', user: { name: '<b>', groups: [] }, verb: 'get', path: '/x' }, 'forbidden: User "&lt;b&gt;" cannot get path "/x"', {}],
  ])('%s', (_name, a, message, details) => {
    expect(forbiddenError(a, '').status).toEqual({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason: 'Forbidden', details, code: 403 });
  });

  it('appends the reason of the authorizers', () => {
    expect(forbiddenError(attrs(alice, 'get', 'pods', 'x'), 'RBAC: clusterrole.rbac.authorization.k8s.io "gone" not found').status.message).toBe(
      'pods is forbidden: User "alice" cannot get resource "pods" in API group "" in the namespace "x": RBAC: clusterrole.rbac.authorization.k8s.io "gone" not found',
    );
  });
});
