// finalizer() removing its finalizer after cleanup, through client-node against the fake API
// server: an object already gone (404) is done; a stale version (409/422) is retried on the fresh
// object, and cleanup runs once either way.
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { CoreV1Api, type V1ConfigMap } from '@kubernetes/client-node';
import { finalizer, type FinalizerEvent } from '../../lib/index.js';
import { startFakeApiServer, type FakeApiServer } from '../../lib/testing/index.js';

const F = 'example.com/cleanup';

describe('finalizer removal after cleanup (issue 28)', () => {
  let api: FakeApiServer;
  let core: CoreV1Api;
  beforeEach(async () => {
    api = await startFakeApiServer({ bookmarkIntervalMs: 0 });
    core = api.kubeConfig().makeApiClient(CoreV1Api);
  });
  afterEach(() => api.close());

  /** A ConfigMap carrying `finalizers`, deleted (held by them), as the informer would hand it over. */
  const deleting = async (name: string, finalizers: string[]): Promise<V1ConfigMap> => {
    await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name, finalizers }, data: { v: '1' } } });
    await core.deleteNamespacedConfigMap({ name, namespace: 'default' });
    return core.readNamespacedConfigMap({ name, namespace: 'default' });
  };
  const patch = (o: V1ConfigMap, body: unknown) => core.patchNamespacedConfigMap({ name: o.metadata!.name!, namespace: 'default', body });
  const get = async (o: V1ConfigMap) => core.readNamespacedConfigMap({ name: o.metadata!.name!, namespace: 'default' });

  it('the object is gone when the finalizer is removed (404): done, not a failure; cleanup ran once', async () => {
    const object = await deleting('gone', [F]);
    let cleanups = 0;
    const result = await finalizer({
      name: F,
      object,
      patch,
      reconcile: async (e: FinalizerEvent<V1ConfigMap>) => {
        cleanups++;
        // Meanwhile another actor strips the finalizers: the server deletes the object.
        api.patch('configmaps', 'default', 'gone', { metadata: { finalizers: null } });
        return e.type;
      },
    });
    expect(result).toBe('cleanup');
    expect(cleanups).toBe(1);
    expect(api.get('configmaps', 'default', 'gone')).toBeUndefined();
  });

  it('a stale version (the object changed after it was read) is retried without rerunning cleanup', async () => {
    const object = await deleting('stale', [F]);
    let cleanups = 0;
    const result = await finalizer({
      name: F,
      object,
      patch,
      reconcile: () => {
        cleanups++;
        api.patch('configmaps', 'default', 'stale', { data: { v: '2' } }); // a new resourceVersion
        return 'cleaned';
      },
    });
    expect(result).toBe('cleaned');
    expect(cleanups).toBe(1);
    expect(api.get('configmaps', 'default', 'stale')).toBeUndefined();
  });

  it('with `get`, a stale version whose finalizers changed too is re-read and removed again; the other finalizer stays', async () => {
    const object = await deleting('moved', ['a.io/one', 'b.io/two', F]);
    let cleanups = 0;
    const result = await finalizer({
      name: F,
      object,
      patch,
      get,
      reconcile: () => {
        cleanups++;
        // Another controller removes its own finalizer: ours moves.
        api.patch('configmaps', 'default', 'moved', { metadata: { finalizers: ['b.io/two', F] } });
        return 'cleaned';
      },
    });
    expect(result).toBe('cleaned');
    expect(cleanups).toBe(1);
    expect(api.get<V1ConfigMap>('configmaps', 'default', 'moved')?.metadata?.finalizers).toEqual(['b.io/two']);
  });

  it('with `get`, an object gone by the re-read (404) is done', async () => {
    const object = await deleting('vanished', ['a.io/one', F]);
    const result = await finalizer({
      name: F,
      object,
      patch,
      // The last other finalizer goes between our failed removal and our re-read: the object is deleted.
      get: async (o) => {
        api.patch('configmaps', 'default', 'vanished', { metadata: { finalizers: null } });
        return get(o);
      },
      reconcile: () => {
        api.patch('configmaps', 'default', 'vanished', { metadata: { finalizers: [F] } }); // stale for us
        return 'cleaned';
      },
    });
    expect(result).toBe('cleaned');
    expect(api.get('configmaps', 'default', 'vanished')).toBeUndefined();
  });
});
