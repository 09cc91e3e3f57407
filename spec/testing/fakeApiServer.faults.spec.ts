import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { VirtualAction, VirtualTimeScheduler } from 'rxjs';
import { remoteFaults, startFakeApiServer, type FakeApiServer } from '../../lib/testing/index.js';
import { names, raw, rawWatch, type RawWatch } from './rawClient.js';

const PATH = '/api/v1/namespaces/default/configmaps';
const cm = (name: string) => ({ metadata: { name, namespace: 'default' } });

describe('fake API server: faults', () => {
  let api: FakeApiServer;
  const open: RawWatch[] = [];
  const watch = async (query: Record<string, string> = {}) => {
    const w = await rawWatch(api, PATH, { query: { resourceVersion: api.resourceVersion, ...query } });
    open.push(w);
    await api.waitForWatches(open.filter((x) => !x.isEnded()).length);
    return w;
  };
  beforeEach(async () => {
    api = await startFakeApiServer({ http: true, seed: 42 });
  });
  afterEach(async () => {
    open.splice(0).forEach((w) => w.close());
    await api.close();
  });

  it('dropWatches ends every open watch cleanly; abrupt destroys the sockets', async () => {
    const a = await watch();
    const b = await watch();
    expect(api.faults.dropWatches()).toBe(2);
    await Promise.all([a.ended, b.ended]);
    const c = await watch();
    expect(api.faults.dropWatches({ abrupt: true })).toBe(1);
    await c.ended;
    expect(api.openWatches()).toBe(0);
  });

  it('dropEvents(count) keeps the next N changes from watches while the store changes (DropWatch)', async () => {
    const w = await watch();
    api.faults.dropEvents(1);
    api.create('configmaps', cm('lost'));
    api.create('configmaps', cm('seen'));
    await w.until((e) => e.length === 1);
    expect(names(w.events)).toEqual(['ADDED seen']);
    expect(api.get('configmaps', 'default', 'lost')).toBeDefined();
  });

  it('dropEvents(predicate) and dropEvents({ match, count })', async () => {
    const w = await watch();
    api.faults.dropEvents((e) => e.type === 'DELETED');
    api.create('configmaps', cm('a'));
    api.delete('configmaps', 'default', 'a');
    api.faults.dropEvents({ match: { name: 'b' }, count: 1 });
    api.create('configmaps', cm('b'));
    api.create('configmaps', cm('c'));
    await w.until((e) => e.length === 2);
    expect(names(w.events)).toEqual(['ADDED a', 'ADDED c']);
  });

  it('dropEvents({ probability }) is deterministic given the seed', async () => {
    const run = async () => {
      const s = await startFakeApiServer({ http: true, seed: 7 });
      const w = await rawWatch(s, PATH, { query: { resourceVersion: s.resourceVersion } });
      await s.waitForWatches(1);
      s.faults.dropEvents({ probability: 0.5 });
      for (let i = 0; i < 20; i++) s.create('configmaps', cm(`c${i}`));
      s.faults.stopDroppingEvents();
      s.create('configmaps', cm('end'));
      await w.until((e) => e.some((x) => x.object.metadata.name === 'end'));
      w.close();
      await s.close();
      return names(w.events);
    };
    const first = await run();
    expect(first.length).toBeLessThan(21);
    expect(first.length).toBeGreaterThan(1);
    expect(await run()).toEqual(first);
  });

  it('sendWatchError writes ERROR 410 Expired / 410 Gone / 500 on open watches, then closes them', async () => {
    const cases = [
      [{ code: 410 as const, reason: 'Expired' as const }, { code: 410, reason: 'Expired' }],
      [{ code: 410 as const, reason: 'Gone' as const }, { code: 410, reason: 'Gone' }],
      [{ code: 500 as const }, { code: 500, reason: 'InternalError' }],
    ] as const;
    for (const [spec, expected] of cases) {
      const w = await watch();
      api.faults.sendWatchError(spec);
      await w.ended;
      expect(w.events).toHaveLength(1);
      expect(w.events[0].type).toBe('ERROR');
      expect(w.events[0].object).toMatchObject({ kind: 'Status', apiVersion: 'v1', status: 'Failure', ...expected });
    }
  });

  it('failNext(n) fails the next N matching requests: 429 with and without Retry-After, 500, 503, 401, 403', async () => {
    api.faults.failNext(1, { code: 429, retryAfterSeconds: 2 });
    const r429 = await raw(api, PATH);
    expect(r429.status).toBe(429);
    expect(r429.headers['retry-after']).toBe('2');
    expect(r429.json).toMatchObject({ reason: 'TooManyRequests', details: { retryAfterSeconds: 2 } });
    api.faults.failNext(1, { code: 429 });
    const bare = await raw(api, PATH);
    expect(bare.status).toBe(429);
    expect(bare.headers['retry-after']).toBeUndefined();
    for (const [code, reason] of [[500, 'InternalError'], [503, 'ServiceUnavailable'], [401, 'Unauthorized'], [403, 'Forbidden']] as const) {
      api.faults.failNext(1, { code });
      const r = await raw(api, PATH);
      expect([r.status, r.json.reason]).toEqual([code, reason]);
    }
    expect((await raw(api, PATH)).status).toBe(200);
  });

  it('failNext filters by verb and resource; the others pass', async () => {
    api.faults.failNext(2, { code: 500, verb: 'watch', resource: 'configmaps' });
    expect((await raw(api, PATH)).status).toBe(200);
    const secrets = await rawWatch(api, '/api/v1/namespaces/default/secrets', { query: { resourceVersion: api.resourceVersion } });
    open.push(secrets);
    expect(secrets.status).toBe(200);
    const w = await raw(api, PATH, { query: { watch: 'true' } });
    expect(w.status).toBe(500);
  });

  it('compact() makes every older revision too old to watch from', async () => {
    const rv = api.resourceVersion;
    api.create('configmaps', cm('a'));
    api.faults.compact();
    const w = await rawWatch(api, PATH, { query: { resourceVersion: rv } });
    await w.ended;
    expect(w.events[0].object).toMatchObject({ code: 410, reason: 'Expired' });
  });

  it('stallWatches: no more bytes (events, bookmarks, timeout end) but the socket stays open', async () => {
    const w = await watch({ allowWatchBookmarks: 'true' });
    expect(api.faults.stallWatches()).toBe(1);
    api.create('configmaps', cm('a'));
    api.faults.bookmarkNow();
    const other = await watch();
    api.create('configmaps', cm('b'));
    await other.until((e) => e.length === 1);
    expect(w.events).toEqual([]);
    expect(w.isEnded()).toBe(false);
  });

  it('slowEvents(ms) delays each event on the injected scheduler, in order (virtual time)', async () => {
    const scheduler = new VirtualTimeScheduler(VirtualAction, 250);
    const s = await startFakeApiServer({ http: true, scheduler });
    try {
      const w = await rawWatch(s, PATH, { query: { resourceVersion: s.resourceVersion, timeoutSeconds: '10' } });
      await s.waitForWatches(1);
      s.faults.slowEvents(100);
      for (const n of ['a', 'b', 'c']) s.create('configmaps', cm(n));
      scheduler.flush(); // virtual 0..250 ms: events at 100 and 200 only
      await w.until((e) => e.length === 2);
      expect(names(w.events)).toEqual(['ADDED a', 'ADDED b']);
      s.faults.slowEvents(0);
      s.create('configmaps', cm('d')); // queued behind c, both flushed on the next slow tick or when slowness is lifted
      scheduler.maxFrames = 400;
      scheduler.flush();
      await w.until((e) => e.length === 4);
      expect(names(w.events)).toEqual(['ADDED a', 'ADDED b', 'ADDED c', 'ADDED d']);
      w.close();
    } finally {
      await s.close();
    }
  });

  it('malformedLine writes a line that is not JSON; the stream goes on', async () => {
    const w = await watch();
    expect(api.faults.malformedLine()).toBe(1);
    api.create('configmaps', cm('a'));
    await w.until((e) => e.length === 2);
    expect(w.events[0].type).toBe('MALFORMED');
    expect(names(w.events.slice(1))).toEqual(['ADDED a']);
  });

  it('the HTTP control API (remoteFaults) drives the same faults out of process', async () => {
    const tls = await startFakeApiServer();
    try {
      const remote = remoteFaults(tls.url, { token: tls.token, ca: tls.caCert });
      await remote.failNext(1, { code: 503, retryAfterSeconds: 1 });
      const r = await raw(tls, PATH);
      expect(r.status).toBe(503);
      expect(r.headers['retry-after']).toBe('1');
      const w = await rawWatch(tls, PATH, { query: { resourceVersion: tls.resourceVersion } });
      await tls.waitForWatches(1);
      expect(await remote.sendWatchError({ code: 410, reason: 'Gone' })).toBe(1);
      await w.ended;
      expect(w.events[0].object.reason).toBe('Gone');
      await expect(remoteFaults(tls.url, { ca: tls.caCert }).compact()).rejects.toThrow(/401/);
    } finally {
      await tls.close();
    }
  });
});
