// Garbage collection and deletion (TESTCLUSTER.md §3), through @kubernetes/client-node over HTTP:
// ownerReferences are followed with Background, Foreground and Orphan propagation, finalizers
// hold deletion, and collection is deterministic ('immediate', or on an injected scheduler).
import { afterEach, describe, expect, it } from '@jest/globals';
import { CoreV1Api, PatchStrategy, setHeaderOptions, type V1ConfigMap, type V1OwnerReference } from '@kubernetes/client-node';
import { VirtualTimeScheduler, VirtualAction } from 'rxjs';
import { startFakeApiServer, waitFor, type FakeApiServer, type Stored } from '../../lib/testing/index.js';
import { raw } from './rawClient.js';

const merge = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);
const ownerRef = (o: Stored<V1ConfigMap>, extra: Partial<V1OwnerReference> = {}): V1OwnerReference => ({ apiVersion: 'v1', kind: 'ConfigMap', name: o.metadata.name, uid: o.metadata.uid, ...extra });

describe('fake API server: garbage collection', () => {
  let api: FakeApiServer;
  afterEach(() => api.close());

  const start = async (o: Parameters<typeof startFakeApiServer>[0] = { garbageCollection: 'immediate' }) => {
    api = await startFakeApiServer(o);
    return api.kubeConfig().makeApiClient(CoreV1Api);
  };
  const cm = (name: string, owners: V1OwnerReference[] = [], extra: object = {}) =>
    api.create<V1ConfigMap>('configmaps', { metadata: { name, namespace: 'default', ...(owners.length ? { ownerReferences: owners } : {}), ...extra } });
  const exists = (name: string) => api.get('configmaps', 'default', name) !== undefined;

  it('Background (the default): deleting the owner deletes its dependents, and theirs', async () => {
    const core = await start();
    const owner = cm('owner');
    const child = cm('child', [ownerRef(owner)]);
    cm('grandchild', [ownerRef(child)]);
    cm('bystander');
    await core.deleteNamespacedConfigMap({ name: 'owner', namespace: 'default' });
    expect([exists('owner'), exists('child'), exists('grandchild'), exists('bystander')]).toEqual([false, false, false, true]);
  });

  it('a dependent with another live owner only loses the reference to the deleted one', async () => {
    const core = await start();
    const a = cm('a');
    const b = cm('b');
    cm('shared', [ownerRef(a), ownerRef(b)]);
    await core.deleteNamespacedConfigMap({ name: 'a', namespace: 'default' });
    expect(api.get('configmaps', 'default', 'shared')?.metadata.ownerReferences?.map((r) => r.name)).toEqual(['b']);
  });

  it('Orphan: the owner gets the orphan finalizer, dependents lose their reference and stay, then the owner goes', async () => {
    const core = await start({ garbageCollection: 'off' });
    const owner = cm('owner');
    cm('child', [ownerRef(owner)]);
    const marked = await core.deleteNamespacedConfigMap({ name: 'owner', namespace: 'default', propagationPolicy: 'Orphan' });
    expect(marked).toBeDefined();
    expect(api.get('configmaps', 'default', 'owner')?.metadata).toMatchObject({ finalizers: ['orphan'], deletionGracePeriodSeconds: 0 });
    expect(api.get('configmaps', 'default', 'owner')?.metadata.deletionTimestamp).toBeDefined();
    await api.close();

    const core2 = await start();
    const owner2 = cm('owner');
    cm('child', [ownerRef(owner2)]);
    await core2.deleteNamespacedConfigMap({ name: 'owner', namespace: 'default', body: { orphanDependents: true } });
    expect(exists('owner')).toBe(false);
    expect(exists('child')).toBe(true);
    expect(api.get('configmaps', 'default', 'child')?.metadata.ownerReferences).toBeUndefined();
  });

  it('Foreground: the owner waits (foregroundDeletion) until its blocking dependents are gone, honouring their finalizers', async () => {
    const core = await start();
    const owner = cm('owner');
    cm('blocker', [ownerRef(owner, { blockOwnerDeletion: true })], { finalizers: ['example.com/hold'] });
    cm('free', [ownerRef(owner)]);
    await core.deleteNamespacedConfigMap({ name: 'owner', namespace: 'default', propagationPolicy: 'Foreground' });
    const waiting = api.get('configmaps', 'default', 'owner')!;
    expect(waiting.metadata.finalizers).toEqual(['foregroundDeletion']);
    expect(waiting.metadata.deletionTimestamp).toBeDefined();
    expect(exists('free')).toBe(false);
    expect(api.get('configmaps', 'default', 'blocker')?.metadata.deletionTimestamp).toBeDefined();
    // The blocker's own finalizer is removed (its controller is done): it goes, then the owner.
    await core.patchNamespacedConfigMap({ name: 'blocker', namespace: 'default', body: { metadata: { finalizers: null } } }, merge);
    expect(exists('blocker')).toBe(false);
    expect(exists('owner')).toBe(false);
  });

  it('a dependent created for an owner uid that was deleted is collected', async () => {
    await start();
    const owner = cm('owner');
    api.delete('configmaps', 'default', 'owner');
    cm('late', [ownerRef(owner)]);
    expect(exists('late')).toBe(false);
    // An owner of that name with another uid does not count either.
    const again = cm('owner');
    expect(again.metadata.uid).not.toBe(owner.metadata.uid);
    cm('late2', [ownerRef(owner)]);
    expect(exists('late2')).toBe(false);
  });

  it('finalizers hold a delete: deletionTimestamp set, 200 with the object; removing the last finalizer deletes it; no new finalizers meanwhile', async () => {
    const core = await start();
    cm('held', [], { finalizers: ['example.com/a'] });
    const r = await raw(api, '/api/v1/namespaces/default/configmaps/held', { method: 'DELETE' });
    expect(r.status).toBe(200);
    expect(r.json.metadata).toMatchObject({ finalizers: ['example.com/a'], deletionGracePeriodSeconds: 0 });
    const add = await raw(api, '/api/v1/namespaces/default/configmaps/held', { method: 'PATCH', body: { metadata: { finalizers: ['example.com/a', 'example.com/b'] } }, contentType: 'application/merge-patch+json' });
    expect([add.status, add.json.details.causes[0].field]).toEqual([422, 'metadata.finalizers']);
    const again = await raw(api, '/api/v1/namespaces/default/configmaps', { method: 'POST', body: { metadata: { name: 'held' } } });
    expect([again.status, again.json.message]).toEqual([409, 'object is being deleted: configmaps "held" already exists']);
    await core.patchNamespacedConfigMap({ name: 'held', namespace: 'default', body: { metadata: { finalizers: [] } } }, merge);
    expect(exists('held')).toBe(false);
  });

  it('DeleteOptions: both orphanDependents and propagationPolicy, or an unknown policy, is a 422', async () => {
    await start();
    cm('x');
    const both = await raw(api, '/api/v1/namespaces/default/configmaps/x', { method: 'DELETE', body: { orphanDependents: true, propagationPolicy: 'Foreground' } });
    expect([both.status, both.json.message]).toEqual([422, 'DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: Invalid value: "Foreground": orphanDependents and deletionPropagation cannot be both set']);
    const bad = await raw(api, '/api/v1/namespaces/default/configmaps/x', { method: 'DELETE', query: { propagationPolicy: 'Sideways' } });
    expect([bad.status, bad.json.details.causes[0].reason]).toEqual([422, 'FieldValueNotSupported']);
    expect(exists('x')).toBe(true);
  });

  it("'scheduled' (the default) collects on the server's scheduler, controllerDelayMs after the delete: deterministic on virtual time", async () => {
    const scheduler = new VirtualTimeScheduler(VirtualAction, 60_000);
    await start({ scheduler, controllerDelayMs: 100, bookmarkIntervalMs: 0 });
    const owner = cm('owner');
    cm('child', [ownerRef(owner)]);
    api.delete('configmaps', 'default', 'owner');
    expect(exists('child')).toBe(true); // not yet: the collector runs 100 ms later
    scheduler.maxFrames = 99;
    scheduler.flush();
    expect(exists('child')).toBe(true);
    scheduler.maxFrames = 100;
    scheduler.flush();
    expect(exists('child')).toBe(false);
  });

  it('waitFor sees the default collection happen, without a sleep', async () => {
    const core = await start({});
    const owner = cm('owner');
    cm('child', [ownerRef(owner)]);
    await core.deleteNamespacedConfigMap({ name: 'owner', namespace: 'default' });
    await waitFor(() => !exists('child'), { timeout: 2000, description: 'child to be collected' });
    expect(exists('child')).toBe(false);
  });

  it("'off' collects nothing (as envtest), whatever time passes", async () => {
    const scheduler = new VirtualTimeScheduler(VirtualAction, 60_000);
    await start({ garbageCollection: 'off', scheduler, bookmarkIntervalMs: 0 });
    const owner = cm('owner');
    cm('child', [ownerRef(owner)]);
    api.delete('configmaps', 'default', 'owner');
    scheduler.flush();
    expect(exists('child')).toBe(true);
  });
});
