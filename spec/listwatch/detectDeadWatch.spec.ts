import { describe, expect, it } from '@jest/globals';
import { NEVER } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { detectDeadWatch } from '../../lib/listwatch/detectDeadWatch.js';
import { WatchDeadError } from '../../lib/listwatch/watchDeadError.js';
import { RecordingScheduler } from '../operators/recordingScheduler.js';

const newScheduler = (): TestScheduler =>
  new TestScheduler((actual, expected) => expect(actual).toEqual(expected));

describe('detectDeadWatch (R12: a silent watch is declared dead on the client)', () => {
  it('R12: errors with WatchDeadError after the given silence since the last chunk, and unsubscribes the source', () => {
    const scheduler = newScheduler();
    scheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const chunks = cold('-a--b---------------');
      const sub = '        ^------------!';
      const expected = '   -a--b--------#';
      expectObservable(chunks.pipe(detectDeadWatch(9, scheduler))).toBe(
        expected,
        undefined,
        new WatchDeadError(9),
      );
      expectSubscriptions(chunks.subscriptions).toBe(sub);
    });
  });

  it('R12: counts silence from the subscription when no byte ever arrives (headers never came)', () => {
    const scheduler = newScheduler();
    scheduler.run(({ cold, expectObservable }) => {
      expectObservable(cold('-------').pipe(detectDeadWatch(5, scheduler))).toBe(
        '-----#',
        undefined,
        new WatchDeadError(5),
      );
    });
  });

  it('R12: a watch that keeps sending bytes within the silence is not dead, however long it lasts', () => {
    const scheduler = newScheduler();
    scheduler.run(({ cold, expectObservable }) => {
      const chunks = cold('--a--a--a--a--a--a--a--a--|');
      expectObservable(chunks.pipe(detectDeadWatch(3, scheduler))).toBe('--a--a--a--a--a--a--a--a--|');
    });
  });

  it('R12: a watch the server ends in time completes normally and leaves no timer', () => {
    const scheduler = newScheduler();
    scheduler.run(({ cold, expectObservable, flush }) => {
      expectObservable(cold('-a-|').pipe(detectDeadWatch(10, scheduler))).toBe('-a-|');
      flush();
      expect(scheduler.actions).toHaveLength(0);
    });
  });

  it('R12: the error says how long the watch was silent', () => {
    const err = new WatchDeadError(330_000, 'watch /api/v1/pods');
    expect(err.code).toBe('WatchDeadError');
    expect(err.silentMs).toBe(330_000);
    expect(err.message).toMatch(/watch \/api\/v1\/pods: no bytes received for 330000 ms/);
  });

  it('R12: on fractional virtual time (jittered backoffs) a silent watch still dies once, at its deadline', () => {
    // 2063539.712038764 + 70000 crosses 2^21 and rounds: now - start comes out 2^-32 short of
    // 70000. Checking that difference re-armed a timer at the same instant for ever (a hang).
    const scheduler = new RecordingScheduler(1000);
    const start = 2063539.712038764;
    scheduler.schedule(() => undefined, start);
    scheduler.flush();
    let failedAt: number | undefined;
    let failure: unknown;
    NEVER.pipe(detectDeadWatch(70_000, scheduler)).subscribe({
      error: (e: unknown) => {
        failedAt = scheduler.now();
        failure = e;
      },
    });
    scheduler.flush();
    expect(failure).toBeInstanceOf(WatchDeadError);
    expect(failedAt).toBe(start + 70_000);
    expect(scheduler.delays.length).toBeLessThan(5);
  });
});
