import { describe, expect, it } from '@jest/globals';
import { firstValueFrom, take, toArray, type Subscription } from 'rxjs';
import { listWatch } from '../../lib/listwatch/createListWatch.js';
import { api, transport, useServer } from './listWatchServer.js';
import { all, cm, configmaps, eventSummary, eventually, type Obj, secrets } from './listWatchSupport.js';

// Watch streams: cold requests, teardown on unsubscribe, ERROR events, watch options and streaming
// lists, and a stream the server ends.
describe('listWatch over the client-node transport (HTTPS, token and CA from the kubeconfig)', () => {
  useServer(['stream']);

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
});
