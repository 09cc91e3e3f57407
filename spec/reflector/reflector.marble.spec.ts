import { describe, expect, it } from '@jest/globals';
import { concat, defer, throwError } from 'rxjs';
import { WatchEndedError } from '../../lib/reflector/reflectorError.js';
import { runOnVirtualTime } from './runReflector.js';
import { apiError, bookmark, page, pod, scriptedListWatch, type Pod } from './scriptedListWatch.js';
import { added, deleted, errorEvent, modified } from './watchEvents.js';

// The reflector on virtual time, R1-R9: lists, watches, relists, backoff, resource versions.
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
});
