import { describe, expect, it } from '@jest/globals';
import { interval, map, of } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { informer } from '../../lib/informer/informer.js';
import { WatchDeadError } from '../../lib/listwatch/watchDeadError.js';
import { runOnVirtualTime } from './runReflector.js';
import { bookmark, page, pod, scriptedListWatch, type Pod } from './scriptedListWatch.js';
import { added } from './watchEvents.js';

// R12: dead watches, by the watch timeout or by bookmark liveness, on virtual time.
describe('reflector on virtual time: dead watches', () => {
  it('R12: without bookmarks expected, a watch silent past timeoutSeconds + grace is declared dead and replaced from the same RV', () => {
    const r = runOnVirtualTime(
      ({ cold }, s) =>
        scriptedListWatch<Pod>(
          s,
          [() => cold('(a|)', { a: page([], '10') })],
          [() => cold('a', { a: added(pod('a', '11')) })], // one event, then silence forever
        ),
      400_000,
      { deadWatchGraceSeconds: 10, expectedBookmarkIntervalMs: 0 },
    );
    const watches = r.lw.watchCalls();
    // 300 s (timeoutSeconds, random 0) + 10 s of silence after the event, then one 800 ms backoff step
    expect(watches.map((c) => `${c.options.resourceVersion}@${c.at}`)).toEqual(['10@0', '11@310800']);
    expect(r.lw.listCalls()).toHaveLength(1);
    expect(r.errors[0].error.cause).toBeInstanceOf(WatchDeadError);
    expect(r.errors[0].error.action).toBe('rewatch');
  });

  describe('R12: bookmark liveness (a watch asks for bookmarks; the server sends one about once a minute)', () => {
    it('a watch silent for the bookmark interval + grace is dead and replaced from the same RV, long before its timeout', () => {
      const r = runOnVirtualTime(
        ({ cold }, s) =>
          scriptedListWatch<Pod>(
            s,
            [() => cold('(a|)', { a: page([], '10') })],
            [() => cold('a', { a: added(pod('a', '11')) })], // one event, then silence forever
          ),
        100_000,
        { deadWatchGraceSeconds: 10 },
      );
      const watches = r.lw.watchCalls();
      expect(watches[0].options).toMatchObject({ allowWatchBookmarks: true });
      // 60 s (the default bookmark interval) + 10 s of silence, then one 800 ms backoff step
      expect(watches.map((c) => `${c.options.resourceVersion}@${c.at}`)).toEqual(['10@0', '11@70800']);
      expect(r.lw.listCalls()).toHaveLength(1);
      expect(r.errors[0].error.cause).toBeInstanceOf(WatchDeadError);
      expect(r.errors[0].error.message).toContain(
        'no bytes received for 70000 ms (longer than a bookmark every 60 s plus 10 s)',
      );
      expect(r.errors[0].error.action).toBe('rewatch');
    });

    it('bookmarks every 60 s keep an otherwise quiet watch alive until its timeout', () => {
      const r = runOnVirtualTime(
        (_, s) =>
          scriptedListWatch<Pod>(
            s,
            [() => of(page([], '10'))],
            [() => interval(60_000, s).pipe(map(() => bookmark('10')))],
          ),
        290_000,
      );
      expect(r.lw.watchCalls()).toHaveLength(1);
      expect(r.errors).toEqual([]);
    });

    it('behind a proxy whose upstream was cut (silence right after a bookmark), the watch is live again within 2 minutes', () => {
      const r = runOnVirtualTime(
        ({ cold }, s) =>
          scriptedListWatch<Pod>(
            s,
            [() => cold('(a|)', { a: page([], '10') })],
            [
              () => cold('59s a', { a: bookmark('12') }), // the last bytes through the proxy
              () => cold('a', { a: added(pod('b', '13')) }),
            ],
          ),
        200_000,
      );
      const watches = r.lw.watchCalls();
      expect(watches.map((c) => c.options.resourceVersion)).toEqual(['10', '12']);
      // cut at 59 s; dead at 59 + 70 s; replaced after 800 ms: 129.8 s from the start, 70.8 s after the cut
      expect(watches[1].at - 59_000).toBeLessThanOrEqual(120_000);
      expect(watches[1].at).toBe(129_800);
      expect(r.events.map((e) => e.event.type)).toEqual(['replace', 'bookmark', 'add']);
    });

    it('the bound is the watch timeout + grace when that is shorter than the bookmark interval + grace', () => {
      const r = runOnVirtualTime(
        ({ cold }, s) =>
          scriptedListWatch<Pod>(s, [() => cold('(a|)', { a: page([], '10') })], [() => cold('-')]),
        40_000,
        { minWatchTimeoutSeconds: 20, deadWatchGraceSeconds: 1 },
      );
      // timeoutSeconds 20 (random 0) + 1 s grace; then 800 ms of backoff
      expect(r.lw.watchCalls().map((c) => c.at)).toEqual([0, 21_800]);
    });

    it('an informer passes expectedBookmarkIntervalMs on to its reflector', () => {
      const ts = new TestScheduler((a, e) => expect(a).toEqual(e));
      let lw: ReturnType<typeof scriptedListWatch<Pod>> | undefined;
      ts.run(({ cold }) => {
        lw = scriptedListWatch<Pod>(ts, [() => cold('(a|)', { a: page([], '10') })], [() => cold('-')]);
        const i = informer<Pod>(lw, {
          scheduler: ts,
          reflector: { random: () => 0, expectedBookmarkIntervalMs: 5_000, deadWatchGraceSeconds: 1 },
        });
        i.start();
        ts.schedule(() => void i.stop(), 10_000);
      });
      // 5 s + 1 s of silence, then 800 ms of backoff
      expect(lw!.watchCalls().map((c) => c.at)).toEqual([0, 6_800]);
    });
  });
});
