import { afterEach, describe, expect, it, jest } from '@jest/globals';
import {
  startFakeApiServer,
  type FakeApiServer,
  type FakeApiServerOptions,
  type RecordedRequest,
} from '../../lib/testing/index.js';
import { WatchDeadError } from '../../lib/listwatch/watchDeadError.js';
import { WatchEndedError } from '../../lib/reflector/reflectorError.js';
import { newPod, podAtVersion, runReflector, rvs, serverView, waitFor, type Running } from './e2eSupport.js';

// End-to-end: the reflector over the real ListWatch and @kubernetes/client-node, against rxkube's
// fake API server on 127.0.0.1, with the server's fault injection.

// Bounds for a loaded CI machine; each test normally takes well under a second.
jest.setTimeout(60_000);

let api: FakeApiServer | undefined;
let running: Running | undefined;

async function start(options: FakeApiServerOptions = {}): Promise<FakeApiServer> {
  api = await startFakeApiServer(options);
  return api;
}

afterEach(async () => {
  running?.stop();
  running = undefined;
  await api?.close();
  api = undefined;
});

const podRequests = (a: FakeApiServer, verb: 'list' | 'watch'): RecordedRequest[] =>
  a.requests.filter((q) => q.resource === 'pods' && q.verb === verb);
const explain = () =>
  running
    ? `statuses ${JSON.stringify(running.statuses)}; errors ${running.errors.map((x) => x.message).join('; ')}; requests ${JSON.stringify(api?.requests.slice(-6).map((q) => [q.verb, q.query]))}`
    : '';
const wait = (predicate: () => boolean, what: string) => waitFor(predicate, what, 15_000, explain);
const watchOpen = (a: FakeApiServer, n: number) => () =>
  a.openWatches('pods') >= 1 && podRequests(a, 'watch').length >= n;

describe('reflector against the fake API server (loopback, client-node)', () => {
  it('R1: the first list is ?limit=500&resourceVersion=0; the watch starts at its RV with bookmarks and timeoutSeconds in [300, 600)', async () => {
    const a = await start();
    a.create('pods', newPod('a'));
    a.create('pods', newPod('b'));
    running = runReflector(a, { random: () => 0.42 });
    await wait(watchOpen(a, 1), 'the watch');
    const [list] = podRequests(a, 'list');
    expect(list.query).toMatchObject({ limit: '500', resourceVersion: '0' });
    const [watch] = podRequests(a, 'watch');
    const replace = running.events[0];
    expect(replace.type).toBe('replace');
    expect(watch.query).toMatchObject({
      watch: 'true',
      allowWatchBookmarks: 'true',
      resourceVersion: (replace as { resourceVersion: string }).resourceVersion,
    });
    const timeoutSeconds = Number(watch.query.timeoutSeconds);
    expect(timeoutSeconds).toBe(Math.floor(300 * 1.42));
    expect(timeoutSeconds).toBeGreaterThanOrEqual(300);
    expect(timeoutSeconds).toBeLessThan(600);
    expect(rvs(running.view)).toEqual(rvs(serverView(a)));
  });

  it('R2: a configured page size pages every list; without one a relist at a specific RV sends no limit', async () => {
    const a = await start();
    for (let i = 0; i < 5; i++) a.create('pods', newPod(`p${i}`));
    // default page size: one page at RV 0, then a relist (after a 410 ERROR event) at the list RV, unpaged
    running = runReflector(a);
    await wait(watchOpen(a, 1), 'the first watch');
    a.faults.sendWatchError({ code: 410 });
    await wait(watchOpen(a, 2), 'the watch after the relist');
    const lists = podRequests(a, 'list');
    expect(lists.map((q) => q.query.limit)).toEqual(['500', undefined]);
    expect(lists[1].query.resourceVersion).toBe(podRequests(a, 'watch')[0].query.resourceVersion);
    running.stop();

    // page size 2: 5 items in 3 pages; the relist pages too
    a.clearRequests();
    running = runReflector(a, { pageSize: 2 });
    await wait(() => watchOpen(a, 1)() && running!.events.length > 0, 'the first watch');
    expect(running.events[0].type === 'replace' && running.events[0].items.length).toBe(5);
    a.faults.sendWatchError({ code: 410 });
    await wait(
      () => podRequests(a, 'watch').length >= 2 && a.openWatches('pods') >= 1,
      'the watch after the relist',
    );
    const paged = podRequests(a, 'list');
    expect(paged.map((q) => q.query.limit)).toEqual(['2', '2', '2', '2', '2', '2']);
    expect(paged.filter((q) => q.query.continue !== undefined)).toHaveLength(4);
  });

  it('R3: RVs of successive lists: normal relist ["0", N]; exact RV expired ["0", N, ""]; too large -> ""', async () => {
    const a = await start();
    a.create('pods', newPod('a'));
    running = runReflector(a, { pageSize: 10 }); // paged lists at N are exact: a compacted N answers 410
    await wait(watchOpen(a, 1), 'the first watch');
    const listRv = podRequests(a, 'watch')[0].query.resourceVersion;
    a.faults.sendWatchError({ code: 410 });
    await wait(watchOpen(a, 2), 'the second watch');
    expect(podRequests(a, 'list').map((q) => q.query.resourceVersion)).toEqual(['0', listRv]);

    a.create('pods', newPod('c'));
    await wait(() => running!.view.has('default/c'), 'the add of c');
    const cRv = running.resourceVersions.at(-1);
    a.create('configmaps', { metadata: { name: 'other', namespace: 'default' } });
    a.faults.compact(); // c's RV is now older than the history: an exact (paged) list at it is 410
    a.faults.sendWatchError({ code: 410 });
    await wait(watchOpen(a, 3), 'the third watch');
    expect(podRequests(a, 'list').map((q) => q.query.resourceVersion ?? '')).toEqual(['0', listRv, cRv, '']);
    expect(running.errors.map((e) => e.action)).toEqual(['relist', 'relist', 'listFromLatest']);

    a.faults.failNext(1, {
      code: 504,
      verb: 'list',
      resource: 'pods',
      message: 'Timeout: Too large resource version: 99, current: 5',
    });
    a.faults.sendWatchError({ code: 410 });
    await wait(watchOpen(a, 4), 'the fourth watch');
    const last = podRequests(a, 'list')
      .slice(-2)
      .map((q) => q.query.resourceVersion ?? '');
    expect(last[1]).toBe('');
    expect(running.errors.at(-1)?.action).toBe('listFromLatest');
    expect(rvs(running.view)).toEqual(rvs(serverView(a)));
  });

  it('R4: a watch 410 (ERROR event Expired or Gone, or HTTP 410) relists, then watches again', async () => {
    const a = await start();
    a.create('pods', newPod('a'));
    running = runReflector(a);
    await wait(watchOpen(a, 1), 'the first watch');
    a.faults.sendWatchError({ code: 410, reason: 'Expired' });
    await wait(watchOpen(a, 2), 'the second watch');
    a.faults.sendWatchError({ code: 410, reason: 'Gone' });
    await wait(watchOpen(a, 3), 'the third watch');
    // an HTTP 410 when re-opening the watch (after a clean close of a watch that had an event)
    a.create('pods', newPod('x'));
    await wait(() => running!.view.has('default/x'), 'the add of x');
    a.faults.failNext(1, { code: 410, verb: 'watch', resource: 'pods' });
    a.faults.dropWatches();
    await wait(
      () => podRequests(a, 'list').length >= 4 && a.openWatches('pods') >= 1,
      'the relist after HTTP 410',
    );
    expect(podRequests(a, 'list')).toHaveLength(4);
    expect(running.errors.map((e) => [e.statusCode, e.action])).toEqual([
      [410, 'relist'],
      [410, 'relist'],
      [410, 'relist'],
    ]);
    expect(running.events.filter((e) => e.type === 'replace').length).toBeGreaterThanOrEqual(4);
  });

  it('R5: a cleanly closed watch is re-opened from the last RV without a relist; a watch closed within 1 s with no events backs off and relists', async () => {
    const a = await start();
    running = runReflector(a);
    await wait(watchOpen(a, 1), 'the first watch');
    a.create('pods', newPod('a'));
    await wait(() => running!.view.has('default/a'), 'the add');
    const lastRv = running.resourceVersions.at(-1);
    // let the first watch live past 1 s? It has an event, so its close is clean.
    a.faults.dropWatches();
    await wait(watchOpen(a, 2), 'the re-watch');
    expect(podRequests(a, 'list')).toHaveLength(1);
    expect(podRequests(a, 'watch')[1].query.resourceVersion).toBe(lastRv);
    expect(running.errors).toEqual([]);
    // the re-watch is closed at once, with no events: a very short watch
    a.faults.dropWatches();
    await wait(() => podRequests(a, 'list').length === 2 && a.openWatches('pods') >= 1, 'the relist');
    expect((running.errors[0].cause as WatchEndedError).kind).toBe('veryShort');
    expect(running.statuses.some((s) => s.state === 'backingOff' && s.reason === running!.errors[0])).toBe(
      true,
    );
  });

  it('R6: 429 on watch open and as an ERROR event: back off (honouring Retry-After) and re-watch, no relist', async () => {
    const a = await start();
    running = runReflector(a);
    await wait(watchOpen(a, 1), 'the first watch');
    a.create('pods', newPod('a'));
    await wait(() => running!.view.has('default/a'), 'the add');
    a.faults.failNext(1, { code: 429, verb: 'watch', resource: 'pods', retryAfterSeconds: 1 });
    a.faults.dropWatches();
    a.create('pods', newPod('b'));
    await wait(
      () => podRequests(a, 'watch').length >= 3 && a.openWatches('pods') >= 1,
      'the watch after the 429',
    );
    a.faults.sendWatchError({ code: 429, reason: 'TooManyRequests' });
    await wait(
      () => podRequests(a, 'watch').length >= 4 && a.openWatches('pods') >= 1,
      'the watch after the 429 event',
    );
    expect(podRequests(a, 'list')).toHaveLength(1);
    const tooMany = running.errors.filter((e) => e.statusCode === 429);
    expect(tooMany.map((e) => e.action)).toEqual(['rewatch', 'rewatch']);
    const waits = running.statuses.filter((s) => s.state === 'backingOff' && s.reason?.statusCode === 429);
    expect(waits.map((s) => (s as { delayMs: number }).delayMs)[0]).toBe(1000); // Retry-After 1 s over a 5 ms step
    expect(rvs(running.view)).toEqual(rvs(serverView(a)));
  });

  it('R7: repeated failures back off on the configured sequence (x2, capped); 401 and 403 too, never in a hot loop', async () => {
    const a = await start();
    a.faults.failNext(2, { code: 401, verb: 'list', resource: 'pods' });
    a.faults.failNext(4, { code: 403, verb: 'list', resource: 'pods' });
    running = runReflector(a, { backoff: { initialMs: 5, capMs: 40, jitter: 0 } });
    await wait(watchOpen(a, 1), 'the watch after six failed lists');
    expect(podRequests(a, 'list')).toHaveLength(7);
    expect(running.errors.map((e) => e.statusCode)).toEqual([401, 401, 403, 403, 403, 403]);
    const delays = running.statuses
      .filter((s) => s.state === 'backingOff')
      .map((s) => (s as { delayMs: number }).delayMs);
    expect(delays).toEqual([5, 10, 20, 40, 40, 40]);
  });

  it('R8: the RV follows add, modify, bookmark and delete events', async () => {
    const a = await start();
    running = runReflector(a);
    await wait(watchOpen(a, 1), 'the watch');
    const created = a.create('pods', newPod('p'));
    const updated = a.update('pods', podAtVersion(created, 1));
    await wait(() => running!.resourceVersions.length >= 3, 'two events');
    a.create('configmaps', { metadata: { name: 'other', namespace: 'default' } }); // moves the global RV past the pod's
    a.faults.bookmarkNow();
    await wait(() => running!.events.some((e) => e.type === 'bookmark'), 'the bookmark');
    const bookmarkRv = a.resourceVersion;
    const gone = a.delete<typeof created>('pods', 'default', 'p');
    await wait(() => running!.events.some((e) => e.type === 'delete'), 'the delete');
    expect(running.resourceVersions.slice(1)).toEqual([
      created.metadata!.resourceVersion,
      updated.metadata!.resourceVersion,
      bookmarkRv,
      gone.metadata!.resourceVersion,
    ]);
    expect(running.events.map((e) => e.type)).toEqual(['replace', 'add', 'update', 'bookmark', 'delete']);
  });

  it('R10: watch-list: one watch with sendInitialEvents; a Replace at the initial-events-end bookmark; the same watch goes on', async () => {
    const a = await start();
    a.create('pods', newPod('a'));
    a.create('pods', newPod('b'));
    running = runReflector(a, { useWatchList: true });
    await wait(() => running!.events.length >= 1, 'the replace');
    const [w] = podRequests(a, 'watch');
    expect(w.query).toMatchObject({
      sendInitialEvents: 'true',
      resourceVersionMatch: 'NotOlderThan',
      allowWatchBookmarks: 'true',
    });
    const replace = running.events[0];
    expect(replace.type === 'replace' && replace.resourceVersion).toBe(a.resourceVersion);
    a.create('pods', newPod('c'));
    await wait(() => running!.view.has('default/c'), 'the add on the same watch');
    expect(podRequests(a, 'watch')).toHaveLength(1);
    expect(podRequests(a, 'list')).toHaveLength(0);
    expect(rvs(running.view)).toEqual(rvs(serverView(a)));
  });

  it('R10: a server that refuses watch-list (422) gets list+watch instead', async () => {
    const a = await start({ watchList: false });
    a.create('pods', newPod('a'));
    running = runReflector(a, { useWatchList: true });
    await wait(watchOpen(a, 1), 'the plain watch');
    expect(podRequests(a, 'watch').map((q) => q.query.sendInitialEvents)).toEqual(['true', undefined]);
    expect(podRequests(a, 'list')).toHaveLength(1);
    expect(running.errors.map((e) => [e.statusCode, e.action])).toEqual([[422, 'fallbackToList']]);
    expect(rvs(running.view)).toEqual(rvs(serverView(a)));
  });

  it('R11: a 500 ERROR event mid-watch relists; the Replace removes what the server no longer has', async () => {
    const a = await start();
    a.create('pods', newPod('a'));
    a.create('pods', newPod('b'));
    running = runReflector(a);
    await wait(watchOpen(a, 1), 'the watch');
    a.faults.dropEvents(2); // the watch misses b's deletion and a's update
    a.delete('pods', 'default', 'b');
    const a1 = a.get<{ metadata: { resourceVersion: string } }>('pods', 'default', 'a')!;
    a.update('pods', podAtVersion(a1, 1));
    a.faults.stopDroppingEvents();
    expect(running.view.has('default/b')).toBe(true);
    a.faults.sendWatchError({ code: 500 });
    await wait(() => podRequests(a, 'list').length === 2 && a.openWatches('pods') >= 1, 'the relist');
    await wait(() => !running!.view.has('default/b'), 'b gone');
    expect(rvs(running.view)).toEqual(rvs(serverView(a)));
    expect(running.errors.map((e) => [e.statusCode, e.action])).toEqual([[500, 'relist']]);
  });

  it('R12: a dead connection (a stalled watch: no bytes, not even bookmarks) is detected on the client and replaced', async () => {
    const a = await start();
    running = runReflector(
      a,
      { minWatchTimeoutSeconds: 1, deadWatchGraceSeconds: 0.3 },
      { deadWatchMarginMs: 60_000 },
    );
    await wait(watchOpen(a, 1), 'the watch');
    a.create('pods', newPod('a'));
    await wait(() => running!.view.has('default/a'), 'the add');
    a.faults.stallWatches();
    a.create('pods', newPod('b')); // not delivered by the stalled watch
    await wait(() => running!.view.has('default/b'), 'b, through the replacement watch');
    const dead = running.errors.find((e) => e.cause instanceof WatchDeadError);
    expect(dead?.action).toBe('rewatch');
    expect(podRequests(a, 'list')).toHaveLength(1);
  });

  it('R12: with bookmarks, a stalled watch is replaced after the bookmark interval + grace, long before its timeout', async () => {
    const a = await start({ bookmarkIntervalMs: 200 });
    // timeoutSeconds 300..600 and a 60 s listWatch margin: only bookmark liveness can catch it in time
    running = runReflector(
      a,
      { expectedBookmarkIntervalMs: 200, deadWatchGraceSeconds: 0.3 },
      { deadWatchMarginMs: 60_000 },
    );
    await wait(watchOpen(a, 1), 'the watch');
    a.create('pods', newPod('a'));
    await wait(() => running!.view.has('default/a'), 'the add');
    await wait(() => running!.events.some((e) => e.type === 'bookmark'), 'a periodic bookmark');
    a.faults.stallWatches();
    a.create('pods', newPod('b')); // not delivered by the stalled watch
    await wait(() => running!.view.has('default/b'), 'b, through the replacement watch');
    const dead = running.errors.find((e) => e.cause instanceof WatchDeadError);
    expect(dead?.message).toContain('longer than a bookmark every 0.2 s plus 0.3 s');
    expect(dead?.action).toBe('rewatch');
    expect(Number(podRequests(a, 'watch')[0].query.timeoutSeconds)).toBeGreaterThanOrEqual(300);
    expect(podRequests(a, 'list')).toHaveLength(1);
  });

  it('a malformed line re-watches from the last good RV and loses nothing', async () => {
    const a = await start();
    running = runReflector(a);
    await wait(watchOpen(a, 1), 'the watch');
    a.create('pods', newPod('a'));
    await wait(() => running!.view.has('default/a'), 'the add');
    a.faults.malformedLine();
    a.create('pods', newPod('b'));
    await wait(() => running!.view.has('default/b'), 'b');
    expect(running.errors.map((e) => [(e.cause as WatchEndedError).kind, e.action])).toEqual([
      ['malformed', 'rewatch'],
    ]);
    expect(rvs(running.view)).toEqual(rvs(serverView(a)));
  });
});
