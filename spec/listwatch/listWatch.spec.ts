import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  firstValueFrom,
  take,
  toArray,
  VirtualTimeScheduler,
  type Observable,
  type Subscription,
} from 'rxjs';
import { ApiStatusError, RxkubeError } from '../../lib/errors.js';
import { listWatch } from '../../lib/listwatch/createListWatch.js';
import type { ListPage } from '../../lib/listwatch/listWatch.js';
import { MalformedWatchEventError } from '../../lib/listwatch/malformedWatchEventError.js';
import type { Resource } from '../../lib/listwatch/resource.js';
import { WatchDeadError } from '../../lib/listwatch/watchDeadError.js';
import type { WatchEvent } from '../../lib/listwatch/watchEvent.js';
import { clientNodeTransport, type ClientNodeTransport } from '../../lib/transport/clientNode.js';
import { TransportError } from '../../lib/transport/transportError.js';
import { startFakeApiServer, type FakeApiServer } from '../../lib/testing/index.js';

interface Obj {
  kind?: string;
  metadata: { name: string; namespace?: string; resourceVersion?: string; labels?: Record<string, string> };
  data?: Record<string, string>;
}

const pods: Resource = { group: '', version: 'v1', plural: 'pods', kind: 'Pod', namespaced: true };
const secrets: Resource = { group: '', version: 'v1', plural: 'secrets', kind: 'Secret', namespaced: true };
const configmaps: Resource = {
  group: '',
  version: 'v1',
  plural: 'configmaps',
  kind: 'ConfigMap',
  namespaced: true,
};
const nodes: Resource = { group: '', version: 'v1', plural: 'nodes', kind: 'Node', namespaced: false };
const deployments: Resource = {
  group: 'apps',
  version: 'v1',
  plural: 'deployments',
  kind: 'Deployment',
  namespaced: true,
};
const widgets: Resource = {
  group: 'example.com',
  version: 'v1alpha1',
  plural: 'widgets',
  kind: 'Widget',
  namespaced: true,
};

const all = <T>(o$: Observable<T>): Promise<T[]> => firstValueFrom(o$.pipe(toArray()));
const names = (items: ReadonlyArray<Obj>): string[] =>
  items.map((o) => `${o.metadata.namespace ?? ''}/${o.metadata.name}`).sort();
const eventSummary = (e: WatchEvent<Obj>): string =>
  e.type === 'MALFORMED'
    ? 'MALFORMED'
    : e.type === 'ERROR'
      ? `ERROR ${e.object.code}`
      : `${e.type} ${e.object.metadata.name}`;

/** Resolves when `check` holds, polling on macrotasks; bounded in count (and so in time). */
async function eventually(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 500; i++) {
    if (check()) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`never happened: ${what}`);
}

/** Subscribes to a watch and resolves with its first `n` events; creates objects once it is open. */
function watchEvents(
  api: FakeApiServer,
  events$: Observable<WatchEvent<Obj>>,
  n: number,
): { events: Promise<WatchEvent<Obj>[]>; open: Promise<void> } {
  const before = api.openWatches();
  const events = firstValueFrom(events$.pipe(take(n), toArray()));
  return { events, open: api.waitForWatches(before + 1) };
}

const cm = (namespace: string, name: string, labels: Record<string, string> = {}): Obj => ({
  metadata: { namespace, name, labels },
  data: { k: name },
});

describe('listWatch over the client-node transport (HTTPS, token and CA from the kubeconfig)', () => {
  let api: FakeApiServer;
  let transport: ClientNodeTransport;

  beforeAll(async () => {
    api = await startFakeApiServer({
      resources: [
        { group: 'example.com', version: 'v1alpha1', plural: 'widgets', kind: 'Widget', namespaced: true },
      ],
    });
    transport = clientNodeTransport(api.kubeConfig());
  });
  afterAll(async () => {
    transport.destroy();
    await api.close();
  });

  it('lists in pages following continue; continue pages send only limit and continue; every page has the list RV', async () => {
    for (let i = 0; i < 7; i++) api.create('configmaps', cm('paging', `c${i}`));
    api.clearRequests();
    const pages: ListPage<Obj>[] = await all(
      listWatch<Obj>(transport, configmaps, { namespace: 'paging' }).list({ resourceVersion: '0', limit: 3 }),
    );
    expect(pages.map((p) => p.items.length)).toEqual([3, 3, 1]);
    expect(names(pages.flatMap((p) => p.items))).toEqual([
      'paging/c0',
      'paging/c1',
      'paging/c2',
      'paging/c3',
      'paging/c4',
      'paging/c5',
      'paging/c6',
    ]);
    expect(new Set(pages.map((p) => p.resourceVersion)).size).toBe(1);
    expect(pages[0]!.continue).not.toBe('');
    expect(pages[2]!.continue).toBe('');
    const lists = api.requests.filter((r) => r.verb === 'list');
    expect(lists.map((r) => r.path)).toEqual(Array(3).fill('/api/v1/namespaces/paging/configmaps'));
    expect(lists[0]!.query).toEqual({ resourceVersion: '0', limit: '3' });
    expect(lists[1]!.query).toEqual({ limit: '3', continue: pages[0]!.continue });
    expect(lists[2]!.query).toEqual({ limit: '3', continue: pages[1]!.continue });
  });

  it('lists unpaged when no limit is given (no limit parameter sent)', async () => {
    api.clearRequests();
    const pages = await all(listWatch<Obj>(transport, configmaps, { namespace: 'paging' }).list({}));
    expect(pages).toHaveLength(1);
    expect(pages[0]!.items).toHaveLength(7);
    expect(api.requests.find((r) => r.verb === 'list')!.query).toEqual({});
  });

  it('L3: sends the label and field selectors on list and watch alike, and the server filters both', async () => {
    api.create('configmaps', cm('sel', 'web-1', { app: 'web' }));
    api.create('configmaps', cm('sel', 'db-1', { app: 'db' }));
    api.create('configmaps', cm('other', 'web-2', { app: 'web' }));
    const lw = listWatch<Obj>(transport, configmaps, {
      labelSelector: 'app=web',
      fieldSelector: 'metadata.namespace=sel',
    });
    api.clearRequests();
    const [page] = await all(lw.list({}));
    expect(names(page!.items)).toEqual(['sel/web-1']);
    const { events, open } = watchEvents(api, lw.watch({ resourceVersion: page!.resourceVersion }), 1);
    await open;
    api.create('configmaps', cm('sel', 'db-2', { app: 'db' }));
    api.create('configmaps', cm('other', 'web-3', { app: 'web' }));
    api.create('configmaps', cm('sel', 'web-4', { app: 'web' }));
    expect((await events).map(eventSummary)).toEqual(['ADDED web-4']);
    const [list, watch] = [
      api.requests.find((r) => r.verb === 'list')!,
      api.requests.find((r) => r.verb === 'watch')!,
    ];
    expect(list.query.labelSelector).toBe('app=web');
    expect(watch.query.labelSelector).toBe('app=web');
    expect(list.query.fieldSelector).toBe('metadata.namespace=sel');
    expect(watch.query.fieldSelector).toBe('metadata.namespace=sel');
  });

  it('lists one namespace, all namespaces, and a cluster-scoped resource at their paths', async () => {
    api.create('pods', { metadata: { namespace: 'ns-a', name: 'p1' }, spec: { containers: [] } });
    api.create('pods', { metadata: { namespace: 'ns-b', name: 'p2' }, spec: { containers: [] } });
    api.create('nodes', { metadata: { name: 'node-1' } });
    api.clearRequests();
    const one = (await all(listWatch<Obj>(transport, pods, { namespace: 'ns-a' }).list({}))).flatMap(
      (p) => p.items,
    );
    const every = (await all(listWatch<Obj>(transport, pods).list({}))).flatMap((p) => p.items);
    const cluster = (await all(listWatch<Obj>(transport, nodes).list({}))).flatMap((p) => p.items);
    expect(names(one)).toEqual(['ns-a/p1']);
    expect(names(every)).toEqual(expect.arrayContaining(['ns-a/p1', 'ns-b/p2']));
    expect(names(cluster)).toEqual(['/node-1']);
    expect(api.requests.filter((r) => r.verb === 'list').map((r) => r.path)).toEqual([
      '/api/v1/namespaces/ns-a/pods',
      '/api/v1/pods',
      '/api/v1/nodes',
    ]);
    expect(() => listWatch<Obj>(transport, nodes, { namespace: 'ns-a' })).toThrow(RxkubeError);
  });

  it('watches a cluster-scoped resource', async () => {
    const lw = listWatch<Obj>(transport, nodes);
    const { events, open } = watchEvents(api, lw.watch({ resourceVersion: api.resourceVersion }), 2);
    await open;
    api.create('nodes', { metadata: { name: 'node-2' } });
    api.delete('nodes', undefined, 'node-2');
    expect((await events).map(eventSummary)).toEqual(['ADDED node-2', 'DELETED node-2']);
  });

  it('lists and watches a grouped built-in (apps/v1 deployments)', async () => {
    const lw = listWatch<Obj>(transport, deployments, { namespace: 'apps-ns' });
    api.create('deployments.apps', { metadata: { namespace: 'apps-ns', name: 'd1' }, spec: { replicas: 1 } });
    const [page] = await all(lw.list({}));
    expect(names(page!.items)).toEqual(['apps-ns/d1']);
    const { events, open } = watchEvents(api, lw.watch({ resourceVersion: page!.resourceVersion }), 1);
    await open;
    api.patch('deployments.apps', 'apps-ns', 'd1', { spec: { replicas: 2 } }, 'merge');
    expect((await events).map(eventSummary)).toEqual(['MODIFIED d1']);
    expect(
      api.requests.filter((r) => r.resource === 'deployments.apps' && r.verb !== 'patch').map((r) => r.path),
    ).toEqual(expect.arrayContaining(['/apis/apps/v1/namespaces/apps-ns/deployments']));
  });

  it('lists and watches a custom resource', async () => {
    const lw = listWatch<Obj>(transport, widgets);
    api.create('widgets.example.com', {
      apiVersion: 'example.com/v1alpha1',
      kind: 'Widget',
      metadata: { namespace: 'w', name: 'w1' },
    });
    const [page] = await all(lw.list({ limit: 10 }));
    expect(names(page!.items)).toEqual(['w/w1']);
    const { events, open } = watchEvents(api, lw.watch({ resourceVersion: page!.resourceVersion }), 1);
    await open;
    api.delete('widgets.example.com', 'w', 'w1');
    const [deleted] = await events;
    expect(eventSummary(deleted!)).toBe('DELETED w1');
    expect(deleted!.type !== 'MALFORMED' && deleted!.object.kind).toBe('Widget');
  });

  it('is cold: each subscription is its own request', async () => {
    const lw = listWatch<Obj>(transport, configmaps, { namespace: 'paging' });
    const list$ = lw.list({});
    api.clearRequests();
    await all(list$);
    await all(list$);
    expect(api.requests.filter((r) => r.verb === 'list')).toHaveLength(2);
    const watch$ = listWatch<Obj>(transport, secrets).watch({ resourceVersion: api.resourceVersion });
    const before = api.openWatches('secrets');
    const subs: Subscription[] = [watch$.subscribe(), watch$.subscribe()];
    await api.waitForWatches(before + 2, 'secrets');
    expect(api.openWatches('secrets')).toBe(before + 2);
    for (const s of subs) s.unsubscribe();
    await eventually(() => api.openWatches('secrets') === before, 'both watches closed');
  });

  it('unsubscribing aborts the watch request: the server sees the connection close', async () => {
    const before = api.openWatches('secrets');
    const sub = listWatch<Obj>(transport, secrets)
      .watch({ resourceVersion: api.resourceVersion })
      .subscribe();
    await api.waitForWatches(before + 1, 'secrets');
    sub.unsubscribe();
    await eventually(() => api.openWatches('secrets') === before, 'the server saw the watch close');
  });

  it('passes ERROR events through (410 Expired) and completes when the server closes the stream', async () => {
    const lw = listWatch<Obj>(transport, configmaps, { namespace: 'err' });
    const before = api.openWatches();
    const done = all(lw.watch({ resourceVersion: api.resourceVersion }));
    await api.waitForWatches(before + 1);
    api.faults.sendWatchError({ code: 410, reason: 'Expired' });
    const events = await done;
    expect(events.map(eventSummary)).toEqual(['ERROR 410']);
    expect(events[0]!.type === 'ERROR' && events[0]!.object.reason).toBe('Expired');
  });

  it('a consumer may unsubscribe from within the last event of a stream (no uncaught AbortError)', async () => {
    const lw = listWatch<Obj>(transport, configmaps, { namespace: 'last' });
    for (let round = 0; round < 5; round++) {
      const before = api.openWatches();
      const seen = new Promise<string>((resolve, reject) => {
        const sub: Subscription = lw.watch({ resourceVersion: api.resourceVersion }).subscribe({
          next: (e) => {
            sub.unsubscribe();
            resolve(eventSummary(e));
          },
          error: reject,
        });
      });
      await api.waitForWatches(before + 1);
      api.faults.sendWatchError({ code: 410, reason: 'Expired' });
      await expect(seen).resolves.toBe('ERROR 410');
      await eventually(() => api.openWatches() === before, 'the watch closed');
    }
  });

  it('sends the watch options as given, and passes a streaming list through: ADDED events, then the initial-events-end BOOKMARK', async () => {
    api.create('configmaps', cm('stream', 's1'));
    api.create('configmaps', cm('stream', 's2'));
    const lw = listWatch<Obj>(transport, configmaps, { namespace: 'stream' });
    api.clearRequests();
    const events = await firstValueFrom(
      lw
        .watch({
          sendInitialEvents: true,
          resourceVersionMatch: 'NotOlderThan',
          allowWatchBookmarks: true,
          timeoutSeconds: 120,
        })
        .pipe(take(3), toArray()),
    );
    expect(events.slice(0, 2).map(eventSummary).sort()).toEqual(['ADDED s1', 'ADDED s2']);
    const bookmark = events[2]!;
    expect(bookmark.type).toBe('BOOKMARK');
    const annotations = (bookmark as { object: { metadata: { annotations?: Record<string, string> } } })
      .object.metadata.annotations;
    expect(annotations?.['k8s.io/initial-events-end']).toBe('true');
    expect(api.requests.find((r) => r.verb === 'watch')!.query).toEqual({
      watch: 'true',
      resourceVersionMatch: 'NotOlderThan',
      allowWatchBookmarks: 'true',
      timeoutSeconds: '120',
      sendInitialEvents: 'true',
    });
  });

  it('a watch whose connection breaks off errors with a TransportError', async () => {
    const before = api.openWatches();
    const done = all(
      listWatch<Obj>(transport, configmaps, { namespace: 'abrupt' }).watch({
        resourceVersion: api.resourceVersion,
      }),
    );
    await api.waitForWatches(before + 1);
    api.faults.dropWatches({ abrupt: true });
    await expect(done).rejects.toBeInstanceOf(TransportError);
  });

  it('completes a watch the server ends cleanly', async () => {
    const before = api.openWatches();
    const done = all(
      listWatch<Obj>(transport, configmaps, { namespace: 'clean' }).watch({
        resourceVersion: api.resourceVersion,
      }),
    );
    await api.waitForWatches(before + 1);
    api.faults.dropWatches();
    await expect(done).resolves.toEqual([]);
  });

  it('reports a malformed line as a MALFORMED event and keeps the events around it', async () => {
    const lw = listWatch<Obj>(transport, configmaps, { namespace: 'mal' });
    const { events, open } = watchEvents(api, lw.watch({ resourceVersion: api.resourceVersion }), 3);
    await open;
    api.create('configmaps', cm('mal', 'before'));
    // The malformed line must come after `before`'s event: the fake writes lines in call order.
    api.faults.malformedLine();
    api.create('configmaps', cm('mal', 'after'));
    const got = await events;
    expect(got.map(eventSummary)).toEqual(['ADDED before', 'MALFORMED', 'ADDED after']);
    expect(got[1]!.type === 'MALFORMED' && got[1]!.error).toBeInstanceOf(MalformedWatchEventError);
  });

  it('HTTP errors arrive as ApiStatusError with the Status and Retry-After', async () => {
    api.faults.failNext(1, { code: 429, retryAfterSeconds: 2, verb: 'list', resource: 'configmaps' });
    const err = await all(listWatch<Obj>(transport, configmaps).list({})).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiStatusError);
    expect((err as ApiStatusError).statusCode).toBe(429);
    expect((err as ApiStatusError).retryAfterSeconds).toBe(2);

    api.faults.failNext(1, { code: 500, verb: 'watch', resource: 'configmaps' });
    const werr = await all(listWatch<Obj>(transport, configmaps).watch({})).catch((e: unknown) => e);
    expect(werr).toBeInstanceOf(ApiStatusError);
    expect((werr as ApiStatusError).statusCode).toBe(500);
  });

  it('a plain-text 404 (an unserved resource) becomes an ApiStatusError with a synthesised Status', async () => {
    const foos: Resource = { group: 'nope.example.com', version: 'v1', plural: 'foos', namespaced: true };
    const err = await all(listWatch<Obj>(transport, foos).list({})).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiStatusError);
    expect((err as ApiStatusError).statusCode).toBe(404);
    expect((err as ApiStatusError).reason).toBe('NotFound');
    expect((err as ApiStatusError).status.message).toBe('404 page not found');
  });

  it('R12: a stalled watch is declared dead after timeoutSeconds plus the margin of silence, and its connection closed', async () => {
    const scheduler = new VirtualTimeScheduler();
    const lw = listWatch<Obj>(transport, configmaps, {
      namespace: 'stall',
      scheduler,
      deadWatchMarginMs: 5_000,
    });
    const seen: string[] = [];
    const before = api.openWatches();
    const result = new Promise<unknown>((resolve) => {
      lw.watch({ resourceVersion: api.resourceVersion, timeoutSeconds: 60 }).subscribe({
        next: (e) => seen.push(eventSummary(e)),
        error: resolve,
        complete: () => resolve('completed'),
      });
    });
    await api.waitForWatches(before + 1);
    api.create('configmaps', cm('stall', 'alive'));
    await eventually(() => seen.length === 1, 'the first event');
    api.faults.stallWatches();
    api.create('configmaps', cm('stall', 'never-delivered'));
    scheduler.flush(); // 65 s of virtual silence
    const err = await result;
    expect(err).toBeInstanceOf(WatchDeadError);
    expect((err as WatchDeadError).silentMs).toBe(65_000);
    expect(seen).toEqual(['ADDED alive']);
    await eventually(() => api.openWatches() === before, 'the server saw the dead watch close');
  });

  it('accepts the KubeConfig itself (the client-node transport registers itself)', async () => {
    const pages = await all(listWatch<Obj>(api.kubeConfig(), configmaps, { namespace: 'paging' }).list({}));
    expect(pages[0]!.items).toHaveLength(7);
  });
});
