// Access reviews answered from the same rules as requests: the answer's shape, the user each review
// asks about, and kube's 400/422 for bad bodies.
import { describe, expect, it } from '@jest/globals';
import { localSubjectAccessReview, selfSubjectAccessReview, subjectAccessReview } from '../../../lib/testing/fakeApiServer/rbac/accessReviews.js';
import { privilegedGroupsAuthorizer, rbacAuthorizer, rbacRuleResolver, unionAuthorizer } from '../../../lib/testing/fakeApiServer/rbac/authorizer.js';
import { staticRbacObjects } from '../../../lib/testing/fakeApiServer/rbac/rbacObjects.js';
import { selfSubjectRulesReview } from '../../../lib/testing/fakeApiServer/rbac/rulesReview.js';
import type { StatusError } from '../../../lib/testing/fakeApiServer/status.js';

const objects = staticRbacObjects({
  roles: [{ metadata: { name: 'reader', namespace: 'shop' }, rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get', 'list'] }, { nonResourceURLs: ['/x'], verbs: ['get'] }] }],
  roleBindings: [{ metadata: { name: 'alice-reads', namespace: 'shop' }, roleRef: { kind: 'Role', name: 'reader' }, subjects: [{ kind: 'User', name: 'alice' }] }],
  clusterRoleBindings: [{ metadata: { name: 'broken' }, roleRef: { kind: 'ClusterRole', name: 'gone' }, subjects: [{ kind: 'Group', name: 'devs' }] }],
});
const authorize = unionAuthorizer(privilegedGroupsAuthorizer, rbacAuthorizer(objects));
const alice = { name: 'alice', groups: ['system:authenticated'] };

/** The Status a call throws. */
function statusOf(call: () => unknown) {
  try {
    call();
  } catch (e) {
    return (e as StatusError).status;
  }
  throw new Error('did not throw');
}

describe('SelfSubjectAccessReview', () => {
  it('answers for the requesting user with the spec echoed and a status', () => {
    const body = { kind: 'SelfSubjectAccessReview', apiVersion: 'authorization.k8s.io/v1', metadata: { creationTimestamp: null }, spec: { resourceAttributes: { namespace: 'shop', verb: 'list', resource: 'pods' } } };
    expect(selfSubjectAccessReview(body, alice, authorize)).toEqual({
      kind: 'SelfSubjectAccessReview',
      apiVersion: 'authorization.k8s.io/v1',
      metadata: {},
      spec: { resourceAttributes: { namespace: 'shop', verb: 'list', resource: 'pods' } },
      status: { allowed: true, reason: 'RBAC: allowed by RoleBinding "alice-reads/shop" of Role "reader" to User "alice"' },
    });
    expect(selfSubjectAccessReview({ spec: { resourceAttributes: { namespace: 'shop', verb: 'delete', resource: 'pods' } } }, alice, authorize).status).toEqual({ allowed: false });
    expect(selfSubjectAccessReview({ spec: { nonResourceAttributes: { path: '/x', verb: 'get' } } }, alice, authorize).status).toEqual({ allowed: false });
    expect(selfSubjectAccessReview({ spec: { resourceAttributes: { verb: 'get', resource: 'nodes' } } }, { name: 'root', groups: ['system:masters'] }, authorize).status).toEqual({ allowed: true });
  });

  it.each<[string, unknown, number, string]>([
    ['no attributes', { spec: {} }, 422, 'SelfSubjectAccessReview.authorization.k8s.io "" is invalid: spec.resourceAttributes: Invalid value: null: exactly one of nonResourceAttributes or resourceAttributes must be specified'],
    [
      'both attributes',
      { spec: { resourceAttributes: { verb: 'get' }, nonResourceAttributes: { path: '/x', verb: 'get' } } },
      422,
      'SelfSubjectAccessReview.authorization.k8s.io "" is invalid: spec.nonResourceAttributes: Invalid value: {"path":"/x","verb":"get"}: cannot be specified in combination with resourceAttributes',
    ],
    ['a name in metadata', { metadata: { name: 'x' }, spec: { resourceAttributes: { verb: 'get' } } }, 422, 'SelfSubjectAccessReview.authorization.k8s.io "" is invalid: metadata: Invalid value: {"name":"x"}: must be empty'],
    [
      'a field selector with both forms',
      { spec: { resourceAttributes: { verb: 'list', fieldSelector: { rawSelector: 'a=b', requirements: [{ key: 'a', operator: 'In', values: ['b'] }] } } } },
      422,
      'SelfSubjectAccessReview.authorization.k8s.io "" is invalid: spec.resourceAttributes.fieldSelector.rawSelector: Invalid value: "a=b": may not specified at the same time as requirements',
    ],
    [
      'a label selector with neither',
      { spec: { resourceAttributes: { verb: 'list', labelSelector: {} } } },
      422,
      'SelfSubjectAccessReview.authorization.k8s.io "" is invalid: spec.resourceAttributes.labelSelector.requirements: Required value: when spec.resourceAttributes.labelSelector is specified, requirements or rawSelector is required',
    ],
    [
      'a verb that is not a string',
      { spec: { resourceAttributes: { verb: 3 } } },
      400,
      'SelfSubjectAccessReview in version "v1" cannot be handled as a SelfSubjectAccessReview: json: cannot unmarshal number into Go struct field ResourceAttributes.spec.resourceAttributes.verb of type string',
    ],
    ['a body that is not an object', [1], 400, 'SelfSubjectAccessReview in version "v1" cannot be handled as a SelfSubjectAccessReview: json: cannot unmarshal array into Go value of type v1.SelfSubjectAccessReview'],
  ])('%s: %d', (_name, body, code, message) => {
    expect(statusOf(() => selfSubjectAccessReview(body, alice, authorize))).toMatchObject({ code, message });
  });
});

describe('SubjectAccessReview and LocalSubjectAccessReview', () => {
  it('answer for the user and groups of the spec, as given', () => {
    const review = subjectAccessReview({ spec: { user: 'alice', groups: ['devs'], resourceAttributes: { namespace: 'shop', verb: 'get', resource: 'pods' } } }, authorize);
    expect(review.spec).toEqual({ user: 'alice', groups: ['devs'], resourceAttributes: { namespace: 'shop', verb: 'get', resource: 'pods' } });
    expect(review.status).toMatchObject({ allowed: true });
    // The spec's groups only: a missing ClusterRole of a binding to devs is in the reason of a denial.
    expect(subjectAccessReview({ spec: { groups: ['devs'], resourceAttributes: { verb: 'get', resource: 'pods' } } }, authorize).status).toEqual({
      allowed: false,
      reason: 'RBAC: clusterrole.rbac.authorization.k8s.io "gone" not found',
    });
  });

  it('a SubjectAccessReview names a user or a group', () => {
    expect(statusOf(() => subjectAccessReview({ spec: { resourceAttributes: { verb: 'get' } } }, authorize))?.message).toBe(
      'SubjectAccessReview.authorization.k8s.io "" is invalid: spec.user: Invalid value: "": at least one of user or group must be specified',
    );
  });

  it('a LocalSubjectAccessReview is about its own namespace, resources only', () => {
    const ok = localSubjectAccessReview({ spec: { user: 'alice', resourceAttributes: { namespace: 'shop', verb: 'list', resource: 'pods' } } }, 'shop', authorize);
    expect(ok.metadata).toEqual({ namespace: 'shop' });
    expect(ok.status).toMatchObject({ allowed: true });
    expect(statusOf(() => localSubjectAccessReview({ spec: { user: 'alice', resourceAttributes: { namespace: 'other', verb: 'list' } } }, 'shop', authorize))?.message).toBe(
      'LocalSubjectAccessReview.authorization.k8s.io "" is invalid: spec.resourceAttributes.namespace: Invalid value: "other": must match metadata.namespace',
    );
    expect(statusOf(() => localSubjectAccessReview({ spec: { user: 'alice', nonResourceAttributes: { path: '/x', verb: 'get' } } }, 'shop', authorize))?.message).toBe(
      'LocalSubjectAccessReview.authorization.k8s.io "" is invalid: spec.nonResourceAttributes: Invalid value: {"path":"/x","verb":"get"}: disallowed on this kind of request',
    );
    expect(statusOf(() => localSubjectAccessReview({ spec: { resourceAttributes: { namespace: 'shop', verb: 'get' } } }, 'shop', authorize))?.message).toBe(
      'LocalSubjectAccessReview.authorization.k8s.io "" is invalid: spec.user: Invalid value: "": at least one of user or group must be specified',
    );
    expect(statusOf(() => localSubjectAccessReview({ metadata: { namespace: 'other' }, spec: {} }, 'shop', authorize))).toMatchObject({
      code: 400,
      message: 'the namespace of the provided object does not match the namespace sent on the request',
    });
  });
});

describe('SelfSubjectRulesReview', () => {
  const rules = rbacRuleResolver(objects);

  it('lists the rules of the requesting user in a namespace, with an empty spec', () => {
    expect(selfSubjectRulesReview({ spec: { namespace: 'shop' } }, alice, rules)).toEqual({
      kind: 'SelfSubjectRulesReview',
      apiVersion: 'authorization.k8s.io/v1',
      metadata: {},
      spec: {},
      status: { resourceRules: [{ verbs: ['get', 'list'], apiGroups: [''], resources: ['pods'] }], nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/x'] }], incomplete: false },
    });
    expect(selfSubjectRulesReview({ spec: { namespace: 'shop' } }, { name: 'bob', groups: ['devs'] }, rules).status).toMatchObject({ evaluationError: 'clusterrole.rbac.authorization.k8s.io "gone" not found' });
  });

  it('needs a namespace', () => {
    expect(statusOf(() => selfSubjectRulesReview({ spec: {} }, alice, rules))).toMatchObject({ code: 400, reason: 'BadRequest', message: 'no namespace on request' });
  });
});
