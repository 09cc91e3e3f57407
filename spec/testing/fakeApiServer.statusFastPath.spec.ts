// The fake API server writes a /status update by splicing the new status and managedFields into the
// stored JSON (statusWrite.ts) instead of parsing, merging and re-serialising the whole object. The
// general path still serves objects being deleted. A seeded run of /status writes by several
// managers (changes, additions, removals, reorders, no-ops, same-second and later writes) goes to
// the same pod on two servers with one clock: one pod alive (the splice), one held by a finalizer
// after its delete (the general path). Status, managedFields and whether a revision was made must
// agree after every write.
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

function randomStatus(next: () => number, previous: Status | undefined): Status {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)]!;
  const roll = next();
  if (previous && roll < 0.1) return previous; // the same status: a no-op
  if (previous && roll < 0.2 && Array.isArray(previous.conditions)) {
    return { ...previous, conditions: [...(previous.conditions as unknown[])].reverse() }; // a reorder of a keyed list
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
  return status;
}

describe('fake API server: the /status splice equals the general path', () => {
  it('after each of 150 seeded /status writes by three managers, status, managedFields and revisions agree', async () => {
    const next = seededRandom(20261126).next;
    let previous: Status | undefined;
    let changed = 0;
    let noOps = 0;
    for (let step = 0; step < 150; step++) {
      if (next() < 0.3) now += 1000; // some writes in a later second, some in the same one
      const manager = ['kubelet', 'controller', 'other'][Math.floor(next() * 3)]!;
      const status = randomStatus(next, previous);
      previous = status;
      const body = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'default' }, status };
      const results = [];
      for (const api of [spliced, general]) {
        const before = (await raw(api, POD)).json.metadata.resourceVersion as string;
        const put = await raw(api, `${POD}/status`, { method: 'PUT', body, query: { fieldManager: manager } });
        expect(put.status).toBe(200);
        const after = (await raw(api, POD)).json;
        results.push({ status: after.status, managedFields: after.metadata.managedFields, wrote: after.metadata.resourceVersion !== before });
      }
      expect([step, results[0]]).toEqual([step, results[1]]);
      if (results[0]!.wrote) changed++;
      else noOps++;
    }
    // The run covered both kinds of write.
    expect(changed).toBeGreaterThan(50);
    expect(noOps).toBeGreaterThan(3);
  });
});
