import {
  asyncScheduler,
  Observable,
  type MonoTypeOperatorFunction,
  type SchedulerLike,
  Subscription,
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
  // One timer for the whole silence, not one per chunk: a chunk only notes the time, and a timer that
  // finds the source was heard from meanwhile waits out the rest (cancelling and re-arming a timer
  // per chunk costs more than handling a small chunk).
  return (source) =>
    new Observable<T>((subscriber) => {
      let last = scheduler.now();
      // Whether a chunk came since the timer was armed. Not `now - last < silenceMs`: on virtual
      // time with fractional frames that difference can come out a hair short of silenceMs for
      // ever, and the timer would re-arm at the same instant again and again.
      let heard = false;
      let timer: Subscription | undefined;
      const inner = new Subscription();
      const arm = (delayMs: number): void => {
        heard = false;
        timer = scheduler.schedule(() => {
          if (heard) return arm(Math.max(0, last + silenceMs - scheduler.now()));
          inner.unsubscribe(); // abort the request first, as a dead connection may never end
          subscriber.error(new WatchDeadError(silenceMs, context, expected));
        }, delayMs);
      };
      arm(silenceMs);
      inner.add(
        source.subscribe({
          next: (value) => {
            last = scheduler.now();
            heard = true;
            subscriber.next(value);
          },
          error: (err: unknown) => subscriber.error(err),
          complete: () => subscriber.complete(),
        }),
      );
      return () => {
        timer?.unsubscribe();
        inner.unsubscribe();
      };
    });
}
