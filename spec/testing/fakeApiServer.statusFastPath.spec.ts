// The fake API server writes a /status update by splicing the new status and managedFields into the
// stored JSON (statusWrite.ts) instead of parsing, merging and re-serialising the whole object. The
// general path still serves objects being deleted. A seeded run of /status writes by several
// managers (changes, additions, removals, reorders, no-ops, same-second and later writes) goes to
// the same pod on two servers with one clock: one pod alive (the splice), one held by a finalizer
// after its delete (the general path). Status, managedFields and whether a revision was made must
// agree after every write, and a write that changes fields stamps its writer's entry with now.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { asyncScheduler, type SchedulerAction, type SchedulerLike, type Subscription } from 'rxjs';
import { seededRandom, startFakeApiServer, type FakeApiServer } from '../../lib/testing/index.js';
import { raw } from './rawClient.js';

const POD = '/api/v1/namespaces/default/pods/p';
let now = Date.parse('2026-01-01T00:00:00Z');
// The servers' clock (creationTimestamp, managedFields times); timers as usual.
const clock: SchedulerLike = {
  now: () => now,
  schedule: <S>(work: (this: SchedulerAction<S>, state?: S) => void, delay?: number, state?: S): Subscription =>
    asyncScheduler.schedule(work, delay, state),
};

let spliced: FakeApiServer;
let general: FakeApiServer;

beforeAll(async () => {
  spliced = await startFakeApiServer({ scheduler: clock });
  general = await startFakeApiServer({ scheduler: clock });
  for (const api of [spliced, general]) {
    const body = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'p', namespace: 'default', finalizers: ['example.com/hold'] },
      spec: { containers: [{ name: 'a', image: 'x' }, { name: 'b', image: 'y' }] },
    };
    expect((await raw(api, '/api/v1/namespaces/default/pods', { method: 'POST', body, query: { fieldManager: 'creator' } })).status).toBe(201);
  }
  expect((await raw(general, POD, { method: 'DELETE' })).status).toBe(200);
});

afterAll(async () => {
  await spliced.close();
  await general.close();
});

type Status = Record<string, unknown>;
interface Entry {
  manager: string;
  subresource?: string;
  time?: string;
}
interface Pod {
  metadata: { resourceVersion?: string; managedFields?: unknown[] };
  status?: Status;
}

function randomStatus(next: () => number, previous: Status | undefined): { status: Status; fresh: boolean } {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)]!;
  const roll = next();
  if (previous && roll < 0.1) return { status: previous, fresh: false }; // the same status: a no-op
  if (previous && roll < 0.2 && Array.isArray(previous.conditions)) {
    // A reorder of a keyed list: content changes, no field does.
    return { status: { ...previous, conditions: [...(previous.conditions as unknown[])].reverse() }, fresh: false };
  }
  const status: Status = { phase: pick(['Pending', 'Running', 'Succeeded']) };
  if (next() < 0.7) status.podIP = pick(['10.0.0.1', '10.0.0.2']);
  const types = ['Ready', 'Initialized', 'ContainersReady', 'PodScheduled'].filter(() => next() < 0.6);
  if (types.length > 0) status.conditions = types.map((type) => ({ type, status: pick(['True', 'False']) }));
  const names = ['a', 'b'].filter(() => next() < 0.7);
  if (names.length > 0) {
    status.containerStatuses = names.map((name) => ({
      name,
      ready: next() < 0.5,
      restartCount: Math.floor(next() * 3),
      ...(next() < 0.5 ? { state: { running: { startedAt: '2026-01-01T00:00:00Z' } } } : {}),
    }));
  }
  return { status, fresh: true };
}

describe('fake API server: the /status splice equals the general path', () => {
  it('after each of 150 seeded /status writes by three managers, status, managedFields and revisions agree; changed entries carry the write\'s time', async () => {
    const next = seededRandom(20261126).next;
    let previous: Status | undefined;
    let changed = 0;
    let noOps = 0;
    for (let step = 0; step < 150; step++) {
      if (next() < 0.3) now += 1000; // some writes in a later second, some in the same one
      const manager = ['kubelet', 'controller', 'other'][Math.floor(next() * 3)]!;
      const { status, fresh } = randomStatus(next, previous);
      previous = status;
      const body = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'default' }, status };
      const results = [];
      for (const api of [spliced, general]) {
        // The write over HTTP (its manager from the query); the reads in process, as stored.
        const before = api.get<Pod>('pods', 'default', 'p')!.metadata.resourceVersion;
        const put = await raw(api, `${POD}/status`, { method: 'PUT', body, query: { fieldManager: manager } });
        expect(put.status).toBe(200);
        const after = api.get<Pod>('pods', 'default', 'p')!;
        results.push({ status: after.status, managedFields: after.metadata.managedFields, wrote: after.metadata.resourceVersion !== before });
      }
      expect([step, results[0]]).toEqual([step, results[1]]);
      // A write that changes fields stamps its writer's entry with now (whole seconds).
      const mine = (results[0]!.managedFields as Entry[] | undefined)?.find((e) => e.manager === manager && e.subresource === 'status');
      if (fresh && results[0]!.wrote && mine) expect([step, mine.time]).toEqual([step, new Date(now).toISOString().replace('.000Z', 'Z')]);
      if (results[0]!.wrote) changed++;
      else noOps++;
    }
    // The run covered both kinds of write.
    expect(changed).toBeGreaterThan(50);
    expect(noOps).toBeGreaterThan(3);
  });
  it('a writer that changes only fields it owns, a second later, gets its entry stamped with the new second', async () => {
    const stamp = () => new Date(now).toISOString().replace('.000Z', 'Z');
    const write = async (restartCount: number) => {
      const status = { phase: 'Running', containerStatuses: [{ name: 'a', ready: true, restartCount }] };
      const body = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'default' }, status };
      expect((await raw(spliced, `${POD}/status`, { method: 'PUT', body, query: { fieldManager: 'stamper' } })).status).toBe(200);
      return spliced.get<Pod>('pods', 'default', 'p')!.metadata.managedFields as Entry[];
    };
    const first = (await write(1)).find((e) => e.manager === 'stamper');
    expect(first?.time).toBe(stamp());
    now += 1000;
    const second = (await write(2)).find((e) => e.manager === 'stamper');
    expect(second?.time).toBe(stamp());
  });
});
