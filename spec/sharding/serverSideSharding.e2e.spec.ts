// Server-side sharding (KEP-5866): the hash and ranges, and sharded ListWatches of three replicas
// against rxkube's fake API server on loopback, with the feature on (the server filters) and off
// (the replicas filter): either way every pod is in exactly one replica's store.
import { afterEach, describe, expect, it } from '@jest/globals';
import { BehaviorSubject, firstValueFrom } from 'rxjs';
import '../../lib/transport/clientNode.js';
import { builtInResources } from '../../lib/factory/builtInResources.js';
import { informer, type Informer } from '../../lib/informer/informer.js';
import type { KubeObject } from '../../lib/meta/kubeObject.js';
import { fnv1a64 } from '../../lib/sharding/fnv1a64.js';
import { equalShardRanges, HASH_SPACE_END, inShardRanges, parseShardSelector, shardRangeOf, shardSelector } from '../../lib/sharding/shardRange.js';
import { shardedListWatch, type ShardedListWatch } from '../../lib/sharding/shardedListWatch.js';
import { shardedInformer } from '../../lib/sharding/shardedInformer.js';
import { shardAssignment, type ShardAssignment } from '../../lib/sharding/shardAssignment.js';
import type { InformerRuns } from '../../lib/runs/informerRuns.js';
import { transportFor } from '../../lib/transport/kubeConfigTransport.js';
import type { Transport } from '../../lib/transport/transport.js';
import { podFixture, startFakeApiServer, type FakeApiServer } from '../../lib/testing/index.js';
import { waitFor } from '../support/waitFor.js';

describe('shard ranges', () => {
  it('fnv1a64 is the 64-bit FNV-1a of the UTF-8 bytes', () => {
    expect(fnv1a64('')).toBe(0xcbf29ce484222325n);
    expect(fnv1a64('a')).toBe(0xaf63dc4c8601ec8cn);
    expect(fnv1a64('foobar')).toBe(0x85944171f73967e8n);
  });

  it('equal ranges cover the hash space without gap or overlap; members sorted decide who has which', () => {
    const ranges = equalShardRanges(3);
    expect(ranges[0].start).toBe(0n);
    expect(ranges[2].end).toBe(HASH_SPACE_END);
    expect(ranges[0].end).toBe(ranges[1].start);
    expect(ranges[1].end).toBe(ranges[2].start);
    expect(shardRangeOf('b', ['c', 'a', 'b'])).toEqual(ranges[1]);
    expect(shardRangeOf('x', ['a'])).toBeUndefined();
  });

  it('formats and parses shard selectors as KEP-5866 writes them', () => {
    const [lower, upper] = equalShardRanges(2);
    expect(shardSelector([lower])).toBe("shardRange(object.metadata.uid, '0x0000000000000000', '0x8000000000000000')");
    expect(shardSelector([upper])).toBe("shardRange(object.metadata.uid, '0x8000000000000000', '0x10000000000000000')");
    expect(parseShardSelector(shardSelector([lower, upper])).ranges).toEqual([lower, upper]);
    expect(() => parseShardSelector("shardRange(object.metadata.uid, '0x8', '0x1')")).toThrow(/empty/);
    expect(() => parseShardSelector("shardRange(object.metadata.name, '0x0', '0x1')")).toThrow(/unsupported field/);
    expect(() => parseShardSelector('uid in (a)')).toThrow(/expected shardRange/);
    expect(inShardRanges('a', [{ start: 0xaf63dc4c8601ec8cn, end: 0xaf63dc4c8601ec8dn }])).toBe(true);
  });
});

const MEMBERS = ['replica-0', 'replica-1', 'replica-2'];
let api: FakeApiServer | undefined;
let infs: Array<Informer<KubeObject>> = [];

afterEach(async () => {
  await Promise.all(infs.map((i) => i.stop()));
  infs = [];
  await api?.close();
  api = undefined;
});

const pod = (i: number) => podFixture({ namespace: 'ns', name: `p${i}` });

/** Three replicas, each a sharded informer of its range, counting the bytes they receive. */
async function threeReplicas(server: FakeApiServer, logged: string[]) {
  const bytes = [0, 0, 0];
  const lws: Array<ShardedListWatch<KubeObject>> = [];
  for (const [i, member] of MEMBERS.entries()) {
    const inner = transportFor(server.kubeConfig());
    const counting: Transport = {
      request: async (req) => {
        const res = await inner.request(req);
        const body = res.body;
        return {
          ...res,
          header: (n: string) => res.header(n),
          body: (async function* () {
            for await (const chunk of body) {
              bytes[i] += chunk.length;
              yield chunk;
            }
          })(),
        };
      },
    };
    const lw = shardedListWatch<KubeObject>(counting, builtInResources.pods, [shardRangeOf(member, MEMBERS)!], { logger: { error: (m) => logged.push(m) } });
    lws.push(lw);
    infs.push(informer(lw, { logger: false }));
  }
  for (const inf of infs) inf.start();
  await Promise.all(infs.map((inf) => inf.waitForCacheSync()));
  return { bytes, lws };
}

/** Every pod is in exactly one replica's store. */
function expectPartition(server: FakeApiServer): void {
  const names = server.list('pods', 'ns').items.map((p) => `ns/${p.metadata.name}`).sort();
  const held = infs.flatMap((inf) => inf.listKeys()).sort();
  expect(held).toEqual(names);
}

describe('sharded ListWatches of three replicas', () => {
  it('with ShardedListAndWatch on, the server filters: shardInfo echoed, each replica gets only its third, nothing lost or doubled', async () => {
    api = await startFakeApiServer({ namespaces: ['ns'], shardedListAndWatch: true, bookmarkIntervalMs: 0 });
    for (let i = 0; i < 60; i++) api.create('pods', pod(i));
    const logged: string[] = [];
    const { lws } = await threeReplicas(api, logged);
    expect(lws.map((lw) => lw.filtering())).toEqual(['server', 'server', 'server']);
    expectPartition(api);
    for (let i = 60; i < 90; i++) api.create('pods', pod(i));
    await waitFor(() => infs.reduce((n, inf) => n + inf.listKeys().length, 0) === 90, 'the new pods in one replica each');
    expectPartition(api);
    const sent = api.requests.filter((r) => r.resource === 'pods').map((r) => r.query['shardSelector']);
    expect(sent.every((s) => typeof s === 'string' && s.startsWith('shardRange(object.metadata.uid, '))).toBe(true);
    const page = await firstValueFrom(lws[0].list({}));
    expect(page.shardInfo?.selector).toBe(shardSelector([shardRangeOf('replica-0', MEMBERS)!]));
    expect(logged).toEqual([]);
  });

  it('with the feature off (the default), the server ignores the selector: detected from the answer, each replica filters itself, same partition, said once', async () => {
    api = await startFakeApiServer({ namespaces: ['ns'], bookmarkIntervalMs: 0 });
    for (let i = 0; i < 60; i++) api.create('pods', pod(i));
    const logged: string[] = [];
    const { lws } = await threeReplicas(api, logged);
    expect(lws.map((lw) => lw.filtering())).toEqual(['client', 'client', 'client']);
    expectPartition(api);
    for (let i = 60; i < 90; i++) api.create('pods', pod(i));
    await waitFor(() => infs.reduce((n, inf) => n + inf.listKeys().length, 0) === 90, 'the new pods in one replica each');
    expectPartition(api);
    expect(logged).toHaveLength(3); // once per replica's ListWatch
    expect(logged[0]).toContain('ignored the shard selector');
  });

  it('a replica receives about a third of the bytes when the server filters', async () => {
    api = await startFakeApiServer({ namespaces: ['ns'], shardedListAndWatch: true, bookmarkIntervalMs: 0 });
    for (let i = 0; i < 90; i++) api.create('pods', pod(i));
    const on = await threeReplicas(api, []);
    await Promise.all(infs.map((i) => i.stop()));
    infs = [];
    await api.close();
    api = await startFakeApiServer({ namespaces: ['ns'], bookmarkIntervalMs: 0 });
    for (let i = 0; i < 90; i++) api.create('pods', pod(i));
    const off = await threeReplicas(api, []);
    const total = (b: number[]) => b.reduce((x, y) => x + y, 0);
    expect(total(on.bytes)).toBeLessThan(total(off.bytes) / 2);
  });

  it('a malformed shard selector is a 400 when the server shards', async () => {
    api = await startFakeApiServer({ namespaces: ['ns'], shardedListAndWatch: true });
    const abort = new AbortController();
    const res = await transportFor(api.kubeConfig()).request({ method: 'GET', path: '/api/v1/pods', query: { shardSelector: 'shardRange(uid)' }, signal: abort.signal });
    expect(res.status).toBe(400);
    abort.abort();
  });
});

describe('shardedInformer: the range follows membership', () => {
  let runs: InformerRuns<KubeObject> | undefined;
  afterEach(async () => {
    await runs?.stop();
    runs = undefined;
  });

  it('recomputes equal ranges when a member leaves; the old run stays current until the new one has synced, so no key goes unowned', async () => {
    api = await startFakeApiServer({ namespaces: ['ns'], shardedListAndWatch: true, bookmarkIntervalMs: 0 });
    for (let i = 0; i < 60; i++) api.create('pods', pod(i));
    const server = api;
    const assignment = new BehaviorSubject<ShardAssignment>(shardAssignment('replica-0', MEMBERS, true));
    const created: Array<Informer<KubeObject>> = [];
    runs = shardedInformer<KubeObject>(assignment, (range) => {
      const inf = informer(shardedListWatch<KubeObject>(server.kubeConfig(), builtInResources.pods, [range], { logger: false }), { logger: false });
      created.push(inf);
      return inf;
    });
    const r = runs;
    r.start();
    expect(await r.waitForCacheSync({ timeout: 10_000 })).toBe(true);
    const uidOf = new Map(server.list('pods', 'ns').items.map((p) => [`ns/${p.metadata.name}`, p.metadata.uid ?? '']));
    const inRange = (key: string, members: string[]) => inShardRanges(uidOf.get(key) ?? '', [shardRangeOf('replica-0', members)!]);
    const third = [...uidOf.keys()].filter((k) => inRange(k, MEMBERS)).sort();
    expect([...r.listKeys()].sort()).toEqual(third);

    const two = ['replica-0', 'replica-1'];
    const half = [...uidOf.keys()].filter((k) => inRange(k, two)).sort();
    expect(third.every((k) => half.includes(k))).toBe(true); // replica-0's range only grows: [0, 1/3) -> [0, 1/2)
    assignment.next(shardAssignment('replica-0', two, true));
    // Until the new run is current, the old one answers: replica-0's keys are never missing.
    const deadline = Date.now() + 10_000;
    while (r.current() === created[0]) {
      expect(third.every((k) => r.getByKey(k) !== undefined)).toBe(true);
      if (Date.now() > deadline) throw new Error('timed out waiting for the new run');
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    expect(r.current()).toBe(created[1]);
    expect(r.hasSynced()).toBe(true);
    expect([...r.listKeys()].sort()).toEqual(half);
    await waitFor(() => created[0].isStopped(), 'the old run stopped');

    assignment.next(shardAssignment('replica-0', two, false)); // no longer an active member: no run
    await waitFor(() => r.current() === undefined, 'no run while inactive');
    expect(r.lister().list()).toEqual([]);
  });
});
