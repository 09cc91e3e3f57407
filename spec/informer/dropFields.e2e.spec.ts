// Cutting managedFields before parse, end to end: an informer with stripManagedFields against
// rxkube's fake API server on loopback, through the client-node transport. The store must hold what
// parse-then-strip gives, and the ListWatch must have been asked to cut. Waits are bounded polls.
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import '../../lib/transport/clientNode.js';
import {
  dropsFields,
  informer,
  listWatch,
  sharedInformerFactory,
  stripManagedFields,
  type DroppableField,
  type Informer,
  type ListWatch,
  type SharedInformerFactory,
} from '../../lib/index.js';
import { podFixture, startFakeApiServer, type FakeApiServer } from '../../lib/testing/index.js';
import { waitFor } from '../support/waitFor.js';


interface Pod {
  metadata: { name: string; namespace?: string; labels?: Record<string, string>; managedFields?: unknown[] };
  spec?: unknown;
}
const pods = { group: '', version: 'v1', plural: 'pods', kind: 'Pod', namespaced: true } as const;
const managedFields = [{ manager: 'kubectl', operation: 'Apply', apiVersion: 'v1', fieldsType: 'FieldsV1', fieldsV1: { 'f:metadata': { 'f:labels': { 'f:app': {} } } } }];

let api: FakeApiServer;
let inf: Informer<Pod> | undefined;
let factory: SharedInformerFactory | undefined;

beforeEach(async () => {
  api = await startFakeApiServer({ namespaces: ['ns'], bookmarkIntervalMs: 0 });
  for (const name of ['a', 'b', 'c']) {
    api.create('pods', { ...podFixture({ namespace: 'ns', name, labels: { app: 'web' } }), metadata: { ...podFixture({ namespace: 'ns', name, labels: { app: 'web' } }).metadata, managedFields } });
  }
});

afterEach(async () => {
  await inf?.stop();
  inf = undefined;
  await factory?.shutdown();
  factory = undefined;
  await api.close();
});

/** The ListWatch of pods, recording what it was asked to cut. */
function recordingListWatch(asked: Array<ReadonlyArray<DroppableField>>): ListWatch<Pod> {
  const lw = listWatch<Pod>(api.kubeConfig(), pods);
  return { ...lw, dropping: (fields) => (asked.push(fields), lw.dropping!(fields)) };
}

const serverPods = (): Pod[] => (api.list<Pod>('pods', 'ns').items as unknown as Pod[]).map((p) => stripManagedFields(p)).sort((x, y) => x.metadata.name.localeCompare(y.metadata.name));
const storePods = (i: Informer<Pod>): Pod[] => [...i.list()].sort((x, y) => x.metadata.name.localeCompare(y.metadata.name));

describe('informer with stripManagedFields: managedFields cut before parse', () => {
  it('asks the ListWatch to cut them, and holds what parse-then-strip gives, listed and watched', async () => {
    const asked: Array<ReadonlyArray<DroppableField>> = [];
    const i = (inf = informer<Pod>(recordingListWatch(asked), { transform: stripManagedFields }));
    i.start();
    expect(await i.waitForCacheSync({ timeout: 10_000 })).toBe(true);
    expect(asked).toEqual([['metadata.managedFields']]);
    expect((api.list<Pod>('pods', 'ns').items as unknown as Pod[]).every((p) => (p.metadata.managedFields?.length ?? 0) > 0)).toBe(true);
    expect(storePods(i)).toEqual(serverPods());
    const d = podFixture({ namespace: 'ns', name: 'd', labels: { app: 'db' } });
    api.create('pods', { ...d, metadata: { ...d.metadata, managedFields } });
    await waitFor(() => i.list().length === 4, 'the watched pod in the store', 10_000, 10);
    expect(storePods(i)).toEqual(serverPods());
  });

  it('does not cut for a transform that declares nothing', async () => {
    const asked: Array<ReadonlyArray<DroppableField>> = [];
    const i = (inf = informer<Pod>(recordingListWatch(asked), { transform: (p: Pod) => stripManagedFields(p) }));
    i.start();
    expect(await i.waitForCacheSync({ timeout: 10_000 })).toBe(true);
    expect(asked).toEqual([]);
    expect(storePods(i)).toEqual(serverPods());
  });

  it('keeps the declaration through the factory, composed with an informer\'s own transform', async () => {
    factory = sharedInformerFactory(api.kubeConfig(), { transform: stripManagedFields });
    const own = dropsFields((p: Pod): Pod => ({ ...p, metadata: { ...p.metadata, labels: {} } }), []);
    const i = factory.informerFor<Pod>(pods, { transform: own });
    factory.start();
    expect(await i.waitForCacheSync({ timeout: 10_000 })).toBe(true);
    expect(storePods(i).map((p) => p.metadata)).toEqual(serverPods().map((p) => ({ ...p.metadata, labels: {} })));
  });
});
