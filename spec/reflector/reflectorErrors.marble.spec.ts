import { describe, expect, it } from '@jest/globals';
import { Observable } from 'rxjs';
import { MalformedWatchEventError } from '../../lib/listwatch/malformedWatchEventError.js';
import { runOnVirtualTime } from './runReflector.js';
import { apiError, page, pod, scriptedListWatch, type Pod } from './scriptedListWatch.js';
import { added, type E } from './watchEvents.js';

// Malformed lines, 401/403, a throwing watch error handler, and unsubscribing, on virtual time.
describe('reflector on virtual time: errors and teardown', () => {
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
    expect(r.errors[0].error.message).toMatch(/list failed .*401.*relisting after a backoff/);
  });

  it('a Retry-After of days (or past what a timer holds) waits 5 minutes, not days, and not 1 ms in a hot loop', () => {
    const r = runOnVirtualTime(
      ({ cold }, s) =>
        scriptedListWatch<Pod>(
          s,
          [
            () => cold('#', {}, apiError(429, 'TooManyRequests', 3_000_000)), // 34.7 days
            () => cold('#', {}, apiError(429, 'TooManyRequests', 100_000)), // 27.8 hours
            () => cold('(a|)', { a: page([], '10') }),
          ],
          [() => cold('-')],
        ),
      650_000,
    );
    expect(r.lw.calls.map((c) => `${c.op}@${c.at}`)).toEqual(['list@0', 'list@300000', 'list@600000', 'watch@600000']);
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
