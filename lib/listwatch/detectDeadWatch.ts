import {
  asyncScheduler,
  type Observable,
  throwError,
  timeout,
  type MonoTypeOperatorFunction,
  type SchedulerLike,
} from 'rxjs';
import { WatchDeadError } from './watchDeadError.js';

/**
 * Declares a watch dead when its source (the response body's chunks) is silent for `silenceMs`:
 * the timer starts at subscription and restarts at every chunk; when it fires the source is
 * unsubscribed (aborting the request) and the result errors with a {@link WatchDeadError}. Use a
 * silence longer than the server-side `timeoutSeconds` (the server ends the watch by then), so only
 * a dead connection trips it (R12). rxkube's one dead-watch mechanism: the reflector applies it to
 * every watch (per burst, with a bound that knows of bookmarks); `listWatch` only when given a
 * `deadWatchMarginMs`. `expected` says in the message what silence was allowed.
 *
 * ```
 * chunks:  -a--b------------      silenceMs = 5 frames
 * result:  -a--b----#             # = WatchDeadError, source unsubscribed
 * ```
 *
 * @example
 * ```ts
 * body$.pipe(detectDeadWatch((300 + 30) * 1000, scheduler), decodeWatchEvents<V1Pod>());
 * ```
 */
export function detectDeadWatch<T>(
  silenceMs: number,
  scheduler: SchedulerLike = asyncScheduler,
  context?: string,
  expected?: string,
): MonoTypeOperatorFunction<T> {
  return timeout<T, Observable<never>, undefined>({
    each: silenceMs,
    scheduler,
    with: () => throwError(() => new WatchDeadError(silenceMs, context, expected)),
  });
}
