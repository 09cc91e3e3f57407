import { describe, expect, it } from '@jest/globals';
import type { WatchOptions } from '../../lib/listwatch/listWatch.js';
import { WatchEndedError } from '../../lib/reflector/reflectorError.js';
import { runOnVirtualTime } from './runReflector.js';
import { apiError, bookmark, page, pod, scriptedListWatch, type Pod } from './scriptedListWatch.js';
import { added, deleted, errorEvent, modified } from './watchEvents.js';

// R10 (watch-list) and R11 (a relist after an ERROR event), on virtual time.
describe('reflector on virtual time: watch-list and relists', () => {
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
});
