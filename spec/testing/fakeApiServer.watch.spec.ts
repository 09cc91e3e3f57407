import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { VirtualAction, VirtualTimeScheduler } from 'rxjs';
import { startFakeApiServer, type FakeApiServer } from '../../lib/testing/index.js';
import { names, raw, rawWatch, type RawWatch } from './rawClient.js';

const cm = (name: string, labels: Record<string, string> = {}, ns = 'default') => ({ metadata: { name, namespace: ns, labels }, data: { k: name } });
const PATH = '/api/v1/namespaces/default/configmaps';

describe('fake API server: WATCH (APISERVER.md §3)', () => {
  let api: FakeApiServer;
  const open: RawWatch[] = [];
  const watch = async (path: string, query: Record<string, string>) => {
    const w = await rawWatch(api, path, { query });
    open.push(w);
    return w;
  };
  beforeEach(async () => {
    api = await startFakeApiServer({ http: true, historyLimit: 20 });
  });
  afterEach(async () => {
    open.splice(0).forEach((w) => w.close());
    await api.close();
  });

  it('§3 headers are flushed before the first event: 200, application/json, chunked', async () => {
    const w = await watch(PATH, { resourceVersion: api.resourceVersion });
    expect(w.status).toBe(200);
    expect(w.headers['content-type']).toBe('application/json');
    expect(w.headers['transfer-encoding']).toBe('chunked');
    expect(w.events).toEqual([]);
  });

  it('§3 RV unset: synthetic ADDED for every object (own RVs), then later changes; one JSON line per event', async () => {
    const a = api.create('configmaps', cm('a'));
    const w = await watch(PATH, {});
    await w.until((e) => e.length === 1);
    api.create('configmaps', cm('b'));
    await w.until((e) => e.length === 2);
    expect(names(w.events)).toEqual(['ADDED a', 'ADDED b']);
    expect(w.events[0].object.metadata.resourceVersion).toBe(a.metadata.resourceVersion);
    expect(w.lines.every((l) => !l.includes('\n') && JSON.parse(l).type)).toBe(true);
    expect(w.events.every((e) => e.object.kind === 'ConfigMap' && e.object.apiVersion === 'v1')).toBe(true);
  });

  it('§3 RV=N: no synthetic events; every change after N in RV order, DELETED carries the delete RV', async () => {
    api.create('configmaps', cm('old'));
    const rv = api.resourceVersion;
    api.create('configmaps', cm('a'));
    api.patch('configmaps', 'default', 'a', { data: { k: 'x' } });
    const del = api.delete('configmaps', 'default', 'a');
    const w = await watch(PATH, { resourceVersion: rv });
    api.create('configmaps', cm('a')); // re-create: DELETED (old uid) strictly before ADDED (new uid)
    await w.until((e) => e.length === 4);
    expect(names(w.events)).toEqual(['ADDED a', 'MODIFIED a', 'DELETED a', 'ADDED a']);
    const rvs = w.events.map((e) => Number(e.object.metadata.resourceVersion));
    expect([...rvs].sort((x, y) => x - y)).toEqual(rvs);
    expect(w.events[2].object.metadata.resourceVersion).toBe(del.metadata.resourceVersion);
    expect(w.events[3].object.metadata.uid).not.toBe(w.events[2].object.metadata.uid);
  });

  it('§3 scope: a namespace watch sees only its namespace; the cluster watch sees all', async () => {
    api.create('namespaces', { metadata: { name: 'other' } });
    const ns = await watch(PATH, { resourceVersion: api.resourceVersion });
    const all = await watch('/api/v1/configmaps', { resourceVersion: api.resourceVersion });
    api.create('configmaps', cm('x', {}, 'other'));
    api.create('configmaps', cm('y'));
    await all.until((e) => e.length === 2);
    await ns.until((e) => e.length === 1);
    expect(names(ns.events)).toEqual(['ADDED y']);
  });

  it('§3 selector transitions: ADDED when labels start matching, DELETED (old state, event RV) when they stop', async () => {
    api.create('configmaps', cm('a', { app: 'no' }));
    const w = await watch(PATH, { resourceVersion: api.resourceVersion, labelSelector: 'app=web' });
    api.patch('configmaps', 'default', 'a', { metadata: { labels: { app: 'web' } } });
    api.patch('configmaps', 'default', 'a', { data: { k: 'v2' } });
    const leave = api.patch('configmaps', 'default', 'a', { metadata: { labels: { app: 'no' } } });
    await w.until((e) => e.length === 3);
    expect(names(w.events)).toEqual(['ADDED a', 'MODIFIED a', 'DELETED a']);
    expect(w.events[2].object.metadata.labels.app).toBe('web');
    expect(w.events[2].object.metadata.resourceVersion).toBe(leave.metadata.resourceVersion);
  });

  it('§3 an old /watch/ path with a name watches that object only (and /watch/namespaces/foo the Namespace foo)', async () => {
    api.create('configmaps', cm('a'));
    api.create('configmaps', cm('b'));
    const w = await watch('/api/v1/watch/namespaces/default/configmaps/b', { resourceVersion: '0' });
    await w.until((e) => e.length === 1);
    expect(names(w.events)).toEqual(['ADDED b']);
    const ns = await watch('/api/v1/watch/namespaces/default', { resourceVersion: '0' });
    await ns.until((e) => e.length === 1);
    expect(ns.events[0].object.kind).toBe('Namespace');
    expect(names(ns.events)).toEqual(['ADDED default']);
  });

  it('§3 compacted RV: 200, one ERROR 410 Expired event with kind/apiVersion, then the stream closes', async () => {
    const rv = api.resourceVersion;
    api.create('configmaps', cm('a'));
    api.faults.compact();
    const w = await watch(PATH, { resourceVersion: rv });
    expect(w.status).toBe(200);
    await w.ended;
    expect(w.events).toEqual([
      { type: 'ERROR', object: { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: `too old resource version: ${rv} (${api.resourceVersion})`, reason: 'Expired', code: 410 } },
    ]);
  });

  it('§3 bookmarks only when asked: empty object of the watched kind with the current RV (ahead of the last event)', async () => {
    const plain = await watch(PATH, { resourceVersion: api.resourceVersion });
    const w = await watch(PATH, { resourceVersion: api.resourceVersion, allowWatchBookmarks: 'true' });
    api.create('secrets', { metadata: { name: 's', namespace: 'default' } }); // another type: RV moves on
    expect(api.faults.bookmarkNow()).toBe(2);
    await w.until((e) => e.length === 1);
    expect(w.events[0]).toEqual({ type: 'BOOKMARK', object: { kind: 'ConfigMap', apiVersion: 'v1', metadata: { resourceVersion: api.resourceVersion } } });
    api.create('configmaps', cm('z'));
    await plain.until((e) => e.length === 1);
    expect(names(plain.events)).toEqual(['ADDED z']);
  });

  it('§3 initialBookmark: a bookmark may come first, before any event', async () => {
    const b = await startFakeApiServer({ http: true, initialBookmark: true });
    try {
      const w = await rawWatch(b, PATH, { query: { resourceVersion: b.resourceVersion, allowWatchBookmarks: 'True' } });
      await w.until((e) => e.length === 1);
      expect(w.events[0].type).toBe('BOOKMARK');
      w.close();
    } finally {
      await b.close();
    }
  });

  it('§3 bookmark interval and timeoutSeconds run on the injected scheduler (virtual time): 99 bookmarks, then a clean end at 1 s', async () => {
    const scheduler = new VirtualTimeScheduler(VirtualAction, 1000);
    const t = await startFakeApiServer({ http: true, bookmarkIntervalMs: 10, scheduler });
    try {
      const w = await rawWatch(t, PATH, { query: { resourceVersion: t.resourceVersion, allowWatchBookmarks: '1', timeoutSeconds: '1' } });
      await t.waitForWatches(1);
      // virtual 0..1000 ms: bookmarks at 10, 20, ... 990 (no pre-timeout one: deadline - 2 s is before
      // the start); the timeout at 1000 ends the stream
      scheduler.flush();
      await w.ended;
      expect(w.events.map((e) => e.type)).toEqual(Array.from({ length: 99 }, () => 'BOOKMARK'));
      expect(t.openWatches()).toBe(0);
    } finally {
      await t.close();
    }
  });

  it('§3 bookmarks as kube-apiserver sends them: every interval, and a last one 2 s before the deadline, then none', async () => {
    const scheduler = new VirtualTimeScheduler(VirtualAction, 5000);
    const t = await startFakeApiServer({ http: true, bookmarkIntervalMs: 600, scheduler });
    try {
      const w = await rawWatch(t, PATH, { query: { resourceVersion: t.resourceVersion, allowWatchBookmarks: '1', timeoutSeconds: '3' } });
      await t.waitForWatches(1);
      scheduler.flush(); // bookmarks at 600 and 1000 (deadline 3000 - 2000), none at 1200, 1800, 2400; the end at 3000
      await w.ended;
      expect(w.events.map((e) => e.type)).toEqual(['BOOKMARK', 'BOOKMARK']);
      expect(t.openWatches()).toBe(0);
    } finally {
      await t.close();
    }
  });

  it('§3 streaming list: ADDED for each object, the initial-events-end bookmark at the snapshot RV, then changes', async () => {
    api.create('configmaps', cm('a'));
    api.create('configmaps', cm('b'));
    const snap = api.resourceVersion;
    const w = await watch(PATH, { sendInitialEvents: 'true', resourceVersionMatch: 'NotOlderThan', allowWatchBookmarks: 'true' });
    await w.until((e) => e.length === 3);
    api.create('configmaps', cm('c'));
    await w.until((e) => e.length === 4);
    expect(names(w.events)).toEqual(['ADDED a', 'ADDED b', 'BOOKMARK', 'ADDED c']);
    expect(w.events[2].object).toEqual({ kind: 'ConfigMap', apiVersion: 'v1', metadata: { resourceVersion: snap, annotations: { 'k8s.io/initial-events-end': 'true' } } });
  });

  it('§3 streaming-list validation: 422s; WatchList off answers the gate message', async () => {
    const r1 = await raw(api, PATH, { query: { watch: 'true', sendInitialEvents: 'true' } });
    expect(r1.status).toBe(422);
    expect(r1.json.message).toContain('sendInitialEvents requires setting resourceVersionMatch to NotOlderThan');
    const r2 = await raw(api, PATH, { query: { watch: 'true', resourceVersionMatch: 'NotOlderThan' } });
    expect(r2.status).toBe(422);
    expect(r2.json.message).toContain('resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided');
    const off = await startFakeApiServer({ http: true, watchList: false });
    try {
      const r3 = await raw(off, PATH, { query: { watch: 'true', sendInitialEvents: 'true', resourceVersionMatch: 'NotOlderThan' } });
      expect(r3.status).toBe(422);
      expect(r3.json.message).toContain('sendInitialEvents is forbidden for watch unless the WatchList feature gate is enabled');
    } finally {
      await off.close();
    }
  });

  it('§3 sendInitialEvents=false with RV=N starts exactly at N (no synthetic events)', async () => {
    api.create('configmaps', cm('a'));
    const rv = api.resourceVersion;
    api.create('configmaps', cm('b'));
    const w = await watch(PATH, { sendInitialEvents: 'false', resourceVersionMatch: 'NotOlderThan', resourceVersion: rv });
    await w.until((e) => e.length === 1);
    expect(names(w.events)).toEqual(['ADDED b']);
  });

  it('§3 a streaming list at a future RV ends with an ERROR 504 ResourceVersionTooLarge', async () => {
    const t = await startFakeApiServer({ http: true, tooLargeResourceVersionWaitMs: 20 });
    try {
      const w = await rawWatch(t, PATH, { query: { sendInitialEvents: 'true', resourceVersionMatch: 'NotOlderThan', resourceVersion: '999999' } });
      await w.ended;
      expect(w.events).toHaveLength(1);
      expect(w.events[0].object).toMatchObject({ code: 504, reason: 'Timeout', details: { causes: [{ reason: 'ResourceVersionTooLarge' }] } });
    } finally {
      await t.close();
    }
  });

  it('§3 a watch at a future RV waits, then ends with an ERROR 504 ResourceVersionTooLarge "Too large resource version" (not silence)', async () => {
    const t = await startFakeApiServer({ http: true, tooLargeResourceVersionWaitMs: 20 });
    try {
      const w = await rawWatch(t, PATH, { query: { resourceVersion: '999999', allowWatchBookmarks: 'true' } });
      await w.ended;
      expect(w.events).toHaveLength(1);
      expect(w.events[0].type).toBe('ERROR');
      expect(w.events[0].object).toMatchObject({
        code: 504,
        reason: 'Timeout',
        message: expect.stringContaining('Too large resource version: 999999'),
        details: { causes: [{ reason: 'ResourceVersionTooLarge' }], retryAfterSeconds: 1 },
      });
    } finally {
      await t.close();
    }
  });

  it('§3 a watch at a future RV that the server reaches within the wait goes on as a normal watch from it', async () => {
    const t = await startFakeApiServer({ http: true, tooLargeResourceVersionWaitMs: 5_000 });
    try {
      const next = String(Number(t.resourceVersion) + 1);
      const w = await rawWatch(t, PATH, { query: { resourceVersion: next } });
      t.create('configmaps', cm('a')); // reaches `next`: no event for it (it is not after `next`)
      t.create('configmaps', cm('b'));
      await w.until((e) => e.length === 1);
      expect(names(w.events)).toEqual(['ADDED b']);
      w.close();
    } finally {
      await t.close();
    }
  });

  it('§3 a no-op write emits no event and keeps the RV', async () => {
    const a = api.create('configmaps', cm('a'));
    const w = await watch(PATH, { resourceVersion: api.resourceVersion });
    const same = api.update('configmaps', a);
    expect(same.metadata.resourceVersion).toBe(a.metadata.resourceVersion);
    api.create('configmaps', cm('b'));
    await w.until((e) => e.length === 1);
    expect(names(w.events)).toEqual(['ADDED b']);
  });

  it('§3 watch=True (Python) and the watch query on a collection are accepted', async () => {
    const w = await rawWatch(api, PATH, { query: { watch: 'True', resourceVersion: api.resourceVersion } });
    open.push(w);
    api.create('configmaps', cm('a'));
    await w.until((e) => e.length === 1);
    expect(api.requests.filter((r) => r.verb === 'watch')).toHaveLength(1);
  });

  it('close() ends open watches and frees every socket', async () => {
    const t = await startFakeApiServer({ http: true });
    const w = await rawWatch(t, PATH, { query: { resourceVersion: '0' } });
    await t.close();
    await w.ended;
    expect(w.isEnded()).toBe(true);
  });
});
