import { defer, filter, first, map, merge, of, scan, type Observable, type SchedulerLike } from 'rxjs';
import { longTimer } from '../timers/longTimer.js';
import { ownWritesStep, type AwaitedWrite, type CacheReading, type OwnWritesWait } from './ownWrites.js';

/** The end of a wait for one's own writes: every write seen, or the bound passed. */
export type OwnWritesOutcome = Exclude<OwnWritesWait, { kind: 'waiting' }>;

/**
 * Options of {@link awaitOwnWrites}.
 *
 * @example
 * ```ts
 * const options: AwaitOwnWritesOptions = { read, changes$, timeoutMs: 5000, scheduler: asyncScheduler };
 * ```
 */
export interface AwaitOwnWritesOptions {
  /** Reads what the informer of a write shows now. */
  readonly read: (write: AwaitedWrite) => CacheReading;
  /** Emits when an informer has handed out a change of the object `key` (informer `cache`). */
  readonly changes$: Observable<{ readonly cache: number; readonly key: string }>;
  readonly timeoutMs: number;
  readonly scheduler: SchedulerLike;
}

/**
 * The Rx edge of {@link ownWritesStep}: checks the informers at once, again on each change of an
 * object awaited, and ends with the outcome: `caughtUp` (synchronously when nothing is left to
 * wait for) or `timedOut` after `timeoutMs`. Unsubscribing tears the timer and the change
 * subscription down.
 *
 * ```text
 * changes$:  ----x------y--------
 * timer:     ---------------T
 * result:    -----------(c|)        (y was the awaited version: caught up)
 * ```
 *
 * @example
 * ```ts
 * awaitOwnWrites(pending, { read, changes$, timeoutMs: 5000, scheduler }).subscribe((o) => runReconcile(o));
 * ```
 */
export function awaitOwnWrites(pending: ReadonlyArray<AwaitedWrite>, options: AwaitOwnWritesOptions): Observable<OwnWritesOutcome> {
  const { read, changes$, timeoutMs, scheduler } = options;
  return defer(() => {
    const start: OwnWritesWait = { kind: 'waiting', pending, since: scheduler.now() };
    const check = () => ({ type: 'check' as const, now: scheduler.now(), read });
    const relevant = (c: { cache: number; key: string }) => pending.some((w) => w.cache === c.cache && w.key === c.key);
    return merge(
      of(null).pipe(map(check)),
      changes$.pipe(filter(relevant), map(check)),
      longTimer(timeoutMs, scheduler).pipe(map(() => ({ type: 'timeout' as const, now: scheduler.now() }))),
    ).pipe(
      scan(ownWritesStep, start),
      first((s): s is OwnWritesOutcome => s.kind !== 'waiting'),
    );
  });
}
