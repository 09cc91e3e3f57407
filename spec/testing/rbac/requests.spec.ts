// What the authorizer is asked for a request (name from a field selector, a Namespace's own
// namespace), impersonation as kube authorizes it, and SelfSubjectReview.
import { describe, expect, it } from '@jest/globals';
import { rbacAuthorizer, unionAuthorizer, privilegedGroupsAuthorizer } from '../../../lib/testing/fakeApiServer/rbac/authorizer.js';
import { impersonate, impersonationHeaders } from '../../../lib/testing/fakeApiServer/rbac/impersonation.js';
import { staticRbacObjects } from '../../../lib/testing/fakeApiServer/rbac/rbacObjects.js';
import { requestAttributes, type RequestFacts } from '../../../lib/testing/fakeApiServer/rbac/requestAttributes.js';
import { selfSubjectReview } from '../../../lib/testing/fakeApiServer/rbac/selfSubjectReview.js';
import type { StatusError } from '../../../lib/testing/fakeApiServer/status.js';

const user = { name: 'alice', groups: [] };
const facts = (o: Partial<RequestFacts>): RequestFacts => ({ isResourceRequest: true, verb: 'get', group: '', version: 'v1', namespace: '', resource: 'pods', name: '', subresource: '', ...o });

describe('request attributes', () => {
  it.each<[string, RequestFacts, string, object]>([
    ['a list with a metadata.name field selector is about that name', facts({ verb: 'list', namespace: 'shop' }), 'fieldSelector=metadata.name%3Da', { name: 'a', namespace: 'shop' }],
    ['so is a watch', facts({ verb: 'watch', namespace: 'shop' }), 'fieldSelector=status.phase%3DRunning,metadata.name%3D%3Db', { name: 'b' }],
    ['another field does not name anything', facts({ verb: 'list' }), 'fieldSelector=spec.nodeName%3Dn', { name: '' }],
    ['a delete names what it deletes', facts({ verb: 'delete', name: 'x', namespace: 'shop' }), '', { name: 'x', namespace: 'shop' }],
    ['a Namespace is in itself', facts({ resource: 'namespaces', name: 'shop' }), '', { namespace: 'shop', name: 'shop' }],
    ['the list of Namespaces is at the cluster scope', facts({ verb: 'list', resource: 'namespaces' }), '', { namespace: '' }],
  ])('%s', (_name, info, query, expected) => {
    expect(requestAttributes(info, '/x', new URLSearchParams(query), user)).toMatchObject(expected);
  });

  it('a non-resource request is its path and lower-case method', () => {
    expect(requestAttributes(facts({ isResourceRequest: false, verb: 'get' }), '/healthz', new URLSearchParams(), user)).toEqual({ kind: 'nonResource', user, verb: 'get', path: '/healthz' });
  });
});

describe('impersonation', () => {
  const objects = staticRbacObjects({
    clusterRoles: [
      { metadata: { name: 'impersonate-bob' }, rules: [{ apiGroups: [''], resources: ['users'], verbs: ['impersonate'], resourceNames: ['bob'] }] },
      { metadata: { name: 'impersonate-sa' }, rules: [{ apiGroups: [''], resources: ['serviceaccounts'], verbs: ['impersonate'] }, { apiGroups: [''], resources: ['groups'], verbs: ['impersonate'], resourceNames: ['devs'] }] },
    ],
    clusterRoleBindings: [{ metadata: { name: 'a' }, roleRef: { kind: 'ClusterRole', name: 'impersonate-bob' }, subjects: [{ kind: 'User', name: 'alice' }] }],
    roleBindings: [{ metadata: { name: 'b', namespace: 'shop' }, roleRef: { kind: 'ClusterRole', name: 'impersonate-sa' }, subjects: [{ kind: 'User', name: 'alice' }] }],
  });
  const authorize = unionAuthorizer(privilegedGroupsAuthorizer, rbacAuthorizer(objects));
  const headers = (h: { [k: string]: string[] }) => impersonationHeaders(h);
  const refusal = (call: () => unknown) => {
    try {
      call();
    } catch (e) {
      return (e as StatusError).status;
    }
    throw new Error('did not throw');
  };

  it('acts as the user once each part is allowed; an impersonated ServiceAccount is in its groups', () => {
    expect(impersonate(user, headers({}), authorize)).toBe(user);
    expect(impersonate(user, headers({ 'impersonate-user': ['bob'] }), authorize)).toEqual({ name: 'bob', groups: [], extra: {} });
    expect(impersonate(user, headers({ 'impersonate-user': ['system:serviceaccount:shop:app'] }), authorize)).toEqual({
      name: 'system:serviceaccount:shop:app',
      groups: ['system:serviceaccounts', 'system:serviceaccounts:shop'],
      extra: {},
    });
  });

  it('refuses a part the requestor may not impersonate with kube 403', () => {
    expect(refusal(() => impersonate(user, headers({ 'impersonate-user': ['carol'] }), authorize))?.message).toBe(
      'users "carol" is forbidden: User "alice" cannot impersonate resource "users" in API group "" at the cluster scope',
    );
    expect(refusal(() => impersonate(user, headers({ 'impersonate-user': ['system:serviceaccount:prod:app'] }), authorize))?.message).toBe(
      'serviceaccounts "app" is forbidden: User "alice" cannot impersonate resource "serviceaccounts" in API group "" in the namespace "prod"',
    );
    expect(refusal(() => impersonate(user, headers({ 'impersonate-user': ['bob'], 'impersonate-group': ['admins'] }), authorize))?.message).toBe(
      'groups "admins" is forbidden: User "alice" cannot impersonate resource "groups" in API group "" at the cluster scope',
    );
  });

  it('refuses groups without a user with a 400', () => {
    expect(refusal(() => impersonate(user, headers({ 'impersonate-group': ['devs'] }), authorize))).toMatchObject({ code: 400, message: 'requested [{Group  devs    }] without impersonating a user' });
  });
});

describe('SelfSubjectReview', () => {
  it('answers who the request authenticated as', () => {
    expect(selfSubjectReview({ kind: 'SelfSubjectReview' }, { name: 'alice', uid: 'u', groups: ['devs'], extra: { k: ['v'] } }, Date.parse('2026-11-28T12:00:00.5Z'))).toEqual({
      kind: 'SelfSubjectReview',
      apiVersion: 'authentication.k8s.io/v1',
      metadata: { creationTimestamp: '2026-11-28T12:00:00Z' },
      status: { userInfo: { username: 'alice', uid: 'u', groups: ['devs'], extra: { k: ['v'] } } },
    });
  });
});
