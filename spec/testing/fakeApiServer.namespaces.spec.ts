// Namespace lifecycle (TESTCLUSTER.md §4), through @kubernetes/client-node over HTTP: a deleted
// namespace is Terminating until its content is gone (finalizers honoured), then goes; creating in
// it is a 403; default, kube-system and kube-public cannot be deleted.
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { CoreV1Api, PatchStrategy, setHeaderOptions, type V1Namespace } from '@kubernetes/client-node';
import { ApiException } from '@kubernetes/client-node';
import { startFakeApiServer, type FakeApiServer } from '../../lib/testing/index.js';
import { raw, rawWatch } from './rawClient.js';

const merge = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);

describe('fake API server: namespace lifecycle', () => {
  let api: FakeApiServer;
  let core: CoreV1Api;
  beforeEach(async () => {
    api = await startFakeApiServer({ garbageCollection: 'immediate' });
    core = api.kubeConfig().makeApiClient(CoreV1Api);
  });
  afterEach(() => api.close());

  it('a created namespace is Active with the kubernetes spec finalizer', async () => {
    const ns = await core.createNamespace({ body: { metadata: { name: 'team' } } });
    expect(ns.status).toEqual({ phase: 'Active' });
    expect(ns.spec).toEqual({ finalizers: ['kubernetes'] });
  });

  it('deleting a namespace deletes its content, then the namespace', async () => {
    await core.createNamespace({ body: { metadata: { name: 'team' } } });
    api.create('configmaps', { metadata: { name: 'a', namespace: 'team' } });
    api.create('pods', { metadata: { name: 'p', namespace: 'team' }, spec: { containers: [{ name: 'c', image: 'i' }] } });
    api.create('configmaps', { metadata: { name: 'elsewhere', namespace: 'default' } });
    await core.deleteNamespace({ name: 'team' });
    expect(api.get('namespaces', undefined, 'team')).toBeUndefined();
    expect(api.list('configmaps', 'team').items).toEqual([]);
    expect(api.list('pods', 'team').items).toEqual([]);
    expect(api.get('configmaps', 'default', 'elsewhere')).toBeDefined();
  });

  it('content with a finalizer keeps the namespace Terminating; creating there is the real 403; removing the finalizer lets it go', async () => {
    await core.createNamespace({ body: { metadata: { name: 'team' } } });
    api.create('configmaps', { metadata: { name: 'held', namespace: 'team', finalizers: ['example.com/hold'] } });
    const deleted = (await core.deleteNamespace({ name: 'team' })) as V1Namespace;
    expect(deleted.status?.phase).toBe('Terminating');
    const ns = api.get<V1Namespace>('namespaces', undefined, 'team')!;
    expect(ns.status?.phase).toBe('Terminating');
    expect(ns.metadata.deletionTimestamp).toBeDefined();
    expect(ns.spec?.finalizers).toEqual(['kubernetes']);
    expect(ns.status?.conditions?.find((c) => c.type === 'NamespaceContentRemaining')).toMatchObject({ status: 'True', reason: 'SomeResourcesRemain', message: 'Some resources are remaining: configmaps. has 1 resource instances' });
    expect(api.get('configmaps', 'team', 'held')?.metadata.deletionTimestamp).toBeDefined();

    const refused = await raw(api, '/api/v1/namespaces/team/configmaps', { method: 'POST', body: { metadata: { name: 'x' } } });
    expect(refused.status).toBe(403);
    expect(refused.json).toMatchObject({
      reason: 'Forbidden',
      message: 'configmaps "x" is forbidden: unable to create new content in namespace team because it is being terminated',
      details: { name: 'x', kind: 'configmaps', causes: [{ reason: 'NamespaceTerminating', message: 'namespace team is being terminated', field: 'metadata.namespace' }] },
    });
    const err = await core.createNamespacedConfigMap({ namespace: 'team', body: { metadata: { generateName: 'gen-' } } }).catch((e: unknown) => e);
    expect((err as ApiException<unknown>).code).toBe(403);

    await core.patchNamespacedConfigMap({ name: 'held', namespace: 'team', body: { metadata: { finalizers: null } } }, merge);
    expect(api.get('configmaps', 'team', 'held')).toBeUndefined();
    expect(api.get('namespaces', undefined, 'team')).toBeUndefined();
  });

  it('watchers see the namespace MODIFIED (Terminating) then DELETED', async () => {
    await core.createNamespace({ body: { metadata: { name: 'team' } } });
    const w = await rawWatch(api, '/api/v1/namespaces', { query: { watch: 'true', resourceVersion: api.resourceVersion, fieldSelector: 'metadata.name=team' } });
    try {
      await core.deleteNamespace({ name: 'team' });
      const events = await w.until((e) => e.length >= 2);
      expect(events.map((e) => [e.type, e.object.status?.phase])).toEqual([
        ['MODIFIED', 'Terminating'],
        ['DELETED', 'Terminating'],
      ]);
    } finally {
      w.close();
    }
  });

  it.each(['default', 'kube-system', 'kube-public'])('%s cannot be deleted: 403', async (name) => {
    const r = await raw(api, `/api/v1/namespaces/${name}`, { method: 'DELETE' });
    expect([r.status, r.json.reason, r.json.message]).toEqual([403, 'Forbidden', `namespaces "${name}" is forbidden: this namespace may not be deleted`]);
    expect(api.get('namespaces', undefined, name)?.metadata.deletionTimestamp).toBeUndefined();
  });

  it('a PUT cannot change spec.finalizers or status; /finalize can', async () => {
    const ns = await core.createNamespace({ body: { metadata: { name: 'team' } } });
    const put = await core.replaceNamespace({ name: 'team', body: { ...ns, spec: { finalizers: [] }, status: { phase: 'Terminating' } } });
    expect(put.spec?.finalizers).toEqual(['kubernetes']);
    expect(put.status?.phase).toBe('Active');
    const fin = await core.replaceNamespaceFinalize({ name: 'team', body: { ...put, spec: { finalizers: [] } } });
    expect(fin.spec?.finalizers).toEqual([]);
  });
});
