import { describe, expect, it } from '@jest/globals';
import {
  concat,
  defer,
  interval,
  map,
  NEVER,
  Observable,
  of,
  queueScheduler,
  throwError,
  type Subscription,
} from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import type { ListPage, ListWatch } from '../../lib/listwatch/listWatch.js';
import { informer } from '../../lib/informer/informer.js';
import { reflector } from '../../lib/reflector/reflector.js';
import type { ReflectorStatus } from '../../lib/reflector/reflectorStatus.js';
import type { WatchEvent } from '../../lib/listwatch/watchEvent.js';
import type { WatchOptions } from '../../lib/listwatch/listWatch.js';
import { MalformedWatchEventError } from '../../lib/listwatch/malformedWatchEventError.js';
import { WatchDeadError } from '../../lib/listwatch/watchDeadError.js';
import { WatchEndedError } from '../../lib/reflector/reflectorError.js';
import { runOnVirtualTime } from './runReflector.js';
import { apiError, bookmark, page, pod, scriptedListWatch, status, type Pod } from './scriptedListWatch.js';

type E = WatchEvent<Pod>;
const added = (p: Pod): E => ({ type: 'ADDED', object: p });
const modified = (p: Pod): E => ({ type: 'MODIFIED', object: p });
const deleted = (p: Pod): E => ({ type: 'DELETED', object: p });
const errorEvent = (code: number, reason: string, retryAfterSeconds?: number): E => ({
  type: 'ERROR',
  object: status(code, reason, retryAfterSeconds ? { details: { retryAfterSeconds } } : {}),
});

describe('reflector on virtual time', () => {
  it('R1: first list is paged (limit=500, resourceVersion=0); watch starts at the list RV with bookmarks and timeoutSeconds in [300, 600)', () => {
    for (const [random, expected] of [
      [0, 300],
      [0.5, 450],
      [0.999, 599],
    ] as const) {
      const r = runOnVirtualTime(
        ({ cold }, s) =>
          scriptedListWatch<Pod>(s, [() => cold('5ms (a|)', { a: page([pod('a', '3')], '10') })], []),
        100,
        { random: () => random },
      );
      expect(r.lw.listCalls().map((c) => c.options)).toEqual([{ resourceVersion: '0', limit: 500 }]);
      expect(r.lw.watchCalls().map((c) => c.options)).toEqual([
        { resourceVersion: '10', allowWatchBookmarks: true, timeoutSeconds: expected },
      ]);
      expect(r.events.map((e) => e.event)).toEqual([
        { type: 'replace', items: [pod('a', '3')], resourceVersion: '10' },
      ]);
    }
  });

  it('R2: page size is configurable; a relist at a specific RV sends no limit unless the first list came back paged', () => {
    // Unpaged first list: the relist at "10" (after a 410 on the watch) sends no limit.
    const unpaged = runOnVirtualTime(
      ({ cold }, s) =>
        scriptedListWatch<Pod>(
          s,
          [() => cold('(a|)', { a: page([], '10') }), () => cold('(a|)', { a: page([], '12') })],
          [() => cold('10ms #', {}, apiError(410, 'Expired'))],
        ),
      5_000,
    );
    expect(unpaged.lw.listCalls().map((c) => c.options)).toEqual([
      { resourceVersion: '0', limit: 500 },
      { resourceVersion: '10' },
    ]);
    // A first list in two pages: later lists are paged too.
    const paged = runOnVirtualTime(
      ({ cold }, s) =>
        scriptedListWatch<Pod>(
          s,
          [
            () => cold('a(b|)', { a: page([pod('a', '1')], '10', 'c1'), b: page([pod('b', '2')], '10') }),
            () => cold('(a|)', { a: page([], '12') }),
          ],
          [() => cold('10ms #', {}, apiError(410, 'Expired'))],
        ),
      5_000,
    );
    expect(paged.lw.listCalls().map((c) => c.options)).toEqual([
      { resourceVersion: '0', limit: 500 },
      { resourceVersion: '10', limit: 500 },
    ]);
    expect(paged.events[0].event).toEqual({
      type: 'replace',
      items: [pod('a', '1'), pod('b', '2')],
      resourceVersion: '10',
    });
    // An explicit page size is used by every list.
    const explicit = runOnVirtualTime(
      ({ cold }, s) =>
        scriptedListWatch<Pod>(
          s,
          [() => cold('(a|)', { a: page([], '10') }), () => cold('(a|)', { a: page([], '12') })],
          [() => cold('10ms #', {}, apiError(410, 'Expired'))],
        ),
      5_000,
      { pageSize: 7 },
    );
    expect(explicit.lw.listCalls().map((c) => c.options)).toEqual([
      { resourceVersion: '0', limit: 7 },
      { resourceVersion: '10', limit: 7 },
    ]);
  });

  describe('R3: RVs of successive lists', () => {
    it('normal relist: ["0", "10"]', () => {
      const r = runOnVirtualTime(
        ({ cold }, s) =>
          scriptedListWatch<Pod>(
            s,
            [
              () => cold('(a|)', { a: page([pod('a', '1')], '10') }),
              () => cold('(a|)', { a: page([pod('a', '1')], '11') }),
            ],
            [() => cold('10ms #', {}, apiError(410, 'Expired'))],
          ),
        5_000,
      );
      expect(r.lw.listCalls().map((c) => c.options.resourceVersion)).toEqual(['0', '10']);
    });

    it('exact RV expired: ["0", "10", ""]', () => {
      const r = runOnVirtualTime(
        ({ cold }, s) =>
          scriptedListWatch<Pod>(
            s,
            [
              () => cold('(a|)', { a: page([], '10') }),
              () => cold('#', {}, apiError(410, 'Expired')),
              () => cold('(a|)', { a: page([pod('a', '11')], '11') }),
            ],
            [() => cold('10ms #', {}, apiError(410, 'Expired'))],
          ),
        5_000,
      );
      expect(r.lw.listCalls().map((c) => c.options.resourceVersion)).toEqual(['0', '10', '']);
      expect(r.events.map((e) => e.event.type)).toEqual(['replace', 'replace']);
      expect(r.errors.map((e) => e.error.action)).toEqual(['relist', 'listFromLatest']);
      // the list from latest is at once, not after a backoff
      expect(r.lw.listCalls()[2].at).toBe(r.lw.listCalls()[1].at);
    });

    it('expired continue token: ["0", "10", "", "10"] (the pager lists once more at the same RV, unpaged)', () => {
      const continues: string[] = [];
      const r = runOnVirtualTime(
        ({ cold }, s) =>
          scriptedListWatch<Pod>(
            s,
            [
              () => cold('(a|)', { a: page([pod('a', '1')], '10') }),
              () =>
                concat(
                  cold('(a|)', { a: page([pod('a', '1')], '11', 'C1') }),
                  defer(() => {
                    continues.push('');
                    return throwError(() => apiError(410, 'Expired'));
                  }),
                ),
              () => cold('(a|)', { a: page([pod('a', '1'), pod('b', '2')], '11') }),
            ],
            [() => cold('10ms #', {}, apiError(410, 'Expired'))],
          ),
        5_000,
        { pageSize: 4 },
      );
      const calls = r.lw.listCalls();
      expect(
        [calls[0], calls[1]]
          .map((c) => c.options.resourceVersion)
          .concat(continues, [calls[2].options.resourceVersion!]),
      ).toEqual(['0', '10', '', '10']);
      expect(calls[2].options).toEqual({ resourceVersion: '10' });
      expect(r.events[1].event).toEqual({
        type: 'replace',
        items: [pod('a', '1'), pod('b', '2')],
        resourceVersion: '11',
      });
    });

    it('"too large resource version" -> the next list is at ""', () => {
      const tooLarge = apiError(504, 'Timeout', 1, {
        message: 'Timeout: Too large resource version: 20, current: 19',
        details: {
          causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }],
          retryAfterSeconds: 1,
        },
      });
      const r = runOnVirtualTime(
        ({ cold }, s) =>
          scriptedListWatch<Pod>(
            s,
            [
              () => cold('(a|)', { a: page([], '20') }),
              () => cold('#', {}, tooLarge),
              () => cold('(a|)', { a: page([], '21') }),
            ],
            [() => cold('10ms #', {}, apiError(410, 'Expired'))],
          ),
        5_000,
      );
      expect(r.lw.listCalls().map((c) => c.options.resourceVersion)).toEqual(['0', '20', '']);
      expect(r.lw.watchCalls().map((c) => c.options.resourceVersion)).toEqual(['20', '21']);
    });
  });

  it('R4: a watch 410 (HTTP status, or ERROR event with reason Expired or Gone) relists, then watches again', () => {
    for (const failure of ['http', 'Expired', 'Gone'] as const) {
      const r = runOnVirtualTime(
        ({ cold }, s) =>
          scriptedListWatch<Pod>(
            s,
            [
              () => cold('(a|)', { a: page([pod('a', '5')], '10') }),
              () => cold('(a|)', { a: page([pod('a', '12')], '20') }),
            ],
            [
              () =>
                failure === 'http'
                  ? cold('a 10ms #', { a: modified(pod('a', '12')) }, apiError(410, 'Expired'))
                  : cold('a 10ms (e|)', { a: modified(pod('a', '12')), e: errorEvent(410, failure) }),
            ],
          ),
        5_000,
      );
      expect(r.lw.calls.map((c) => `${c.op}@${c.options.resourceVersion}`)).toEqual([
        'list@0',
        'watch@10',
        'list@12',
        'watch@20',
      ]);
      expect(r.events.map((e) => e.event.type)).toEqual(['replace', 'update', 'replace']);
      expect(r.errors[0].error.statusCode).toBe(410);
      expect(r.errors[0].error.action).toBe('relist');
    }
  });

  it('R5: a clean close re-watches from the last RV at once, without a relist', () => {
    const r = runOnVirtualTime(
      ({ cold }, s) =>
        scriptedListWatch<Pod>(
          s,
          [() => cold('(a|)', { a: page([], '10') })],
          [() => cold('1500ms a 10ms |', { a: added(pod('a', '11')) }), () => cold('2000ms |')],
        ),
      5_000,
    );
    expect(r.lw.calls.map((c) => `${c.op}@${c.options.resourceVersion}@${c.at}`)).toEqual([
      'list@0@0',
      'watch@10@0',
      'watch@11@1511',
      'watch@11@3511',
    ]);
    expect(r.errors).toEqual([]);
  });

  it('R5: a watch that closes within 1 s with no events is an error, backs off (800 ms), then relists', () => {
    const r = runOnVirtualTime(
      ({ cold }, s) =>
        scriptedListWatch<Pod>(
          s,
          [() => cold('(a|)', { a: page([], '10') }), () => cold('(a|)', { a: page([], '10') })],
          [() => cold('999ms |')],
        ),
      5_000,
    );
    expect(r.lw.calls.map((c) => `${c.op}@${c.options.resourceVersion}@${c.at}`)).toEqual([
      'list@0@0',
      'watch@10@0',
      'list@10@1799',
      'watch@10@1799',
    ]);
    expect(r.errors).toHaveLength(1);
    expect(r.errors[0].error.cause).toBeInstanceOf(WatchEndedError);
    expect((r.errors[0].error.cause as WatchEndedError).kind).toBe('veryShort');
    expect(r.statuses.map((s) => s.status.state)).toContain('backingOff');
  });

  it('R6: 429 on watch open or as an event backs off, honouring Retry-After, and re-watches without a relist', () => {
    const r = runOnVirtualTime(
      ({ cold }, s) =>
        scriptedListWatch<Pod>(
          s,
          [() => cold('(a|)', { a: page([], '10') })],
          [
            () => cold('#', {}, apiError(429, 'TooManyRequests', 5)), // Retry-After 5 s > 800 ms
            () => cold('a 1999ms (e|)', { a: added(pod('a', '11')), e: errorEvent(429, 'TooManyRequests') }), // no Retry-After: 1600 ms
            () =>
              cold('a 1999ms (e|)', { a: added(pod('b', '12')), e: errorEvent(429, 'TooManyRequests', 1) }), // 3200 ms > 1 s
          ],
        ),
      20_000,
    );
    expect(r.lw.listCalls()).toHaveLength(1);
    expect(r.lw.watchCalls().map((c) => `${c.options.resourceVersion}@${c.at}`)).toEqual([
      '10@0',
      '10@5000',
      '11@8600', // 5000 + 2000 + 1600
      '12@13800', // 8600 + 2000 + 3200
    ]);
    expect(r.errors.map((e) => e.error.action)).toEqual(['rewatch', 'rewatch', 'rewatch']);
  });

  it('R7: backoff 800 ms, x2, cap 30 s on repeated failures; every ListAndWatch return waits one step', () => {
    const r = runOnVirtualTime(
      ({ cold }, s) =>
        scriptedListWatch<Pod>(
          s,
          Array.from({ length: 10 }, () => () => cold('#', {}, apiError(500, 'InternalError'))),
          [],
        ),
      200_000,
    );
    const at = r.lw.listCalls().map((c) => c.at);
    expect(at.slice(1).map((t, i) => t - at[i])).toEqual([
      800, 1600, 3200, 6400, 12800, 25600, 30000, 30000, 30000, 30000,
    ]);
    expect(
      r.statuses
        .filter((s) => s.status.state === 'backingOff')
        .map((s) => (s.status as { delayMs: number }).delayMs),
    ).toEqual([800, 1600, 3200, 6400, 12800, 25600, 30000, 30000, 30000, 30000]);
  });

  it('R7: jitter 1.0 stretches each step by random() * step; the sequence resets after 2 min without failures', () => {
    const r = runOnVirtualTime(
      ({ cold }, s) =>
        scriptedListWatch<Pod>(
          s,
          [
            () => cold('#', {}, apiError(500, 'InternalError')),
            () => cold('#', {}, apiError(500, 'InternalError')),
            () => cold('(a|)', { a: page([], '10') }),
            () => cold('(a|)', { a: page([], '20') }),
          ],
          // a healthy watch for 3 min (a bookmark every minute), then a 410
          [() => cold('60s a 59999ms a 59999ms #', { a: bookmark('10') }, apiError(410, 'Expired'))],
        ),
      400_000,
      { random: () => 0.5 },
    );
    const at = r.lw.listCalls().map((c) => c.at);
    expect(at).toEqual([0, 1200, 1200 + 2400, 1200 + 2400 + 180000 + 1200]);
  });

  it('R8: the RV follows add, modify, bookmark and delete events: ["10", "20", "30", "40"]', () => {
    const r = runOnVirtualTime(
      ({ cold }, s) =>
        scriptedListWatch<Pod>(
          s,
          [() => cold('(a|)', { a: page([], '5') })],
          [
            () =>
              cold('a-b-c-d 2000ms |', {
                a: added(pod('p', '10')),
                b: modified(pod('p', '20')),
                c: bookmark('30'),
                d: deleted(pod('p', '40')),
              }),
          ],
        ),
      3_000,
    );
    expect(r.resourceVersions).toEqual(['5', '10', '20', '30', '40']);
    expect(r.events.map((e) => e.event.type)).toEqual(['replace', 'add', 'update', 'bookmark', 'delete']);
    expect(r.events[3].event).toEqual({ type: 'bookmark', resourceVersion: '30' });
    expect(r.lw.watchCalls().map((c) => c.options.resourceVersion)).toEqual(['5', '40']);
  });

  it('R9: synthetic ADDED events of a watch started at "0" do not advance the RV until the first non-ADDED event', () => {
    const r = runOnVirtualTime(
      ({ cold }, s) =>
        scriptedListWatch<Pod>(
          s,
          [() => cold('(a|)', { a: page([], '0') })],
          [
            () => cold('a-b 2000ms |', { a: added(pod('x', '7')), b: added(pod('y', '3')) }),
            () =>
              cold('a-b-c-d 2000ms |', {
                a: added(pod('x', '7')),
                b: added(pod('y', '3')),
                c: modified(pod('x', '9')),
                d: added(pod('z', '12')),
              }),
          ],
        ),
      6_000,
    );
    expect(r.resourceVersions).toEqual(['0', '9', '12']);
    // the first watch ended with only synthetic events: the re-watch is from "0" again
    expect(r.lw.watchCalls().map((c) => c.options.resourceVersion)).toEqual(['0', '0', '12']);
    expect(r.events.filter((e) => e.event.type === 'add')).toHaveLength(5);
  });

  describe('R10: watch-list', () => {
    it('one watch with sendInitialEvents; complete at the initial-events-end bookmark (its RV is the list RV); one Replace; the same watch goes on', () => {
      const r = runOnVirtualTime(
        ({ cold }, s) =>
          scriptedListWatch<Pod>(
            s,
            [],
            [
              () =>
                cold('a-b-m-c-d-e 5000ms |', {
                  a: added(pod('a', '3')),
                  b: added(pod('b', '4')),
                  m: bookmark('5'), // a bookmark without the annotation does not end the list
                  c: bookmark('10', true),
                  d: modified(pod('a', '11')),
                  e: deleted(pod('b', '12')),
                }),
            ],
          ),
        5_000,
        { useWatchList: true },
      );
      expect(r.lw.listCalls()).toEqual([]);
      expect(r.lw.watchCalls().map((c) => c.options)).toEqual([
        {
          resourceVersion: '',
          resourceVersionMatch: 'NotOlderThan',
          sendInitialEvents: true,
          allowWatchBookmarks: true,
          timeoutSeconds: 300,
        },
      ]);
      expect(r.events.map((e) => e.event)).toEqual([
        { type: 'replace', items: [pod('a', '3'), pod('b', '4')], resourceVersion: '10' },
        { type: 'update', object: pod('a', '11') },
        { type: 'delete', object: pod('b', '12') },
      ]);
      expect(r.resourceVersions).toEqual(['10', '11', '12']);
      expect(r.statuses.map((s) => s.status.state)).toEqual(['idle', 'watchListing', 'watching', 'idle']);
    });

    it('a watch that ends before the bookmark starts over', () => {
      const r = runOnVirtualTime(
        ({ cold }, s) =>
          scriptedListWatch<Pod>(
            s,
            [],
            [
              () => cold('a 2000ms |', { a: added(pod('a', '3')) }),
              () => cold('a-c', { a: added(pod('b', '4')), c: bookmark('10', true) }),
            ],
          ),
        5_000,
        { useWatchList: true },
      );
      expect(r.lw.watchCalls().map((c) => (c.options as WatchOptions).sendInitialEvents)).toEqual([
        true,
        true,
      ]);
      expect(r.lw.listCalls()).toEqual([]);
      expect(r.events.map((e) => e.event)).toEqual([
        { type: 'replace', items: [pod('b', '4')], resourceVersion: '10' },
      ]);
    });

    it('429 backs off and starts the streaming list over; a relist after 410 streams again from the last RV, then from "" if that is expired', () => {
      const r = runOnVirtualTime(
        ({ cold }, s) =>
          scriptedListWatch<Pod>(
            s,
            [],
            [
              () => cold('#', {}, apiError(429, 'TooManyRequests', 2)),
              () =>
                cold('a-c 2000ms (e|)', {
                  a: added(pod('a', '3')),
                  c: bookmark('10', true),
                  e: errorEvent(410, 'Expired'),
                }),
              () => cold('(e|)', { e: errorEvent(410, 'Expired') }),
              () => cold('c', { c: bookmark('20', true) }),
            ],
          ),
        10_000,
        { useWatchList: true },
      );
      expect(r.lw.listCalls()).toEqual([]);
      expect(r.lw.watchCalls().map((c) => `${c.options.resourceVersion}@${c.at}`)).toEqual([
        '@0', // first streaming list, 429 with Retry-After 2 s
        '@2000', // started over after max(800 ms, 2 s)
        '10@5603', // 410 at 4003 ends this ListAndWatch; one backoff step (1600 ms); streams from "10"
        '@5603', // "10" expired: at once from ""
      ]);
      expect(r.events.map((e) => e.event)).toEqual([
        { type: 'replace', items: [pod('a', '3')], resourceVersion: '10' },
        { type: 'replace', items: [], resourceVersion: '20' },
      ]);
      expect(r.errors.map((e) => e.error.action)).toEqual(['restartWatchList', 'relist', 'restartWatchList']);
    });

    it('a streaming list closed within 1 s with no events falls back to list+watch', () => {
      const r = runOnVirtualTime(
        ({ cold }, s) =>
          scriptedListWatch<Pod>(s, [() => cold('(a|)', { a: page([], '10') })], [() => cold('500ms |')]),
        5_000,
        { useWatchList: true },
      );
      expect(r.lw.calls.map((c) => c.op)).toEqual(['watch', 'list', 'watch']);
      expect(r.errors.map((e) => [(e.error.cause as WatchEndedError).kind, e.error.action])).toEqual([
        ['veryShort', 'fallbackToList'],
      ]);
    });

    it('an error (the server refuses with 422, or an ERROR event) falls back to list+watch', () => {
      for (const refuse of ['http', 'event'] as const) {
        const r = runOnVirtualTime(
          ({ cold }, s) =>
            scriptedListWatch<Pod>(
              s,
              [() => cold('(a|)', { a: page([pod('a', '3')], '10') })],
              [
                () =>
                  refuse === 'http'
                    ? cold('#', {}, apiError(422, 'Invalid'))
                    : cold('a-(e|)', { a: added(pod('a', '3')), e: errorEvent(500, 'InternalError') }),
              ],
            ),
          5_000,
          { useWatchList: true },
        );
        expect(r.lw.calls.map((c) => c.op)).toEqual(['watch', 'list', 'watch']);
        expect(r.lw.watchCalls()[1].options).toEqual({
          resourceVersion: '10',
          allowWatchBookmarks: true,
          timeoutSeconds: 300,
        });
        expect(r.events.map((e) => e.event)).toEqual([
          { type: 'replace', items: [pod('a', '3')], resourceVersion: '10' },
        ]);
        expect(r.errors.map((e) => e.error.action)).toEqual(['fallbackToList']);
      }
    });
  });

  it('R11: a 500 ERROR event mid-watch relists; the Replace carries only what the server still has', () => {
    const r = runOnVirtualTime(
      ({ cold }, s) =>
        scriptedListWatch<Pod>(
          s,
          [
            () => cold('(a|)', { a: page([pod('a', '1'), pod('b', '2')], '10') }),
            () => cold('(a|)', { a: page([pod('a', '11')], '13') }),
          ],
          [() => cold('a 10ms (e|)', { a: modified(pod('a', '11')), e: errorEvent(500, 'InternalError') })],
        ),
      5_000,
    );
    expect(r.lw.calls.map((c) => `${c.op}@${c.options.resourceVersion}`)).toEqual([
      'list@0',
      'watch@10',
      'list@11',
      'watch@13',
    ]);
    expect(r.events.map((e) => e.event).at(-1)).toEqual({
      type: 'replace',
      items: [pod('a', '11')],
      resourceVersion: '13',
    });
    expect(r.errors[0].error.statusCode).toBe(500);
    expect(r.errors[0].error.action).toBe('relist');
  });

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
      expect(r.errors[0].error.message).toContain('no bytes received for 70000 ms (longer than a bookmark every 60 s plus 10 s)');
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

  it('a malformed line re-watches from the last good RV; the same RV failing twice relists', () => {
    const bad: E = {
      type: 'MALFORMED',
      line: '{"type":"ADDED",',
      error: new MalformedWatchEventError('{"type":"ADDED",', 'bad JSON'),
    };
    const r = runOnVirtualTime(
      ({ cold }, s) =>
        scriptedListWatch<Pod>(
          s,
          [() => cold('(a|)', { a: page([], '10') }), () => cold('(a|)', { a: page([], '20') })],
          [() => cold('a-b', { a: added(pod('a', '11')), b: bad }), () => cold('b', { b: bad })],
        ),
      10_000,
    );
    expect(r.lw.calls.map((c) => `${c.op}@${c.options.resourceVersion}`)).toEqual([
      'list@0',
      'watch@10',
      'watch@11',
      'list@11',
      'watch@20',
    ]);
    expect(r.errors.map((e) => e.error.action)).toEqual(['rewatch', 'relist']);
  });

  it('401 and 403 are reported to errors$ and the watch error handler, and retried with a growing backoff, never in a hot loop', () => {
    const r = runOnVirtualTime(
      ({ cold }, s) =>
        scriptedListWatch<Pod>(
          s,
          [
            () => cold('#', {}, apiError(401, 'Unauthorized')),
            () => cold('#', {}, apiError(403, 'Forbidden')),
            () => cold('#', {}, apiError(403, 'Forbidden')),
            () => cold('(a|)', { a: page([], '10') }),
          ],
          // 403 on the watch 5 s later: the step after 3200 ms is 6400 ms
          [() => cold('5000ms #', {}, apiError(403, 'Forbidden'))],
        ),
      30_000,
    );
    expect(r.lw.calls.map((c) => `${c.op}@${c.at}`)).toEqual([
      'list@0',
      'list@800',
      'list@2400',
      'list@5600',
      'watch@5600',
      'list@17000',
    ]);
    expect(r.errors.map((e) => e.error.statusCode)).toEqual([401, 403, 403, 403]);
    expect(r.handled).toEqual(r.errors.map((e) => e.error));
    expect(r.errors[0].error.message).toMatch(/list failed .*401.*relisting after a backoff/);
  });

  it('a watch error handler that throws does not stop the reflector', () => {
    const r = runOnVirtualTime(
      ({ cold }, s) =>
        scriptedListWatch<Pod>(
          s,
          [() => cold('#', {}, apiError(500, 'InternalError')), () => cold('(a|)', { a: page([], '10') })],
          [],
        ),
      5_000,
      {
        watchErrorHandler: () => {
          throw new Error('handler bug');
        },
      },
    );
    expect(r.lw.listCalls().map((c) => c.at)).toEqual([0, 800]);
    expect(r.events.map((e) => e.event.type)).toEqual(['replace']);
    expect(r.errors).toHaveLength(1);
  });

  it('unsubscribing aborts the request in flight and every timer', () => {
    let watchAborted = false;
    const r = runOnVirtualTime(
      ({ cold }, s) =>
        scriptedListWatch<Pod>(
          s,
          [() => cold('(a|)', { a: page([], '10') })],
          [
            () =>
              new Observable<E>(() => () => {
                watchAborted = true;
              }),
          ],
        ),
      1_000,
    );
    expect(watchAborted).toBe(true);
    expect(r.statuses.at(-1)?.status).toEqual({ state: 'idle' });
  });
});

describe('reflector marble diagrams', () => {
  const newScheduler = () => new TestScheduler((a, e) => expect(a).toEqual(e));
  const letter: Record<ReflectorStatus['state'], string> = {
    idle: 'i',
    listing: 'l',
    watchListing: 'v',
    watching: 'w',
    backingOff: 'b',
  };

  it('R7: two failed lists back off 800 ms then 1600 ms; the replace comes at 2400 ms', () => {
    const ts = newScheduler();
    ts.run(({ cold, expectObservable }) => {
      const fail = () => cold<ListPage<Pod>>('#', {}, apiError(500, 'InternalError'));
      const lw = scriptedListWatch<Pod>(
        ts,
        [fail, fail, () => cold('(a|)', { a: page([pod('a', '1')], '10') })],
        [],
      );
      const r = reflector<Pod>(lw, { scheduler: ts, random: () => 0 });
      expectObservable(r.status$.pipe(map((s) => letter[s.state])), '^ 4000ms !').toBe(
        '(ilb) 795ms (lb) 1596ms (lw) 597ms i',
      );
      expectObservable(r.events$, '^ 3000ms !').toBe('2400ms r', {
        r: { type: 'replace', items: [pod('a', '1')], resourceVersion: '10' },
      });
    });
  });

  it('R5 + R8: a clean close re-watches at once from the last event RV; events flow on', () => {
    const ts = newScheduler();
    ts.run(({ cold, expectObservable }) => {
      const lw = scriptedListWatch<Pod>(
        ts,
        [() => cold('(a|)', { a: page([], '10') })],
        [
          (o) => cold('1s a 999ms |', { a: added(pod('x', String(Number(o.resourceVersion) + 1))) }),
          (o) => cold('1s a', { a: modified(pod('x', String(Number(o.resourceVersion) + 1))) }),
        ],
      );
      const r = reflector<Pod>(lw, { scheduler: ts, random: () => 0 });
      expectObservable(r.events$, '^ 5s !').toBe('r 999ms a 1999ms u', {
        r: { type: 'replace', items: [], resourceVersion: '10' },
        a: { type: 'add', object: pod('x', '11') },
        u: { type: 'update', object: pod('x', '12') },
      });
    });
  });

  it('R12: with bookmarks expected, a dead watch is replaced after bookmark interval + grace of silence plus one backoff step', () => {
    const ts = newScheduler();
    ts.run(({ cold, expectObservable }) => {
      const lw = scriptedListWatch<Pod>(
        ts,
        [() => cold('(a|)', { a: page([], '10') })],
        [() => cold('a', { a: added(pod('x', '11')) }), () => cold('a', { a: modified(pod('x', '12')) })],
      );
      const r = reflector<Pod>(lw, { scheduler: ts, random: () => 0, deadWatchGraceSeconds: 10 });
      // 60 s bookmark interval + 10 s grace = 70 s of silence; then 800 ms of backoff
      expectObservable(r.events$, '^ 100s !').toBe('(ra) 70796ms u', {
        r: { type: 'replace', items: [], resourceVersion: '10' },
        a: { type: 'add', object: pod('x', '11') },
        u: { type: 'update', object: pod('x', '12') },
      });
    });
  });

  it('R12: without bookmarks expected, a dead watch is replaced after timeoutSeconds + grace of silence plus one backoff step', () => {
    const ts = newScheduler();
    ts.run(({ cold, expectObservable }) => {
      const lw = scriptedListWatch<Pod>(
        ts,
        [() => cold('(a|)', { a: page([], '10') })],
        [() => cold('a', { a: added(pod('x', '11')) }), () => cold('a', { a: modified(pod('x', '12')) })],
      );
      const r = reflector<Pod>(lw, {
        scheduler: ts,
        random: () => 0,
        deadWatchGraceSeconds: 10,
        expectedBookmarkIntervalMs: 0,
      });
      // 300 s watch timeout + 10 s grace = 310 s of silence; then 800 ms of backoff
      expectObservable(r.events$, '^ 400s !').toBe('(ra) 310796ms u', {
        r: { type: 'replace', items: [], resourceVersion: '10' },
        a: { type: 'add', object: pod('x', '11') },
        u: { type: 'update', object: pod('x', '12') },
      });
    });
  });

  it('unsubscribing from inside an event stops everything: no further request is made', () => {
    const ts = newScheduler();
    let lw: ReturnType<typeof scriptedListWatch<Pod>> | undefined;
    ts.run(({ cold }) => {
      lw = scriptedListWatch<Pod>(ts, [() => cold('(a|)', { a: page([], '10') })], []);
      const sub: Subscription = reflector<Pod>(lw, { scheduler: ts }).events$.subscribe(() =>
        sub.unsubscribe(),
      );
    });
    expect(lw!.calls.map((c) => c.op)).toEqual(['list']);
  });

  it('a ListWatch that answers synchronously works (no stale request is left behind)', () => {
    const calls: string[] = [];
    const lw: ListWatch<Pod> = {
      list: (o) => {
        calls.push(`list@${o.resourceVersion}`);
        return o.resourceVersion === '0'
          ? of(page([pod('a', '1')], '10'))
          : throwError(() => apiError(410, 'Expired'));
      },
      watch: (o) => {
        calls.push(`watch@${o.resourceVersion}`);
        return NEVER;
      },
    };
    const events: string[] = [];
    const sub = reflector<Pod>(lw, { scheduler: queueScheduler }).events$.subscribe((e) =>
      events.push(e.type),
    );
    sub.unsubscribe();
    expect(calls).toEqual(['list@0', 'watch@10']);
    expect(events).toEqual(['replace']);
  });
});
