import { describe, expect, it } from '@jest/globals';
import { NEVER, of, take } from 'rxjs';
import { informer } from '../../lib/informer/informer.js';
import type { ListWatch } from '../../lib/listwatch/listWatch.js';
import { listPage } from '../../lib/testing/marbles.js';
import { longInterval, longTimer, maxTimerDelayMs } from '../../lib/timers/longTimer.js';
import { workQueue } from '../../lib/workqueue/workQueue.js';
import { InvalidDelayError } from '../../lib/workqueue/workQueueError.js';
import { pod, type Pod } from '../informer/support.js';
import { RecordingScheduler } from '../operators/recordingScheduler.js';

const DAY = 86_400_000;

// A real timer given more than maxTimerDelayMs fires after 1 ms (Node warns, browsers do not), so
// no test here may see one asked for.

describe('timers longer than a JavaScript timer can hold (2^31-1 ms, about 24.8 days)', () => {
  it('longTimer fires once at the exact virtual time, in steps no timer overflows; Infinity never fires', () => {
    const s = new RecordingScheduler();
    const fired: Array<[string, number]> = [];
    longTimer(30 * DAY, s).subscribe({ next: () => fired.push(['30d', s.now()]), complete: () => fired.push(['30d done', s.now()]) });
    longTimer(Infinity, s).subscribe(() => fired.push(['never', s.now()]));
    longTimer(10, s).subscribe(() => fired.push(['10ms', s.now()]));
    s.advanceTo(365 * DAY);
    expect(fired).toEqual([
      ['10ms', 10],
      ['30d', 30 * DAY],
      ['30d done', 30 * DAY],
    ]);
    expect(s.longestDelay()).toBeLessThanOrEqual(maxTimerDelayMs);
  });

  it('longInterval ticks every period past the limit; unsubscribing stops it', () => {
    const s = new RecordingScheduler();
    const ticks: number[] = [];
    longInterval(40 * DAY, s)
      .pipe(take(3))
      .subscribe(() => ticks.push(s.now() / DAY));
    s.advanceTo(365 * DAY);
    expect(ticks).toEqual([40, 80, 120]);
    expect(s.longestDelay()).toBeLessThanOrEqual(maxTimerDelayMs);
  });

  it('workQueue.addAfter(key, 30 days): ready at 30 days, not before, with no overflowing timer', () => {
    const s = new RecordingScheduler();
    const q = workQueue<string>({ scheduler: s });
    q.addAfter('renew-certificate', 30 * DAY);
    s.advanceTo(30 * DAY - 1);
    expect(q.len()).toBe(0);
    s.advanceTo(30 * DAY);
    expect(q.tryGet()?.key).toBe('renew-certificate');
    expect(s.longestDelay()).toBeLessThanOrEqual(maxTimerDelayMs);
    q.shutDown();
  });

  it('workQueue: a delay that is not a number of milliseconds is an InvalidDelayError and adds nothing', () => {
    const q = workQueue<string>({ scheduler: new RecordingScheduler() });
    expect(() => q.addAfter('a', Number.NaN)).toThrow(InvalidDelayError);
    expect(() => q.add('b', { after: '5' as unknown as number })).toThrow(/gave the delay "5", which is not a number of milliseconds/);
    const broken = workQueue<string>({
      scheduler: new RecordingScheduler(),
      rateLimiter: { when: () => Number.NaN, forget: () => undefined, numRequeues: () => 0 },
    });
    expect(() => broken.addRateLimited('c')).toThrow(/its rate limiter gave the delay NaN/);
    expect([q.len(), q.stats().waiting, broken.len(), broken.stats().waiting]).toEqual([0, 0, 0, 0]);
    q.shutDown();
    broken.shutDown();
  });

  it('waitForCacheSync: timeout Infinity waits for good; 30 days resolves false at 30 days, not at once', async () => {
    const s = new RecordingScheduler();
    const hanging: ListWatch<Pod> = { list: () => NEVER, watch: () => NEVER };
    const inf = informer(hanging, { scheduler: s, logger: false });
    inf.start();
    const results: Array<[string, boolean]> = [];
    void inf.waitForCacheSync({ timeout: Infinity }).then((r) => results.push(['Infinity', r]));
    void inf.waitForCacheSync({ timeout: 30 * DAY }).then((r) => results.push(['30d', r]));
    s.advanceTo(30 * DAY - 1);
    await Promise.resolve();
    expect(results).toEqual([]);
    s.advanceTo(30 * DAY);
    await Promise.resolve();
    expect(results).toEqual([['30d', false]]);
    s.advanceTo(1000 * DAY);
    await Promise.resolve();
    expect(results).toEqual([['30d', false]]);
    expect(s.longestDelay()).toBeLessThanOrEqual(maxTimerDelayMs);
    await inf.stop();
  });

  it('a 40-day resync period resyncs at 40 and 80 days, with no overflowing timer', () => {
    const s = new RecordingScheduler();
    const lw: ListWatch<Pod> = { list: () => of(listPage([pod('a', '1')], '1')), watch: () => NEVER };
    // The watch never sends a byte: with the default bookmark bound the reflector would declare it
    // dead and replace it every 70 s, 100k times in 85 virtual days, which is what made this test
    // slow and is not what it tests. Without relying on bookmarks, and with watches of 5-10 days
    // (under the timer limit), it is replaced a dozen times.
    const reflector = { expectedBookmarkIntervalMs: 0, minWatchTimeoutSeconds: 5 * 86_400 };
    const inf = informer(lw, { scheduler: s, logger: false, resyncPeriod: 40 * DAY, reflector });
    const updates: number[] = [];
    inf.addEventHandler({ update: () => void updates.push(s.now() / DAY) });
    inf.start();
    s.advanceTo(85 * DAY);
    expect(updates).toEqual([40, 80]);
    expect(s.longestDelay()).toBeLessThanOrEqual(maxTimerDelayMs);
    void inf.stop();
  });
});
