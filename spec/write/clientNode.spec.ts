// The write side end to end: patches built by rxkube, sent by @kubernetes/client-node's real stack
// (1.4 on the Node 20 leg, 2.0 on the Node 24 leg) to the fake API server.
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { AppsV1Api, CoreV1Api, EventsV1Api, PatchStrategy, setHeaderOptions, type V1ConfigMap, type V1Deployment } from '@kubernetes/client-node';
import { filter, firstValueFrom } from 'rxjs';
import {
  clientNodeEventSink,
  controllerReference,
  eventRecorder,
  finalizer,
  jsonPatch,
  mergePatch,
  objectReference,
  type FinalizerEvent,
  type KubeEvent,
} from '../../lib/index.js';
import { deploymentFixture, startFakeApiServer, type FakeApiServer } from '../../lib/testing/index.js';

const statusOf = async (p: Promise<unknown>): Promise<number | undefined> =>
  p.then(
    () => 200,
    (e: { code?: number }) => e.code,
  );

describe('write side through client-node against the fake API server', () => {
  let api: FakeApiServer;
  let core: CoreV1Api;
  let apps: AppsV1Api;
  beforeEach(async () => {
    api = await startFakeApiServer({ bookmarkIntervalMs: 0 });
    core = api.kubeConfig().makeApiClient(CoreV1Api);
    apps = api.kubeConfig().makeApiClient(AppsV1Api);
  });
  afterEach(() => api.close());

  const createCm = () => core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'cm', labels: { a: '1' } }, data: { x: '1' } } });

  it('jsonPatch is one call (client-node sends json-patch by default); a stale test is 422', async () => {
    const cm = await createCm();
    const body = jsonPatch(cm, (d) => {
      d.metadata!.labels!['example.com/ready'] = '3';
      d.data!.x = '2';
    });
    const patched = await core.patchNamespacedConfigMap({ name: 'cm', namespace: 'default', body });
    expect(patched.metadata?.labels).toEqual({ a: '1', 'example.com/ready': '3' });
    expect(patched.data).toEqual({ x: '2' });
    // The same patch again: built on a resourceVersion that is no longer current.
    expect(await statusOf(core.patchNamespacedConfigMap({ name: 'cm', namespace: 'default', body }))).toBe(422);
    expect(api.get<V1ConfigMap>('configmaps', 'default', 'cm')?.metadata?.resourceVersion).toBe(patched.metadata?.resourceVersion);
  });

  it('mergePatch with setHeaderOptions: null removes; a stale resourceVersion is 409', async () => {
    const cm = await createCm();
    const merge = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);
    const body = mergePatch(cm, (d) => {
      delete d.metadata!.labels!.a;
      d.data!.y = 'new';
    });
    const patched = await core.patchNamespacedConfigMap({ name: 'cm', namespace: 'default', body }, merge);
    expect(patched.metadata?.labels ?? {}).toEqual({});
    expect(patched.data).toEqual({ x: '1', y: 'new' });
    expect(await statusOf(core.patchNamespacedConfigMap({ name: 'cm', namespace: 'default', body }, merge))).toBe(409);
  });

  it('ownerReferences written with controllerReference survive and read back', async () => {
    const owner = await apps.createNamespacedDeployment({
      namespace: 'default',
      body: deploymentFixture({ name: 'web' }),
    });
    const cm = await createCm();
    const body = jsonPatch(cm, (d) => {
      d.metadata!.ownerReferences = [controllerReference(owner, { apiVersion: 'apps/v1', kind: 'Deployment' })];
    });
    const patched = await core.patchNamespacedConfigMap({ name: 'cm', namespace: 'default', body });
    expect(patched.metadata?.ownerReferences).toEqual([
      { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', uid: owner.metadata!.uid, controller: true, blockOwnerDeletion: true },
    ]);
    // Two controllers, or a reference without a uid, are refused as kube does (422).
    const two = jsonPatch(patched, (d) => {
      d.metadata!.ownerReferences!.push({ apiVersion: 'apps/v1', kind: 'Deployment', name: 'api', uid: 'u2', controller: true });
    });
    expect(await statusOf(core.patchNamespacedConfigMap({ name: 'cm', namespace: 'default', body: two }))).toBe(422);
    expect(await statusOf(core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'x', ownerReferences: [{ apiVersion: 'v1', kind: 'Pod', name: 'p', uid: '' }] } } }))).toBe(422);
  });

  it('finalizer: adds the finalizer first, applies, holds the deleted object (DELETE twice is fine) until cleanup removes it', async () => {
    await apps.createNamespacedDeployment({
      namespace: 'default',
      body: deploymentFixture({ name: 'web' }),
    });
    const seen: string[] = [];
    const run = async () => {
      const object = await apps.readNamespacedDeployment({ name: 'web', namespace: 'default' });
      return finalizer({
        name: 'example.com/cleanup',
        object,
        patch: (d: V1Deployment, body) => apps.patchNamespacedDeployment({ name: d.metadata!.name!, namespace: 'default', body }),
        reconcile: (e: FinalizerEvent<V1Deployment>) => {
          seen.push(`${e.type} ${e.object.metadata?.finalizers?.join(',')}`);
          return e.type;
        },
      });
    };
    expect(await run()).toBeUndefined(); // added the finalizer, did not apply yet
    expect(api.get<V1Deployment>('deployments.apps', 'default', 'web')?.metadata?.finalizers).toEqual(['example.com/cleanup']);
    expect(await run()).toBe('apply');
    await apps.deleteNamespacedDeployment({ name: 'web', namespace: 'default' });
    await apps.deleteNamespacedDeployment({ name: 'web', namespace: 'default' });
    expect(api.get<V1Deployment>('deployments.apps', 'default', 'web')?.metadata?.deletionTimestamp).toBeDefined();
    expect(await run()).toBe('cleanup');
    expect(api.get('deployments.apps', 'default', 'web')).toBeUndefined();
    expect(seen).toEqual(['apply example.com/cleanup', 'cleanup example.com/cleanup']);
  });

  it('finalizer: a failed cleanup keeps the finalizer; a failed removal is a FinalizerError; a stale object is retried', async () => {
    const cm = await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'f', finalizers: ['example.com/x'] } } });
    await core.deleteNamespacedConfigMap({ name: 'f', namespace: 'default' });
    const object = await core.readNamespacedConfigMap({ name: 'f', namespace: 'default' });
    const patch = (o: V1ConfigMap, body: unknown) => core.patchNamespacedConfigMap({ name: o.metadata!.name!, namespace: 'default', body });
    await expect(finalizer({ name: 'example.com/x', object, patch, reconcile: () => Promise.reject(new Error('cloud API down')) })).rejects.toThrow('cloud API down');
    expect(api.get('configmaps', 'default', 'f')).toBeDefined();
    // A removal refused for another reason than a stale version (here the connection) is a FinalizerError.
    const broken = () => Promise.reject(new Error('connection reset'));
    await expect(finalizer({ name: 'example.com/x', object, patch: broken, reconcile: () => 'done' })).rejects.toMatchObject({
      code: 'FinalizerError',
      step: 'remove',
    });
    expect(api.get('configmaps', 'default', 'f')).toBeDefined();
    // `cm` was read before the delete: its resourceVersion test fails (422), the finalizers are as
    // read, so the retry conditional on them alone removes it.
    const stale = { ...cm, metadata: { ...cm.metadata, deletionTimestamp: new Date() } };
    expect(await finalizer({ name: 'example.com/x', object: stale, patch, reconcile: () => 'done' })).toBe('done');
    expect(api.get('configmaps', 'default', 'f')).toBeUndefined();
  });

  it('eventRecorder writes events.k8s.io/v1 Events through EventsV1Api, repeats as one Event with a series', async () => {
    const cm = await createCm();
    const recorder = eventRecorder({
      sink: clientNodeEventSink(api.kubeConfig().makeApiClient(EventsV1Api)),
      reportingController: 'example.com/labeller',
      reportingInstance: 'labeller-0',
    });
    const regarding = objectReference(cm, { apiVersion: 'v1', kind: 'ConfigMap' });
    const series = firstValueFrom(recorder.written$.pipe(filter((e) => e.series?.count === 3)));
    for (let i = 0; i < 3; i++) recorder.publish({ type: 'Normal', reason: 'Labelled', action: 'Patch', note: 'ready=3', regarding });
    await series;
    recorder.close();
    const stored = api.list<KubeEvent>('events.events.k8s.io', 'default').items;
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({
      apiVersion: 'events.k8s.io/v1',
      kind: 'Event',
      reason: 'Labelled',
      action: 'Patch',
      note: 'ready=3',
      reportingController: 'example.com/labeller',
      regarding: { kind: 'ConfigMap', name: 'cm', namespace: 'default', uid: cm.metadata!.uid },
      series: { count: 3 },
    });
    expect(stored[0].eventTime).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
    expect(stored[0].metadata.name).toMatch(/^cm\.[0-9a-f]+$/);
  });
});
