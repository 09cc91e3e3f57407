// The informer end to end: the real ListWatch and @kubernetes/client-node stack against rxkube's
// fake API server on 127.0.0.1. Waits are bounded polls on state (never sleep-then-assert).
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import '../../lib/transport/clientNode.js'; // registers the KubeConfig transport, as importing 'rxkube' does
import {
  builtInResources,
  DeletedFinalStateUnknown,
  informer,
  listWatch,
  ReflectorError,
  type Informer,
  type Notification,
  type RxkubeError,
} from '../../lib/index.js';
import { podFixture, recordNotifications, startFakeApiServer, type FakeApiServer } from '../../lib/testing/index.js';
import { waitFor } from '../support/waitFor.js';

interface Pod {
  apiVersion?: string;
  kind?: string;
  metadata: { name: string; namespace: string; resourceVersion?: string; labels?: Record<string, string> };
  spec?: { containers: Array<{ name: string; image: string }> };
}
const fastReflector = {
  random: () => 0,
  backoff: { initialMs: 5, capMs: 50, jitter: 0 },
  expectedTypeName: 'Pod',
};

const rvOf = (p: Pod | undefined) => p?.metadata.resourceVersion;
const serverState = (api: FakeApiServer) =>
  new Map(
    api
      .list<Pod>('pods', 'default')
      .items.map((p) => [`${p.metadata.namespace}/${p.metadata.name}`, rvOf(p)] as const),
  );
const storeState = (inf: Informer<Pod>) =>
  new Map(inf.list().map((p) => [`${p.metadata.namespace}/${p.metadata.name}`, rvOf(p)] as const));
const sameState = (a: Map<string, string | undefined>, b: Map<string, string | undefined>) =>
  a.size === b.size && [...a].every(([k, v]) => b.get(k) === v);

let api: FakeApiServer;
let inf: Informer<Pod> | undefined;

beforeEach(async () => {
  api = await startFakeApiServer();
});

afterEach(async () => {
  await inf?.stop();
  inf = undefined;
  await api.close();
});

const newInformer = (options: Parameters<typeof informer<Pod>>[1] = {}) =>
  informer(listWatch<Pod>(api.kubeConfig(), builtInResources.pods, { namespace: 'default' }), {
    reflector: fastReflector,
    ...options,
  });

const listRequests = () => api.requests.filter((r) => r.resource === 'pods' && r.verb === 'list').length;

describe('informer end to end (fake API server on loopback)', () => {
  it('I6: watch disruption: after the relist a handler without resync has seen pod2 and pod3 change, one with resync pod1 too', async () => {
    api.create('pods', podFixture({ name: 'pod1' }));
    api.create('pods', podFixture({ name: 'pod2' }));
    inf = newInformer({ resyncPeriod: 1000 });
    const noResync = recordNotifications(inf, { resyncPeriod: 0 });
    const withResync = recordNotifications(inf, { resyncPeriod: 1000 });
    const listsAtNotification = new Map<Notification<Pod>, number>();
    inf.addEventHandler({ next: (n) => void listsAtNotification.set(n, listRequests()) });
    inf.start();
    expect(await inf.waitForCacheSync()).toBe(true);
    await api.waitForWatches(1, 'pods');
    expect(noResync.described().sort()).toEqual([
      expect.stringMatching(/^add default\/pod1@\d+ initial$/),
      expect.stringMatching(/^add default\/pod2@\d+ initial$/),
    ]);

    // The watch loses the add of pod3 and a modify of pod2; then the server resets it.
    api.faults.dropEvents(2);
    api.create('pods', podFixture({ name: 'pod3' }));
    api.patch('pods', 'default', 'pod2', { metadata: { labels: { bumped: 'true' } } }, 'merge');
    api.faults.stopDroppingEvents();
    noResync.clear();
    withResync.clear();
    api.faults.compact();
    api.faults.dropWatches();

    const names = (rec: typeof noResync) =>
      [
        ...new Set(
          rec.notifications.map(
            (n) =>
              (n.type === 'update' ? n.newObject : n.type === 'add' ? n.object : undefined)?.metadata.name,
          ),
        ),
      ].sort();
    await waitFor(
      () => names(noResync).length >= 2 && names(withResync).length >= 3,
      'the relist to reach the handlers',
    );
    expect(names(noResync)).toEqual(['pod2', 'pod3']);
    expect(names(withResync)).toEqual(['pod1', 'pod2', 'pod3']);
    // pod2 and pod3 came from the second list, not the watch.
    for (const n of noResync.notifications) expect(listsAtNotification.get(n) ?? 2).toBe(2);
    expect(listRequests()).toBe(2);
    expect(sameState(storeState(inf), serverState(api))).toBe(true);
  });

  it('I8: a list error reaches errors$ before the informer recovers and syncs', async () => {
    api.create('pods', podFixture({ name: 'a' }));
    api.faults.failNext(1, { code: 403, verb: 'list', message: 'pods is forbidden: User cannot list pods' });
    const fromErrors: RxkubeError[] = [];
    inf = newInformer();
    const order: string[] = [];
    inf.errors$.subscribe((e) => {
      fromErrors.push(e);
      order.push(`error ${e instanceof ReflectorError ? e.statusCode : '?'}`);
    });
    inf.synced$.subscribe((s) => s && order.push('synced'));
    inf.start();
    expect(await inf.waitForCacheSync()).toBe(true);
    expect(order).toEqual(['error 403', 'synced']);
    expect(fromErrors).toHaveLength(1);
    expect(fromErrors[0].message).toContain('forbidden');
  });

  it('I8: a watch error (500 ERROR event) is reported and the informer relists', async () => {
    api.create('pods', podFixture({ name: 'a' }));
    inf = newInformer();
    const errors: RxkubeError[] = [];
    inf.errors$.subscribe((e) => errors.push(e));
    inf.start();
    await inf.waitForCacheSync();
    await api.waitForWatches(1, 'pods');
    api.faults.sendWatchError({ code: 500, message: 'etcd is sad' });
    await waitFor(() => errors.length > 0, 'the watch error');
    expect(errors[0]).toBeInstanceOf(ReflectorError);
    expect((errors[0] as ReflectorError).statusCode).toBe(500);
    await waitFor(() => listRequests() === 2, 'the relist');
  });

  it("I12: relist after 410 with store {p1, p2, p3} and list [p1', p2', p4]: delete p3, update p1, update p2, add p4", async () => {
    for (const n of ['p1', 'p2', 'p3']) api.create('pods', podFixture({ name: n }));
    inf = newInformer();
    const rec = recordNotifications(inf);
    inf.start();
    await inf.waitForCacheSync();
    await api.waitForWatches(1, 'pods');
    rec.clear();
    api.faults.dropEvents(() => true);
    api.patch('pods', 'default', 'p1', { metadata: { labels: { v: '2' } } }, 'merge');
    api.patch('pods', 'default', 'p2', { metadata: { labels: { v: '2' } } }, 'merge');
    api.delete('pods', 'default', 'p3');
    api.create('pods', podFixture({ name: 'p4' }));
    api.faults.stopDroppingEvents();
    api.faults.sendWatchError({ code: 410 });
    await waitFor(() => rec.notifications.length >= 4, 'the relist notifications');
    const summary = rec.notifications
      .map((n) =>
        n.type === 'delete'
          ? `delete ${n.object instanceof DeletedFinalStateUnknown ? `${n.object.key} (tombstone)` : n.object.metadata.name}`
          : n.type === 'update'
            ? `update ${n.newObject.metadata.name} ${n.newObject.metadata.labels?.v}`
            : `add ${n.object.metadata.name}`,
      )
      .sort();
    expect(summary).toEqual(['add p4', 'delete default/p3 (tombstone)', 'update p1 2', 'update p2 2']);
    expect(sameState(storeState(inf), serverState(api))).toBe(true);
  });

  it('watch-list: with watchList the informer syncs from one streaming watch (no list), and waitForCacheSync resolves true', async () => {
    for (const n of ['a', 'b', 'c']) api.create('pods', podFixture({ name: n }));
    inf = newInformer({ watchList: true });
    const rec = recordNotifications(inf);
    inf.start();
    expect(await inf.waitForCacheSync()).toBe(true);
    expect(
      rec
        .described()
        .map((d) => d.replace(/@\d+/, ''))
        .sort(),
    ).toEqual(['add default/a initial', 'add default/b initial', 'add default/c initial']);
    const watches = api.requests.filter((r) => r.resource === 'pods' && r.verb === 'watch');
    expect(watches[0]?.query['sendInitialEvents']).toBe('true');
    expect(listRequests()).toBe(0);
    api.create('pods', podFixture({ name: 'd' }));
    await waitFor(() => rec.notifications.length === 4, 'the add of d');
    expect(sameState(storeState(inf), serverState(api))).toBe(true);
  });
});
