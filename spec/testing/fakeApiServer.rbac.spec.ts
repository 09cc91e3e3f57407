// The fake API server's authorization through @kubernetes/client-node over HTTPS: the access reviews
// in both modes, RBAC enforced over stored roles and bindings (kube's 403, bootstrap policy,
// aggregation, impersonation), and ServiceAccount tokens the server issues and then authenticates.
import { afterEach, describe, expect, it } from '@jest/globals';
import { AuthorizationV1Api, CoreV1Api, RbacAuthorizationV1Api, type KubeConfig, type V1ClusterRole } from '@kubernetes/client-node';
import { ApiStatusError } from '../../lib/errors.js';
import { startFakeApiServer, type FakeApiServer } from '../../lib/testing/index.js';
import { waitFor } from '../support/waitFor.js';
import { raw } from './rawClient.js';
import { refusal } from '../support/refusal.js';

const RBAC = 'rbac.authorization.k8s.io';
/** The default kubeconfig uses the first token: an admin (system:masters), then alice, bound to nothing. */
const TOKENS = [
  { token: 'admin-t', user: 'admin', groups: ['system:masters'] },
  { token: 'alice-t', user: 'alice' },
];

describe('fake API server authorization', () => {
  let api: FakeApiServer;
  afterEach(() => api?.close());

  const ssar = (kc: KubeConfig, verb: string, resource: string, namespace?: string) =>
    kc.makeApiClient(AuthorizationV1Api).createSelfSubjectAccessReview({ body: { spec: { resourceAttributes: { verb, resource, ...(namespace && { namespace }) } } } });

  it('default mode: everything is allowed, the reviews still answer (a token deny list denies)', async () => {
    api = await startFakeApiServer({ tokens: [{ token: 'admin-t', user: 'admin', groups: ['system:masters'] }, { token: 'reader-t', user: 'reader', deny: [{ verb: 'delete' }] }] });
    const admin = api.kubeConfig({ token: 'admin-t' });
    expect((await ssar(admin, 'delete', 'nodes')).status).toEqual({ allowed: true });
    const reader = api.kubeConfig({ token: 'reader-t' });
    expect((await ssar(reader, 'get', 'pods', 'default')).status).toEqual({ allowed: true });
    expect((await ssar(reader, 'delete', 'pods', 'default')).status).toEqual({ allowed: false, denied: true });
    const rules = await reader.makeApiClient(AuthorizationV1Api).createSelfSubjectRulesReview({ body: { spec: { namespace: 'default' } } });
    expect(rules.status?.resourceRules).toEqual([{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }]);
    // No bootstrap policy in the default mode: nothing a test did not create.
    expect((await admin.makeApiClient(RbacAuthorizationV1Api).listClusterRole()).items).toEqual([]);
  });

  it('RBAC mode: a user is allowed what its bindings grant, and refused the rest with kube 403', async () => {
    api = await startFakeApiServer({ authorization: 'RBAC', tokens: TOKENS });
    api.create('namespaces', { metadata: { name: 'shop' } });
    api.create('configmaps', { metadata: { name: 'a', namespace: 'shop' } });
    const alice = api.kubeConfig({ token: 'alice-t' }).makeApiClient(CoreV1Api);
    expect(await refusal(alice.listNamespacedConfigMap({ namespace: 'shop' }))).toEqual({
      code: 403,
      message: 'configmaps is forbidden: User "alice" cannot list resource "configmaps" in API group "" in the namespace "shop"',
    });
    api.create(`roles.${RBAC}`, { metadata: { name: 'cm-reader', namespace: 'shop' }, rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'list'] }] });
    api.create(`rolebindings.${RBAC}`, {
      metadata: { name: 'alice-reads', namespace: 'shop' },
      roleRef: { apiGroup: RBAC, kind: 'Role', name: 'cm-reader' },
      subjects: [{ kind: 'User', name: 'alice', apiGroup: RBAC }],
    });
    expect((await alice.listNamespacedConfigMap({ namespace: 'shop' })).items.map((c) => c.metadata?.name)).toEqual(['a']);
    expect(await refusal(alice.deleteNamespacedConfigMap({ name: 'a', namespace: 'shop' }))).toEqual({
      code: 403,
      message: 'configmaps "a" is forbidden: User "alice" cannot delete resource "configmaps" in API group "" in the namespace "shop"',
    });
    expect(await refusal(alice.listNamespacedConfigMap({ namespace: 'default' }))).toMatchObject({ code: 403 });
    // The reviews answer from the same rules: the user's own, and another's for an admin.
    const aliceKc = api.kubeConfig({ token: 'alice-t' });
    expect((await ssar(aliceKc, 'list', 'configmaps', 'shop')).status).toEqual({ allowed: true, reason: 'RBAC: allowed by RoleBinding "alice-reads/shop" of Role "cm-reader" to User "alice"' });
    expect((await ssar(aliceKc, 'delete', 'configmaps', 'shop')).status).toEqual({ allowed: false });
    const sar = await api.kubeConfig().makeApiClient(AuthorizationV1Api).createSubjectAccessReview({ body: { spec: { user: 'alice', resourceAttributes: { verb: 'get', resource: 'configmaps', namespace: 'shop' } } } });
    expect(sar.status?.allowed).toBe(true);
    // The default credential is system:masters: allowed everything, without a reason.
    expect((await ssar(api.kubeConfig(), 'delete', 'nodes')).status).toEqual({ allowed: true });
  });

  it('RBAC mode: kube bootstrap policy, discovery for every authenticated user, 401 without a credential', async () => {
    api = await startFakeApiServer({ authorization: 'RBAC', tokens: TOKENS });
    const names = (await api.kubeConfig().makeApiClient(RbacAuthorizationV1Api).listClusterRoleBinding()).items.map((b) => b.metadata?.name);
    expect(names).toEqual(expect.arrayContaining(['cluster-admin', 'system:basic-user', 'system:discovery']));
    expect((await raw(api, '/apis', { token: 'alice-t' })).status).toBe(200);
    expect((await raw(api, '/api/v1/namespaces', { token: null })).status).toBe(401);
    const rules = await api.kubeConfig({ token: 'alice-t' }).makeApiClient(AuthorizationV1Api).createSelfSubjectRulesReview({ body: { spec: { namespace: 'default' } } });
    expect(rules.status?.resourceRules).toContainEqual({ verbs: ['create'], apiGroups: ['authorization.k8s.io'], resources: ['selfsubjectaccessreviews', 'selfsubjectrulesreviews'] });
    // admin, edit and view are filled by the aggregation controller, and follow new labelled roles.
    const grants = (role: string, resource: string) => () => (api.get<V1ClusterRole>(`clusterroles.${RBAC}`, undefined, role)?.rules ?? []).some((r) => r.resources?.includes(resource));
    await waitFor(grants('view', 'pods'), 'view to be aggregated');
    const widgets: V1ClusterRole = { metadata: { name: 'widgets-view', labels: { 'rbac.authorization.k8s.io/aggregate-to-view': 'true' } }, rules: [{ apiGroups: ['example.com'], resources: ['widgets'], verbs: ['get'] }] };
    await api.kubeConfig().makeApiClient(RbacAuthorizationV1Api).createClusterRole({ body: widgets });
    await waitFor(grants('admin', 'widgets'), 'admin to aggregate view, which aggregates widgets-view');
  });

  it('RBAC mode: nobody grants what they do not hold, unless they may escalate or bind', async () => {
    api = await startFakeApiServer({ authorization: 'RBAC', tokens: TOKENS });
    api.create('namespaces', { metadata: { name: 'shop' } });
    api.create(`roles.${RBAC}`, { metadata: { name: 'rbac-editor', namespace: 'shop' }, rules: [{ apiGroups: [RBAC], resources: ['roles', 'rolebindings'], verbs: ['create', 'patch'] }, { apiGroups: [''], resources: ['configmaps'], verbs: ['get'] }] });
    api.create(`rolebindings.${RBAC}`, { metadata: { name: 'alice-edits', namespace: 'shop' }, roleRef: { apiGroup: RBAC, kind: 'Role', name: 'rbac-editor' }, subjects: [{ kind: 'User', name: 'alice' }] });
    const rbac = api.kubeConfig({ token: 'alice-t' }).makeApiClient(RbacAuthorizationV1Api);
    const role = (name: string, resource: string) => ({ metadata: { name }, rules: [{ apiGroups: [''], resources: [resource], verbs: ['get'] }] });
    await rbac.createNamespacedRole({ namespace: 'shop', body: role('cm-get', 'configmaps') });
    expect(await refusal(rbac.createNamespacedRole({ namespace: 'shop', body: role('secret-get', 'secrets') }))).toEqual({
      code: 403,
      message:
        'roles.rbac.authorization.k8s.io "secret-get" is forbidden: user "alice" (groups=["system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n{APIGroups:[""], Resources:["secrets"], Verbs:["get"]}',
    });
    // A patch is checked on the object it would store.
    const patch = [{ op: 'add', path: '/rules/-', value: { apiGroups: [''], resources: ['secrets'], verbs: ['list'] } }];
    expect(await refusal(rbac.patchNamespacedRole({ name: 'cm-get', namespace: 'shop', body: patch }))).toMatchObject({ code: 403 });
    const binding = { metadata: { name: 'bob-admin' }, roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: 'cluster-admin' }, subjects: [{ kind: 'User', name: 'bob' }] };
    expect(await refusal(rbac.createNamespacedRoleBinding({ namespace: 'shop', body: binding }))).toMatchObject({ code: 403, message: expect.stringContaining('rolebindings.rbac.authorization.k8s.io "bob-admin" is forbidden: user "alice"') });
    // With the bind verb on that ClusterRole (and escalate on roles) it is allowed.
    api.create(`clusterroles.${RBAC}`, { metadata: { name: 'binder' }, rules: [{ apiGroups: [RBAC], resources: ['clusterroles'], verbs: ['bind'], resourceNames: ['cluster-admin'] }, { apiGroups: [RBAC], resources: ['roles'], verbs: ['escalate'] }] });
    api.create(`rolebindings.${RBAC}`, { metadata: { name: 'alice-binds', namespace: 'shop' }, roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: 'binder' }, subjects: [{ kind: 'User', name: 'alice' }] });
    await rbac.createNamespacedRoleBinding({ namespace: 'shop', body: binding });
    await rbac.createNamespacedRole({ namespace: 'shop', body: role('secret-get', 'secrets') });
  });

  it('default mode: a role may grant anything (everyone may escalate)', async () => {
    api = await startFakeApiServer({ tokens: TOKENS });
    const rbac = api.kubeConfig({ token: 'alice-t' }).makeApiClient(RbacAuthorizationV1Api);
    await rbac.createClusterRole({ body: { metadata: { name: 'all' }, rules: [{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }] } });
  });

  it('RBAC mode: a client certificate user is authorized by its groups (O); a rule with an unknown verb or resource is stored and matches nothing else', async () => {
    api = await startFakeApiServer({ authorization: 'RBAC', tokens: TOKENS });
    const rbac = api.kubeConfig().makeApiClient(RbacAuthorizationV1Api);
    const odd = await rbac.createClusterRole({ body: { metadata: { name: 'odd' }, rules: [{ apiGroups: ['*'], resources: ['podz'], verbs: ['get'] }, { apiGroups: [''], resources: ['pods'], verbs: ['frobnicate'] }] } });
    expect(odd.rules).toEqual([{ apiGroups: ['*'], resources: ['podz'], verbs: ['get'] }, { apiGroups: [''], resources: ['pods'], verbs: ['frobnicate'] }]);
    await rbac.createClusterRoleBinding({ body: { metadata: { name: 'devs-odd' }, roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: 'odd' }, subjects: [{ kind: 'Group', name: 'devs', apiGroup: RBAC }] } });
    const carol = api.kubeConfig({ clientCertificate: api.issueClientCertificate('carol', ['devs']) });
    expect(await refusal(carol.makeApiClient(CoreV1Api).readNamespace({ name: 'default' }))).toEqual({
      code: 403,
      message: 'namespaces "default" is forbidden: User "carol" cannot get resource "namespaces" in API group "" in the namespace "default"',
    });
    expect((await ssar(carol, 'frobnicate', 'pods', 'x')).status).toEqual({ allowed: true, reason: 'RBAC: allowed by ClusterRoleBinding "devs-odd" of ClusterRole "odd" to Group "devs"' });
    expect((await ssar(carol, 'get', 'pods', 'x')).status).toEqual({ allowed: false });
  });

  it('RBAC mode: impersonation needs the impersonate verb', async () => {
    api = await startFakeApiServer({ authorization: 'RBAC', tokens: TOKENS });
    const asBob = { token: 'alice-t', headers: { 'Impersonate-User': 'bob' } };
    expect((await raw(api, '/api/v1/namespaces', asBob)).json.message).toBe('users "bob" is forbidden: User "alice" cannot impersonate resource "users" in API group "" at the cluster scope');
    api.create(`clusterroles.${RBAC}`, { metadata: { name: 'impersonator' }, rules: [{ apiGroups: [''], resources: ['users'], verbs: ['impersonate'] }] });
    api.create(`clusterrolebindings.${RBAC}`, { metadata: { name: 'alice-impersonates' }, roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: 'impersonator' }, subjects: [{ kind: 'User', name: 'alice' }] });
    expect((await raw(api, '/api/v1/namespaces', asBob)).json.message).toBe('namespaces is forbidden: User "bob" cannot list resource "namespaces" in API group "" at the cluster scope');
    expect(api.requests.at(-1)).toMatchObject({ user: 'bob', impersonator: 'alice' });
  });
});

describe('access endpoints: bad input gets kube answers, never a 500', () => {
  let api: FakeApiServer;
  afterEach(() => api?.close());

  it.each<[string, string, string, unknown, number, string]>([
    ['a GET of a review', 'GET', '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews', undefined, 405, 'MethodNotAllowed'],
    ['a review under a namespace', 'POST', '/apis/authorization.k8s.io/v1/namespaces/x/selfsubjectaccessreviews', { spec: {} }, 404, 'NotFound'],
    ['a PUT of a token', 'PUT', '/api/v1/namespaces/default/serviceaccounts/app/token', {}, 405, 'MethodNotAllowed'],
    ['a body that is not JSON', 'POST', '/apis/authorization.k8s.io/v1/selfsubjectrulesreviews', '{nope', 400, 'BadRequest'],
    ['a review without attributes', 'POST', '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews', { spec: {} }, 422, 'Invalid'],
    ['a token of a missing ServiceAccount', 'POST', '/api/v1/namespaces/default/serviceaccounts/nobody/token', {}, 404, 'NotFound'],
  ])('%s', async (_name, method, path, body, code, reason) => {
    api = await startFakeApiServer();
    const r = await raw(api, path, { method, body });
    expect([r.status, r.json.reason]).toEqual([code, reason]);
  });
});

describe('ServiceAccount tokens', () => {
  let api: FakeApiServer;
  afterEach(() => api?.close());

  it('a TokenRequest token authenticates as the ServiceAccount until it is deleted', async () => {
    api = await startFakeApiServer({ authorization: 'RBAC' });
    api.create('namespaces', { metadata: { name: 'shop' } });
    api.create('serviceaccounts', { metadata: { name: 'app', namespace: 'shop' } });
    const core = api.kubeConfig().makeApiClient(CoreV1Api);
    const answer = await core.createNamespacedServiceAccountToken({ name: 'app', namespace: 'shop', body: { spec: { audiences: [] } } });
    expect(answer.status?.token).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    const asApp = api.kubeConfig({ token: answer.status!.token }).makeApiClient(CoreV1Api);
    expect(await refusal(asApp.listNamespacedPod({ namespace: 'shop' }))).toEqual({
      code: 403,
      message: 'pods is forbidden: User "system:serviceaccount:shop:app" cannot list resource "pods" in API group "" in the namespace "shop"',
    });
    expect(api.requests.at(-1)).toMatchObject({ user: 'system:serviceaccount:shop:app', groups: ['system:serviceaccounts', 'system:serviceaccounts:shop'], authenticatedBy: 'serviceAccountToken' });
    api.create(`rolebindings.${RBAC}`, {
      metadata: { name: 'app-views', namespace: 'shop' },
      roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: 'view' },
      subjects: [{ kind: 'ServiceAccount', name: 'app', namespace: 'shop' }],
    });
    expect((await asApp.listNamespacedPod({ namespace: 'shop' })).items).toEqual([]);
    api.delete('serviceaccounts', 'shop', 'app');
    expect(await refusal(asApp.listNamespacedPod({ namespace: 'shop' }))).toMatchObject({ code: 401 });
  });

  it('api.kubeConfig({ serviceAccount }) and api.createToken issue the same tokens, with kube errors', async () => {
    api = await startFakeApiServer({ authorization: 'RBAC' });
    api.create('serviceaccounts', { metadata: { name: 'app', namespace: 'default' } });
    api.create(`clusterrolebindings.${RBAC}`, { metadata: { name: 'app-admin' }, roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: 'cluster-admin' }, subjects: [{ kind: 'ServiceAccount', name: 'app', namespace: 'default' }] });
    const kc = api.kubeConfig({ serviceAccount: { namespace: 'default', name: 'app' } });
    await kc.makeApiClient(CoreV1Api).listNamespace();
    expect(api.requests.at(-1)).toMatchObject({ user: 'system:serviceaccount:default:app' });
    expect(() => api.createToken('default', 'nobody')).toThrow(ApiStatusError);
    expect(() => api.createToken('default', 'app', { expirationSeconds: 60 })).toThrow(
      'TokenRequest.authentication.k8s.io "" is invalid: spec.expirationSeconds: Invalid value: 60: may not specify a duration less than 10 minutes',
    );
  });
});
