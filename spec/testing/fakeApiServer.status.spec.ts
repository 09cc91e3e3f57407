// The status subresource (TESTCLUSTER.md §1), through @kubernetes/client-node over HTTP: writes to
// the main resource keep the stored status, writes to /status change only the status, and
// metadata.generation counts spec changes.
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { AppsV1Api, CoreV1Api, CustomObjectsApi, PatchStrategy, setHeaderOptions, type V1Deployment, type V1Pod } from '@kubernetes/client-node';
import { startFakeApiServer, type FakeApiServer } from '../../lib/testing/index.js';
import { raw } from './rawClient.js';

const merge = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);

const deployment = (name: string): V1Deployment => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name, namespace: 'default' },
  spec: { replicas: 1, selector: { matchLabels: { app: name } }, template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } },
});

const crd = (status: boolean) => ({
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'backups.example.com' },
  spec: {
    group: 'example.com',
    scope: 'Namespaced',
    names: { plural: 'backups', singular: 'backup', kind: 'Backup' },
    versions: [{ name: 'v1', served: true, storage: true, ...(status ? { subresources: { status: {} } } : {}), schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } }],
  },
});

describe('fake API server: the status subresource', () => {
  let api: FakeApiServer;
  let apps: AppsV1Api;
  let core: CoreV1Api;
  let custom: CustomObjectsApi;
  beforeEach(async () => {
    api = await startFakeApiServer();
    const kc = api.kubeConfig();
    apps = kc.makeApiClient(AppsV1Api);
    core = kc.makeApiClient(CoreV1Api);
    custom = kc.makeApiClient(CustomObjectsApi);
  });
  afterEach(() => api.close());

  it('a Deployment created with a status gets status {} and generation 1', async () => {
    const created = await apps.createNamespacedDeployment({ namespace: 'default', body: { ...deployment('web'), status: { replicas: 5, readyReplicas: 5 } } });
    expect(created.status).toEqual({});
    expect(created.metadata?.generation).toBe(1);
  });

  it('a Pod created with a status is Pending with its QoS class', async () => {
    const pod: V1Pod = { metadata: { name: 'p', namespace: 'default' }, spec: { containers: [{ name: 'c', image: 'nginx', resources: { requests: { cpu: '1' } } }] }, status: { phase: 'Running' } };
    const created = await core.createNamespacedPod({ namespace: 'default', body: pod });
    expect(created.status).toEqual({ phase: 'Pending', qosClass: 'Burstable' });
  });

  it('PUT and PATCH of the main resource keep the stored status; only a spec change bumps generation', async () => {
    await apps.createNamespacedDeployment({ namespace: 'default', body: deployment('web') });
    const withStatus = await apps.replaceNamespacedDeploymentStatus({ name: 'web', namespace: 'default', body: { ...(await apps.readNamespacedDeployment({ name: 'web', namespace: 'default' })), status: { replicas: 1, observedGeneration: 1 } } });
    expect(withStatus.status).toEqual({ replicas: 1, observedGeneration: 1 });
    expect(withStatus.metadata?.generation).toBe(1);

    // A controller that writes status through the main resource: the status is not changed.
    const put = await apps.replaceNamespacedDeployment({ name: 'web', namespace: 'default', body: { ...withStatus, status: { replicas: 9 } } });
    expect(put.status).toEqual({ replicas: 1, observedGeneration: 1 });
    expect(put.metadata?.resourceVersion).toBe(withStatus.metadata?.resourceVersion); // a no-op: nothing changed
    const patched = await apps.patchNamespacedDeployment({ name: 'web', namespace: 'default', body: { status: { replicas: 7 }, spec: { replicas: 3 } } }, merge);
    expect(patched.status).toEqual({ replicas: 1, observedGeneration: 1 });
    expect(patched.spec?.replicas).toBe(3);
    expect(patched.metadata?.generation).toBe(2);

    // A label change is metadata: no new generation.
    const labelled = await apps.patchNamespacedDeployment({ name: 'web', namespace: 'default', body: { metadata: { labels: { x: 'y' } } } }, merge);
    expect(labelled.metadata?.generation).toBe(2);
  });

  it('PUT and PATCH of /status change only the status (spec and labels in the body are ignored), generation unchanged', async () => {
    const created = await apps.createNamespacedDeployment({ namespace: 'default', body: deployment('web') });
    const body = { ...created, metadata: { ...created.metadata, labels: { sneaky: 'yes' } }, spec: { ...created.spec!, replicas: 10 }, status: { replicas: 2 } };
    const updated = await apps.replaceNamespacedDeploymentStatus({ name: 'web', namespace: 'default', body });
    expect(updated.spec?.replicas).toBe(1);
    expect(updated.metadata?.labels).toBeUndefined();
    expect(updated.status).toEqual({ replicas: 2 });
    expect(updated.metadata?.generation).toBe(1);
    const patched = await apps.patchNamespacedDeploymentStatus({ name: 'web', namespace: 'default', body: { spec: { replicas: 4 }, status: { readyReplicas: 2 } } }, merge);
    expect(patched.spec?.replicas).toBe(1);
    expect(patched.status).toEqual({ replicas: 2, readyReplicas: 2 });
  });

  it('/status of a type without status (ConfigMap) is a 404; /status of a missing object is a 404, never a create', async () => {
    api.create('configmaps', { metadata: { name: 'cm', namespace: 'default' } });
    const cm = await raw(api, '/api/v1/namespaces/default/configmaps/cm/status', { method: 'PATCH', body: { data: { a: 'b' } }, contentType: 'application/merge-patch+json' });
    expect(cm.status).toBe(404);
    const missing = await raw(api, '/apis/apps/v1/namespaces/default/deployments/nope/status', { method: 'PATCH', body: { status: {} }, contentType: 'application/apply-patch+yaml', query: { fieldManager: 'x' } });
    expect(missing.status).toBe(404);
  });

  it('a CRD with subresources.status: create drops the status, main writes keep it, /status writes only it; generation counts spec', async () => {
    await raw(api, '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', { method: 'POST', body: crd(true) });
    const base = { group: 'example.com', version: 'v1', namespace: 'default', plural: 'backups' };
    const created = (await custom.createNamespacedCustomObject({ ...base, body: { apiVersion: 'example.com/v1', kind: 'Backup', metadata: { name: 'b' }, spec: { target: 'db' }, status: { phase: 'Done' } } })) as { status?: unknown; metadata: { generation: number } };
    expect(created.status).toBeUndefined();
    expect(created.metadata.generation).toBe(1);
    const st = (await custom.patchNamespacedCustomObjectStatus({ ...base, name: 'b', body: { status: { phase: 'Running' }, spec: { target: 'other' }, metadata: { labels: { a: 'b' } } } }, merge)) as {
      status: unknown;
      spec: unknown;
      metadata: { generation: number; labels?: unknown };
    };
    expect(st.status).toEqual({ phase: 'Running' });
    expect(st.spec).toEqual({ target: 'db' });
    expect(st.metadata.labels).toBeUndefined(); // custom resources ignore metadata on /status
    expect(st.metadata.generation).toBe(1);
    const main = (await custom.patchNamespacedCustomObject({ ...base, name: 'b', body: { spec: { target: 'cache' }, status: { phase: 'Lost' } } }, merge)) as { status: unknown; metadata: { generation: number } };
    expect(main.status).toEqual({ phase: 'Running' });
    expect(main.metadata.generation).toBe(2);
  });

  it('a CRD without subresources.status: status is written like any field and counts for generation; /status is a 404', async () => {
    await raw(api, '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', { method: 'POST', body: crd(false) });
    const base = { group: 'example.com', version: 'v1', namespace: 'default', plural: 'backups' };
    const created = (await custom.createNamespacedCustomObject({ ...base, body: { apiVersion: 'example.com/v1', kind: 'Backup', metadata: { name: 'b' }, spec: {}, status: { phase: 'Done' } } })) as { status?: unknown };
    expect(created.status).toEqual({ phase: 'Done' });
    const main = (await custom.patchNamespacedCustomObject({ ...base, name: 'b', body: { status: { phase: 'Again' } } }, merge)) as { status: unknown; metadata: { generation: number } };
    expect(main.status).toEqual({ phase: 'Again' });
    expect(main.metadata.generation).toBe(2);
    const sub = await raw(api, '/apis/example.com/v1/namespaces/default/backups/b/status', { method: 'PATCH', body: { status: {} }, contentType: 'application/merge-patch+json' });
    expect(sub.status).toBe(404);
  });

  it('the data plane follows the same rules; updateStatus, patch(..., "status") and create({ withStatus }) write status', () => {
    const p = api.create<V1Pod>('pods', { metadata: { name: 'p', namespace: 'default' }, spec: { containers: [{ name: 'c', image: 'nginx' }] }, status: { phase: 'Running' } });
    expect(p.status).toEqual({ phase: 'Pending', qosClass: 'BestEffort' });
    expect(api.update<V1Pod>('pods', { ...p, status: { phase: 'Failed' } }).status?.phase).toBe('Pending');
    expect(api.patch<V1Pod>('pods', 'default', 'p', { status: { phase: 'Failed' } }).status?.phase).toBe('Pending');
    expect(api.patch<V1Pod>('pods', 'default', 'p', { status: { phase: 'Running' } }, 'merge', 'status').status?.phase).toBe('Running');
    const now = api.get<V1Pod>('pods', 'default', 'p')!;
    expect(api.updateStatus<V1Pod>('pods', { ...now, status: { phase: 'Succeeded' } }).status?.phase).toBe('Succeeded');
    expect(api.create<V1Pod>('pods', { metadata: { name: 'q', namespace: 'default' }, spec: { containers: [{ name: 'c', image: 'nginx' }] }, status: { phase: 'Running' } }, { withStatus: true }).status).toEqual({ phase: 'Running' });
    expect(() => api.updateStatus('configmaps', { metadata: { name: 'x', namespace: 'default' } })).toThrow(/not found/);
  });

  it('a /status write updates status field selectors, keeps the others, and is a no-op (same RV) when the status is the same', async () => {
    await core.createNamespacedPod({ namespace: 'default', body: { metadata: { name: 'p' }, spec: { nodeName: 'n1', containers: [{ name: 'c', image: 'a' }] } } });
    const running = await core.patchNamespacedPodStatus({ name: 'p', namespace: 'default', body: { status: { phase: 'Running', podIP: '10.0.0.1' } } }, merge);
    const select = async (fieldSelector: string) => (await core.listNamespacedPod({ namespace: 'default', fieldSelector })).items.map((p) => p.metadata?.name);
    expect(await select('status.phase=Running,spec.nodeName=n1')).toEqual(['p']);
    expect(await select('status.podIP=10.0.0.1')).toEqual(['p']);
    expect(await select('status.phase=Pending')).toEqual([]);
    const again = await core.replaceNamespacedPodStatus({ name: 'p', namespace: 'default', body: running });
    expect(again.metadata?.resourceVersion).toBe(running.metadata?.resourceVersion);
    expect(api.get<V1Pod>('pods', 'default', 'p')?.status).toEqual(running.status);
  });

  it('a Pod spec change bumps its generation; a status write does not', async () => {
    const p = await core.createNamespacedPod({ namespace: 'default', body: { metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'a' }] } } });
    expect(p.metadata?.generation).toBe(1);
    const s = await core.patchNamespacedPodStatus({ name: 'p', namespace: 'default', body: { status: { phase: 'Running' } } }, merge);
    expect(s.metadata?.generation).toBe(1);
    const u = await core.patchNamespacedPod({ name: 'p', namespace: 'default', body: { spec: { activeDeadlineSeconds: 5 } } }, merge);
    expect(u.metadata?.generation).toBe(2);
    expect(u.status?.phase).toBe('Running');
  });
});
