// One PolicyRule against one request, with kube's wildcard rules (evaluation_helpers.go).
import { describe, expect, it } from '@jest/globals';
import type { AuthorizationAttributes } from '../../../lib/testing/fakeApiServer/rbac/attributes.js';
import { compactString, ruleAllows } from '../../../lib/testing/fakeApiServer/rbac/policyRule.js';
import type { PolicyRule } from '../../../lib/testing/fakeApiServer/rbac/rbacObjects.js';

const user = { name: 'alice', groups: [] };
const req = (verb: string, resource: string, o: Partial<{ group: string; subresource: string; name: string; namespace: string }> = {}): AuthorizationAttributes => ({
  kind: 'resource',
  user,
  verb,
  group: o.group ?? '',
  version: 'v1',
  resource,
  subresource: o.subresource ?? '',
  name: o.name ?? '',
  namespace: o.namespace ?? 'shop',
});
const path = (verb: string, p: string): AuthorizationAttributes => ({ kind: 'nonResource', user, verb, path: p });

const cases: Array<[string, PolicyRule, AuthorizationAttributes, boolean]> = [
  ['exact verb, group and resource', { verbs: ['get'], apiGroups: [''], resources: ['pods'] }, req('get', 'pods'), true],
  ['another verb', { verbs: ['get'], apiGroups: [''], resources: ['pods'] }, req('list', 'pods'), false],
  ['verb *', { verbs: ['*'], apiGroups: [''], resources: ['pods'] }, req('deletecollection', 'pods'), true],
  ['another group', { verbs: ['get'], apiGroups: [''], resources: ['deployments'] }, req('get', 'deployments', { group: 'apps' }), false],
  ['group *', { verbs: ['get'], apiGroups: ['*'], resources: ['deployments'] }, req('get', 'deployments', { group: 'apps' }), true],
  ['no apiGroups never matches a resource', { verbs: ['get'], resources: ['pods'] }, req('get', 'pods'), false],
  ['resource * covers a subresource', { verbs: ['get'], apiGroups: [''], resources: ['*'] }, req('get', 'pods', { subresource: 'log' }), true],
  ['pods does not cover pods/log', { verbs: ['get'], apiGroups: [''], resources: ['pods'] }, req('get', 'pods', { subresource: 'log' }), false],
  ['pods/log covers it', { verbs: ['get'], apiGroups: [''], resources: ['pods/log'] }, req('get', 'pods', { subresource: 'log' }), true],
  ['pods/log does not cover pods', { verbs: ['get'], apiGroups: [''], resources: ['pods/log'] }, req('get', 'pods'), false],
  ['*/scale covers any scale', { verbs: ['update'], apiGroups: ['apps'], resources: ['*/scale'] }, req('update', 'deployments', { group: 'apps', subresource: 'scale' }), true],
  ['*/scale does not cover the resource', { verbs: ['update'], apiGroups: ['apps'], resources: ['*/scale'] }, req('update', 'deployments', { group: 'apps' }), false],
  ['pods/* is no wildcard', { verbs: ['get'], apiGroups: [''], resources: ['pods/*'] }, req('get', 'pods', { subresource: 'log' }), false],
  ['resourceNames names it', { verbs: ['get'], apiGroups: [''], resources: ['configmaps'], resourceNames: ['a'] }, req('get', 'configmaps', { name: 'a' }), true],
  ['resourceNames names another', { verbs: ['get'], apiGroups: [''], resources: ['configmaps'], resourceNames: ['a'] }, req('get', 'configmaps', { name: 'b' }), false],
  ['resourceNames never allows a create (no name)', { verbs: ['create'], apiGroups: [''], resources: ['configmaps'], resourceNames: ['a'] }, req('create', 'configmaps'), false],
  ['resourceNames never allows an unnamed list', { verbs: ['list'], apiGroups: [''], resources: ['configmaps'], resourceNames: ['a'] }, req('list', 'configmaps'), false],
  ['an unknown verb is kept and matches nothing else', { verbs: ['frobnicate'], apiGroups: [''], resources: ['pods'] }, req('get', 'pods'), false],
  ['an unknown verb matches itself', { verbs: ['frobnicate'], apiGroups: [''], resources: ['pods'] }, req('frobnicate', 'pods'), true],
  ['an unknown resource matches nothing', { verbs: ['*'], apiGroups: ['*'], resources: ['podz'] }, req('get', 'pods'), false],
  ['a resource rule does not allow a path', { verbs: ['*'], apiGroups: ['*'], resources: ['*'] }, path('get', '/healthz'), false],
  ['nonResourceURLs exact', { verbs: ['get'], nonResourceURLs: ['/healthz'] }, path('get', '/healthz'), true],
  ['nonResourceURLs exact, another path', { verbs: ['get'], nonResourceURLs: ['/healthz'] }, path('get', '/healthz/etcd'), false],
  ['nonResourceURLs prefix*', { verbs: ['get'], nonResourceURLs: ['/healthz/*'] }, path('get', '/healthz/etcd'), true],
  ['nonResourceURLs *', { verbs: ['get'], nonResourceURLs: ['*'] }, path('get', '/anything'), true],
  ['nonResourceURLs, another verb', { verbs: ['get'], nonResourceURLs: ['*'] }, path('post', '/anything'), false],
  ['a path rule does not allow a resource', { verbs: ['*'], nonResourceURLs: ['*'] }, req('get', 'pods'), false],
];

describe('RBAC PolicyRule matching', () => {
  it.each(cases)('%s', (_name, rule, attributes, allowed) => {
    expect(ruleAllows(attributes, rule)).toBe(allowed);
  });

  it.each<[PolicyRule, string]>([
    [{ apiGroups: [''], resources: ['secrets'], verbs: ['get'] }, '{APIGroups:[""], Resources:["secrets"], Verbs:["get"]}'],
    [{ nonResourceURLs: ['/metrics'], verbs: ['get', 'post'] }, '{NonResourceURLs:["/metrics"], Verbs:["get" "post"]}'],
    [{ apiGroups: ['apps'], resources: ['deployments'], resourceNames: ['web'], verbs: ['patch'] }, '{APIGroups:["apps"], Resources:["deployments"], ResourceNames:["web"], Verbs:["patch"]}'],
  ])('prints %j as kube prints it in escalation errors', (rule, text) => {
    expect(compactString(rule)).toBe(text);
  });
});
