// Leader election edges from issue 28: a release that loses a race reads the Lease again and
// retries (client-go TestReleaseRetriesOnConflict); a leader whose process was paused past its
// renew deadline answers isLeader() === false and aborts its term's signal as soon as it runs again.
import { describe, expect, it } from '@jest/globals';
import type { SchedulerAction, SchedulerLike, Subscription } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { leaderElection } from '../../lib/leaderelection/leaderElection.js';
import { memoryLeaseStore } from '../../lib/testing/memoryLeaseStore.js';

const newScheduler = () => new TestScheduler((actual, expected) => expect(actual).toEqual(expected));

/**
 * The test scheduler's timers with a clock that can jump ahead without running anything: what a
 * process sees after SIGSTOP / a long GC pause (its timers are late, its clock is not).
 */
function pausableClock(ts: TestScheduler): SchedulerLike & { pause(ms: number): void } {
  let offset = 0;
  return {
    now: () => ts.now() + offset,
    schedule: <S>(work: (this: SchedulerAction<S>, state?: S) => void, delay?: number, state?: S): Subscription => ts.schedule(work, delay, state),
    pause: (ms: number) => void (offset += ms),
  };
}

describe('leader election edges (issue 28)', () => {
  it('a release whose update gets a 409 reads the Lease again and retries (client-go TestReleaseRetriesOnConflict)', () => {
    const ts = newScheduler();
    ts.run(() => {
      const store = memoryLeaseStore({ scheduler: ts, latency: 5 });
      const a = leaderElection({ lock: store.lock('a'), identity: 'a', scheduler: ts, random: () => 0, releaseOnCancel: true });
      const errors: unknown[] = [];
      a.errors$.subscribe((e) => errors.push(e));
      ts.schedule(() => a.start(), 0);
      ts.schedule(() => void a.stop(), 100); // release: get answers at 105, update sent then
      // Someone else writes the Lease (still held by a: a label change, a status write) before
      // the release's update lands at 110: that update is stale, a 409.
      ts.schedule(() => void store.put({ ...store.current!.record }, 'other'), 107);
      ts.flush();
      expect(store.current?.record.holderIdentity).toBe('');
      const release = store.writes.find((w) => w.client === 'a' && w.record.holderIdentity === '');
      // Read again at 115, written at 120.
      expect(release).toMatchObject({ at: 120, record: { holderIdentity: '', leaseDurationSeconds: 1 } });
      expect(errors).toEqual([]);
    });
  });

  it('a release does not write when the fresh read shows another holder', () => {
    const ts = newScheduler();
    ts.run(() => {
      const store = memoryLeaseStore({ scheduler: ts, latency: 5 });
      const a = leaderElection({ lock: store.lock('a'), identity: 'a', scheduler: ts, random: () => 0, releaseOnCancel: true });
      ts.schedule(() => a.start(), 0);
      ts.schedule(() => void a.stop(), 100);
      // b took it over (a's view was stale) before a's release read it.
      ts.schedule(() => void store.put({ ...store.current!.record, holderIdentity: 'b' }, 'b'), 102);
      ts.flush();
      expect(store.current?.record.holderIdentity).toBe('b');
      expect(store.writes.filter((w) => w.client === 'a').length).toBe(1); // the create only
    });
  });

  it('a leader paused past its renew deadline answers isLeader() === false at once and aborts its term', () => {
    const ts = newScheduler();
    ts.run(() => {
      const clock = pausableClock(ts);
      const store = memoryLeaseStore({ scheduler: ts, latency: 5 });
      let signal: AbortSignal | undefined;
      const stopped: number[] = [];
      const a = leaderElection({
        lock: store.lock('a'),
        identity: 'a',
        scheduler: clock,
        random: () => 0,
        onStartedLeading: (s) => (signal = s),
        onStoppedLeading: () => stopped.push(ts.now()),
      });
      const leading: boolean[] = [];
      a.leading$.subscribe((l) => leading.push(l));
      ts.schedule(() => a.start(), 0);
      ts.schedule(() => {
        expect(a.isLeader()).toBe(true);
        // Its last successful attempt started at 0 (the create): the deadline is 10 000. The
        // process is stopped for 20 s; the timers have not run yet when it reads the clock again.
        clock.pause(20_000);
        expect(a.isLeader()).toBe(false);
        expect(signal?.aborted).toBe(true);
        expect(stopped).toEqual([1000]);
        expect(leading).toEqual([false, true, false]);
      }, 1000);
      ts.schedule(() => void a.stop(), 1500);
      ts.flush();
    });
  });

  it("after a pause, reading the term's signal alone aborts it (no timer needed)", () => {
    const ts = newScheduler();
    ts.run(() => {
      const clock = pausableClock(ts);
      const store = memoryLeaseStore({ scheduler: ts, latency: 5 });
      let signal: AbortSignal | undefined;
      const a = leaderElection({ lock: store.lock('a'), identity: 'a', scheduler: clock, random: () => 0, onStartedLeading: (s) => (signal = s) });
      ts.schedule(() => a.start(), 0);
      ts.schedule(() => {
        expect(signal?.aborted).toBe(false);
        clock.pause(8_999); // 1 000 + 8 999 < 10 000: still within the deadline
        expect(signal?.aborted).toBe(false);
        expect(a.isLeader()).toBe(true);
        clock.pause(1);
        expect(signal?.aborted).toBe(true);
        expect(a.isLeader()).toBe(false);
      }, 1000);
      ts.schedule(() => void a.stop(), 1500);
      ts.flush();
    });
  });
});
