// kube's create-on-update authorization: a server-side apply is authorized as `patch`, and when it
// creates its object, as `create` too (endpoints/handlers withAuthorization). The refusal is
// apimachinery's NewForbidden with RBAC's (empty) reason, after the type's own validation and
// before validating admission. Through @kubernetes/client-node over HTTPS, RBAC enforced.
import { afterEach, describe, expect, it } from '@jest/globals';
import { CoreV1Api, PatchStrategy, setHeaderOptions, type V1ConfigMap } from '@kubernetes/client-node';
import { startFakeApiServer, type FakeApiServer } from '../../../lib/testing/index.js';
import { refusal } from '../../support/refusal.js';

const RBAC = 'rbac.authorization.k8s.io';
const TOKENS = [
  { token: 'admin-t', user: 'admin', groups: ['system:masters'] },
  { token: 'alice-t', user: 'alice' },
];
const apply = setHeaderOptions('Content-Type', PatchStrategy.ServerSideApply);

describe('an apply that creates needs create as well as patch', () => {
  let api: FakeApiServer;
  afterEach(() => api?.close());

  /** alice may do `verbs` on configmaps in shop; `a` exists there. */
  async function start(verbs: string[]): Promise<CoreV1Api> {
    api = await startFakeApiServer({ authorization: 'RBAC', tokens: TOKENS, namespaces: ['shop'] });
    api.create('configmaps', { metadata: { name: 'a', namespace: 'shop' }, data: { v: '0' } });
    api.create(`roles.${RBAC}`, { metadata: { name: 'cm', namespace: 'shop' }, rules: [{ apiGroups: [''], resources: ['configmaps'], verbs }] });
    api.create(`rolebindings.${RBAC}`, {
      metadata: { name: 'alice-cm', namespace: 'shop' },
      roleRef: { apiGroup: RBAC, kind: 'Role', name: 'cm' },
      subjects: [{ kind: 'User', name: 'alice', apiGroup: RBAC }],
    });
    return api.kubeConfig({ token: 'alice-t' }).makeApiClient(CoreV1Api);
  }
  const cm = (name: string, data: { [k: string]: string }): V1ConfigMap => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'shop' }, data });
  const applyCm = (core: CoreV1Api, body: V1ConfigMap, dryRun?: string) =>
    core.patchNamespacedConfigMap({ name: body.metadata!.name!, namespace: 'shop', body, fieldManager: 'alice', force: true, ...(dryRun && { dryRun }) }, apply);

  it('with patch only: an apply to an existing object is allowed; one that would create is kube\'s 403 and stores nothing', async () => {
    const core = await start(['patch']);
    expect((await applyCm(core, cm('a', { v: '1' }))).data).toEqual({ v: '1' });
    expect(await refusal(applyCm(core, cm('new', { v: '1' })))).toEqual({ code: 403, message: 'configmaps "new" is forbidden: ' });
    expect(await refusal(applyCm(core, cm('new', { v: '1' }), 'All'))).toEqual({ code: 403, message: 'configmaps "new" is forbidden: ' });
    expect(api.get('configmaps', 'shop', 'new')).toBeUndefined();
  });

  it('with create and patch: the apply creates it (201)', async () => {
    const core = await start(['create', 'patch']);
    expect((await applyCm(core, cm('new', { v: '1' }))).metadata?.uid).toBeDefined();
    expect(api.get<V1ConfigMap>('configmaps', 'shop', 'new')?.data).toEqual({ v: '1' });
  });

  it('the type\'s validation answers first: an invalid object is a 422, not the 403', async () => {
    const core = await start(['patch']);
    const bad = await refusal(applyCm(core, cm('new', { 'not a key!': 'x' })));
    expect(bad.code).toBe(422);
    expect(bad.message).toContain('ConfigMap "new" is invalid: data[not a key!]: Invalid value: "not a key!"');
  });

  it('with create only: the apply is refused as a patch, before anything else', async () => {
    const core = await start(['create']);
    expect(await refusal(applyCm(core, cm('new', { v: '1' })))).toEqual({
      code: 403,
      message: 'configmaps "new" is forbidden: User "alice" cannot patch resource "configmaps" in API group "" in the namespace "shop"',
    });
  });
});
