import { describe, expect, it } from '@jest/globals';
import type { SchedulerAction, SchedulerLike } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { leaderElection, type LeaderElector } from '../../lib/leaderelection/leaderElection.js';
import type { LeaderElectionConfig } from '../../lib/leaderelection/leaderElectionConfig.js';
import type { RxkubeError } from '../../lib/errors.js';
import { memoryLeaseStore, type MemoryLeaseStore } from '../../lib/testing/memoryLeaseStore.js';

const newScheduler = () => new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
const bool = { t: true, f: false };

/** An elector on the test scheduler with client-go's default timings and no jitter (random 0). */
function elector(ts: TestScheduler, store: MemoryLeaseStore, identity: string, extra: Partial<LeaderElectionConfig> = {}): LeaderElector & { errors: RxkubeError[] } {
  const e = leaderElection({ lock: store.lock(identity), identity, scheduler: ts, random: () => 0, ...extra });
  const errors: RxkubeError[] = [];
  e.errors$.subscribe((x) => errors.push(x));
  return Object.assign(e, { errors });
}

describe('leaderElection on virtual time (client-go semantics, in-memory lock)', () => {
  it('acquire: no Lease -> create it (transitions 0, acquireTime = renewTime = now) and lead; the callbacks fire in order', () => {
    const ts = newScheduler();
    ts.run(({ expectObservable }) => {
      const store = memoryLeaseStore({ scheduler: ts, latency: 5 });
      const calls: string[] = [];
      const a = elector(ts, store, 'a', {
        onStartedLeading: () => calls.push(`started@${ts.now()}`),
        onNewLeader: (id) => calls.push(`leader ${id}@${ts.now()}`),
      });
      ts.schedule(() => a.start(), 0);
      ts.schedule(() => void a.stop(), 100);
      // get answers at 5 (no Lease), create at 10: leading from 10.
      expectObservable(a.leading$).toBe('f 9ms t 89ms (f|)', bool);
      ts.flush();
      expect(store.writes[0]).toEqual({
        at: 10,
        client: 'a',
        resourceVersion: '1',
        record: { holderIdentity: 'a', leaseDurationSeconds: 15, acquireTime: 5, renewTime: 5, leaderTransitions: 0 },
      });
      expect(calls).toEqual(['leader a@10', 'started@10']);
    });
  });

  it('renew: the leader renews every retryPeriod with the optimistic fast path, keeping acquireTime and transitions', () => {
    const ts = newScheduler();
    ts.run(() => {
      const store = memoryLeaseStore({ scheduler: ts, latency: 5 });
      const a = elector(ts, store, 'a');
      ts.schedule(() => a.start(), 0);
      ts.schedule(() => void a.stop(), 7000);
      ts.flush();
      // create answered at 10; then wait 2000, update answered 5 later: 2015, 4020, 6025.
      expect(store.writes.map((w) => w.at)).toEqual([10, 2015, 4020, 6025]);
      expect(store.writes.map((w) => [w.record.acquireTime, w.record.renewTime, w.record.leaderTransitions])).toEqual([
        [5, 5, 0],
        [5, 2010, 0],
        [5, 4015, 0],
        [5, 6020, 0],
      ]);
      expect(a.errors).toEqual([]);
    });
  });

  it('lose: a leader cut off from the lock stops leading at its last renewal + renewDeadline; the other takes over after leaseDuration from its own last observation', () => {
    const ts = newScheduler();
    ts.run(({ expectObservable }) => {
      const store = memoryLeaseStore({ scheduler: ts });
      const a = elector(ts, store, 'a');
      const b = elector(ts, store, 'b');
      ts.schedule(() => a.start(), 0);
      ts.schedule(() => b.start(), 1);
      ts.schedule(() => store.partition('a'), 3000); // a's renewals from 4000 on hang
      ts.schedule(() => void a.stop(), 30_000);
      ts.schedule(() => void b.stop(), 30_000);
      // a renewed at 0 and 2000; deadline 2000 + 10000 = 12000.
      expectObservable(a.leading$).toBe('t 11999ms f 17999ms |', bool);
      // b saw the last change (a's 2000 renewal) at its 2001 attempt: valid until 17001; its attempt at 18001 takes it.
      expectObservable(b.leading$).toBe('f 18000ms t 11998ms (f|)', bool);
      ts.flush();
      const takeover = store.writes.find((w) => w.client === 'b')!;
      expect(takeover.record).toEqual({ holderIdentity: 'b', leaseDurationSeconds: 15, acquireTime: 18001, renewTime: 18001, leaderTransitions: 1 });
    });
  });

  it('lose, with a wall clock stepped back 1 ms meanwhile: the renew deadline timer still ends the term when it fires', () => {
    const ts = newScheduler();
    ts.run(({ expectObservable }) => {
      const store = memoryLeaseStore({ scheduler: ts });
      // Date.now() can lag the timers' monotonic clock (an NTP step back): from 5000 on, this
      // clock reads 1 ms behind the timers. The deadline timer fires at 12000 while now() says 11999.
      const stepped: SchedulerLike = {
        now: () => ts.now() - (ts.now() >= 5000 ? 1 : 0),
        schedule: ((work: (this: SchedulerAction<unknown>, state?: unknown) => void, delay?: number, state?: unknown) =>
          ts.schedule(work, delay, state)) as SchedulerLike['schedule'],
      };
      const a = leaderElection({ lock: store.lock('a'), identity: 'a', scheduler: stepped, random: () => 0 });
      ts.schedule(() => a.start(), 0);
      ts.schedule(() => store.partition('a'), 3000); // a's renewals from 4000 on hang
      ts.schedule(() => void a.stop(), 20_000);
      // a renewed at 0 and 2000; deadline 2000 + 10000 = 12000 (before, the step found 11999 < 12000
      // and nothing armed the deadline again: a led until stopped).
      expectObservable(a.leading$).toBe('t 11999ms f 7999ms |', bool);
    });
  });

  it('release: with releaseOnCancel, stop writes an empty holder (leaseDurationSeconds 1) and the other leads at its next retry', () => {
    const ts = newScheduler();
    ts.run(({ expectObservable }) => {
      const store = memoryLeaseStore({ scheduler: ts });
      const a = elector(ts, store, 'a', { releaseOnCancel: true });
      const b = elector(ts, store, 'b');
      ts.schedule(() => a.start(), 0);
      ts.schedule(() => b.start(), 1);
      ts.schedule(() => void a.stop(), 5000);
      ts.schedule(() => void b.stop(), 9000);
      expectObservable(a.leading$).toBe('t 4999ms (f|)', bool);
      expectObservable(b.leading$).toBe('f 6000ms t 2998ms (f|)', bool);
      ts.flush();
      const release = store.writes.find((w) => w.client === 'a' && w.record.holderIdentity === '')!;
      expect(release).toMatchObject({ at: 5000, record: { holderIdentity: '', leaseDurationSeconds: 1, leaderTransitions: 0 } });
      expect(store.writes.find((w) => w.client === 'b')).toMatchObject({ at: 6001, record: { holderIdentity: 'b', leaderTransitions: 1 } });
    });
  });

  it('a 409 is a lost race, not an error: two electors create at once, one leads, the other stands by and reports nothing', () => {
    const ts = newScheduler();
    ts.run(({ expectObservable }) => {
      const store = memoryLeaseStore({ scheduler: ts, latency: 5 });
      const a = elector(ts, store, 'a');
      const b = elector(ts, store, 'b');
      ts.schedule(() => a.start(), 0);
      ts.schedule(() => b.start(), 0);
      ts.schedule(() => void a.stop(), 100);
      ts.schedule(() => void b.stop(), 100);
      expectObservable(a.leading$).toBe('f 9ms t 89ms (f|)', bool);
      expectObservable(b.leading$).toBe('f 99ms |', bool);
      // b lost the race without observing anything: it learns of a at its next attempt (2010).
      expectObservable(b.leader$).toBe('n 99ms |', { n: '' });
      ts.flush();
      expect(store.writes.map((w) => w.client)).toEqual(['a']);
      expect(a.errors).toEqual([]);
      expect(b.errors).toEqual([]);
    });
  });

  it('a 409 on takeover: two candidates find the same expired Lease; one update wins, the loser counts no error', () => {
    const ts = newScheduler();
    ts.run(() => {
      const store = memoryLeaseStore({ scheduler: ts, latency: 5 });
      store.put({ holderIdentity: 'gone', leaseDurationSeconds: 15, acquireTime: 0, renewTime: 0, leaderTransitions: 3 });
      const b = elector(ts, store, 'b');
      const c = elector(ts, store, 'c');
      ts.schedule(() => b.start(), 0);
      ts.schedule(() => c.start(), 0);
      ts.schedule(() => void b.stop(), 20_000);
      ts.schedule(() => void c.stop(), 20_000);
      ts.flush();
      const takeovers = store.writes.filter((w) => w.client !== 'external');
      expect(takeovers[0]!.record).toMatchObject({ holderIdentity: 'b', leaderTransitions: 4 });
      expect(takeovers.every((w) => w.record.holderIdentity === 'b')).toBe(true);
      expect(c.errors).toEqual([]);
    });
  });

  it("clock jump: expiry is timed on the elector's own observation, never on the holder's renewTime (an hour ahead or behind)", () => {
    const ts = newScheduler();
    ts.run(({ expectObservable }) => {
      const store = memoryLeaseStore({ scheduler: ts });
      const hour = 3_600_000;
      const rec = (renewTime: number) => ({ holderIdentity: 'x', leaseDurationSeconds: 15, acquireTime: 0, renewTime, leaderTransitions: 0 });
      store.put(rec(hour), 'x'); // a holder whose clock is an hour ahead
      for (let at = 1000; at <= 9000; at += 2000) ts.schedule(() => void store.put(rec(at - hour), 'x'), at); // then an hour behind
      const a = elector(ts, store, 'a');
      ts.schedule(() => a.start(), 0);
      ts.schedule(() => void a.stop(), 30_000);
      // a saw the last change (put at 9000) at its 10000 attempt: still valid at 24000, taken at 26000.
      expectObservable(a.leading$).toBe('f 25999ms t 3999ms (f|)', bool);
      ts.flush();
    });
  });

  it('a failing lock is reported on errors$ and retried; a throwing callback is reported, never thrown', () => {
    const ts = newScheduler();
    ts.run(({ expectObservable }) => {
      const store = memoryLeaseStore({ scheduler: ts });
      store.partition('a', 'fail');
      const a = elector(ts, store, 'a', {
        onStartedLeading: () => {
          throw new Error('boom');
        },
      });
      ts.schedule(() => a.start(), 0);
      ts.schedule(() => store.heal('a'), 3000);
      ts.schedule(() => void a.stop(), 5000);
      expectObservable(a.leading$).toBe('f 3999ms t 999ms (f|)', bool);
      ts.flush();
      expect(a.errors.map((e) => e.message)).toEqual([
        expect.stringMatching(/^leader election get of lease default\/memory-lease failed; retrying: client a is partitioned/),
        expect.stringMatching(/get of lease .* failed/),
        'the onStartedLeading callback threw; the elector went on: boom',
      ]);
    });
  });
  it('a lock whose get throws instead of erroring is reported on errors$ and retried, never thrown out of a timer', () => {
    const ts = newScheduler();
    ts.run(({ expectObservable }) => {
      const store = memoryLeaseStore({ scheduler: ts });
      const inner = store.lock('a');
      let throwing = 2;
      const thrower = <R>(call: () => R): R => {
        if (throwing > 0) {
          throwing--;
          throw new TypeError('lock bug');
        }
        return call();
      };
      const a = elector(ts, store, 'a', {
        lock: { ...inner, get: () => thrower(() => inner.get()) },
      });
      ts.schedule(() => a.start(), 0);
      ts.schedule(() => void a.stop(), 10_000);
      // Two failed gets (at 0 and after one retryPeriod), then the create at 4 s leads.
      expectObservable(a.leading$).toBe('f 3999ms t 5999ms (f|)', bool);
      ts.flush();
      expect(a.errors.map((e) => e.message)).toEqual([
        expect.stringMatching(/get of lease .* failed; retrying: lock bug/),
        expect.stringMatching(/get of lease .* failed; retrying: lock bug/),
      ]);
    });
  });
  it('a leading$ subscriber that stops the elector at once: the term starts, then ends, in that order, and its signal aborts', () => {
    const ts = newScheduler();
    ts.run(() => {
      const store = memoryLeaseStore({ scheduler: ts });
      const log: string[] = [];
      let signal: AbortSignal | undefined;
      const a = elector(ts, store, 'a', {
        onStartedLeading: (s) => {
          signal = s;
          log.push('started');
        },
        onStoppedLeading: () => log.push('stopped'),
      });
      a.leading$.subscribe((leading) => leading && void a.stop());
      ts.schedule(() => a.start(), 0);
      ts.flush();
      // Before: the stop ran inside the commit of leadership, so onStoppedLeading came first and
      // onStartedLeading after it, with a signal that never aborted.
      expect(log).toEqual(['started', 'stopped']);
      expect(signal?.aborted).toBe(true);
      expect(a.isLeader()).toBe(false);
    });
  });
});
