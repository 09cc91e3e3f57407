import { asyncScheduler, concat, concatMap, defer, EMPTY, from, map, NEVER, of, timer, type Observable, type SchedulerLike } from 'rxjs';
import type { Status } from '../../errors.js';
import type { ListOptions, ListPage, ListWatch, WatchOptions } from '../../listwatch/listWatch.js';
import { MalformedWatchEventError } from '../../listwatch/malformedWatchEventError.js';
import type { WatchEvent } from '../../listwatch/watchEvent.js';
import type { RecordedTraffic, Recording } from './recording.js';
import { indexAtTime, indexOfResourceVersion, stateAfter, streamEntries, streamIndex, type StreamRef } from './timeline.js';

/**
 * Options of {@link replayListWatch}.
 *
 * @example
 * ```ts
 * const options: ReplayListWatchOptions = { stream: pods, scheduler: testScheduler };
 * ```
 */
export interface ReplayListWatchOptions {
  /** Which stream of the recording (index or resource). Default 0, the first. */
  readonly stream?: StreamRef;
  /** The clock the recorded times are played on. Default `asyncScheduler` (inside `TestScheduler.run`, virtual time). */
  readonly scheduler?: SchedulerLike;
}

const EXPIRED: Status = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'too old resource version (the recording relisted here)', reason: 'Expired', code: 410 };

/**
 * A {@link ListWatch} that gives a recording back on a scheduler's clock, so a bug seen on a real
 * cluster becomes a deterministic (marble) test. Time 0 is the first `list` or `watch` call.
 *
 * - `list()` answers, at the recording's time (not before its first list), the state the
 *   recording shows then: its last list with the events after it applied, as one page.
 * - `watch({ resourceVersion })` plays the events recorded after that resourceVersion, each at its
 *   recorded time (at once if that time has passed). It ends after a recorded `ERROR` event (the
 *   server closes the stream then), with a 410 `ERROR` where the recording relisted for another
 *   reason, and otherwise stays open after the last event, as a quiet watch does.
 *
 * @example
 * ```ts
 * const rec = await readRecording('incident.jsonl');
 * const ts = new TestScheduler((a, e) => expect(a).toEqual(e));
 * ts.run(({ flush }) => {
 *   const inf = informer(replayListWatch<V1Pod>(rec, { stream: builtInResources.pods }));
 *   inf.start();
 *   ts.schedule(() => void inf.stop(), replaySettleTime(rec, { stream: builtInResources.pods })); // its timers never run out
 *   flush();
 *   expect(inf.listKeys()).toEqual(['shop/a', 'shop/b']);
 * });
 * ```
 */
export function replayListWatch<T>(recording: Recording, options: ReplayListWatchOptions = {}): ListWatch<T> {
  const scheduler = options.scheduler ?? asyncScheduler;
  const entries = streamEntries(recording, streamIndex(recording, options.stream ?? 0));
  const firstList = entries.findIndex((e) => e.type === 'list');
  let origin: number | undefined;
  const elapsed = () => scheduler.now() - (origin ??= scheduler.now());
  const at = (e: RecordedTraffic) => Math.max(0, e.t - elapsed());

  const toEvent = (e: Extract<RecordedTraffic, { type: 'event' }>): WatchEvent<T> =>
    e.event.type === 'MALFORMED'
      ? { type: 'MALFORMED', line: e.event.line, error: new MalformedWatchEventError(e.event.line, 'recorded as malformed') }
      : e.event.type === 'ERROR'
        ? { type: 'ERROR', object: e.event.object as Status }
        : { type: e.event.type, object: e.event.object as T };

  return {
    list(_options: ListOptions): Observable<ListPage<T>> {
      return defer(() => {
        if (firstList < 0) return NEVER; // nothing was ever listed: a list that never answers
        return timer(at(entries[firstList]), scheduler).pipe(
          map(() => {
            const { items, resourceVersion } = stateAfter(entries, Math.max(firstList, indexAtTime(entries, elapsed())));
            return { items: items as T[], resourceVersion, continue: '' };
          }),
        );
      });
    },
    watch(watchOptions: WatchOptions): Observable<WatchEvent<T>> {
      return defer(() => {
        const rv = watchOptions.resourceVersion;
        const known = rv && rv !== '0' ? indexOfResourceVersion(entries, rv) : undefined;
        const start = known ?? Math.max(firstList, indexAtTime(entries, elapsed()));
        const rest = entries.slice(start + 1);
        const stop = rest.findIndex((e) => e.type === 'list' || (e.type === 'event' && e.event.type === 'ERROR'));
        const played = stop < 0 ? rest : rest.slice(0, stop + 1);
        const events$ = from(played).pipe(
          concatMap((e) =>
            timer(at(e), scheduler).pipe(
              concatMap((): Observable<WatchEvent<T>> => (e.type === 'list' ? of({ type: 'ERROR', object: EXPIRED }) : of(toEvent(e)))),
            ),
          ),
        );
        return concat(events$, stop < 0 ? NEVER : EMPTY);
      });
    },
  };
}
