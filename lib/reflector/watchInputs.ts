import { Observable, type OperatorFunction, type SchedulerLike } from 'rxjs';
import type { WatchEvent } from '../listwatch/watchEvent.js';
import type { ReflectorInput } from './reflectorInput.js';

const watchClosed: ReflectorInput<never> = Object.freeze({ type: 'watchClosed' });

/**
 * A watch's bursts as the step's inputs (`burst` per burst, then `watchClosed` or `watchFailed`,
 * never an error), and an abort one scheduler turn after the result is unsubscribed, not at once:
 * what the watch sends meanwhile is dropped. The reflector often leaves a watch from inside the
 * stream's own callback (an ERROR event, a subscriber that unsubscribes while handling an event),
 * and aborting a response that has just ended, from within its last chunk, can surface as an
 * uncaught AbortError in Node's http client. A watch that ended by itself leaves no timer. One
 * operator rather than map, endWith, catchError and a deferred unsubscribe: it runs per burst.
 *
 * ```text
 * bursts:  -a--b--c---|          -a--#
 * inputs:  -A--B!                -A--(F|)     A = { type: 'burst', events: a }, F = watchFailed
 *                ^ unsubscribed: the abort reaches the watch one turn later; c is dropped
 * ```
 *
 * @example
 * ```ts
 * lw.watchBursts(options).pipe(watchInputs(scheduler)).subscribe((input) => step(input));
 * ```
 */
export function watchInputs<T>(
  scheduler: SchedulerLike,
): OperatorFunction<ReadonlyArray<WatchEvent<T>>, ReflectorInput<T>> {
  return (source) =>
    new Observable<ReflectorInput<T>>((subscriber) => {
      // An observer, not the subscriber itself: passing the subscriber would chain its teardown
      // to the watch's and abort at once.
      const watch = source.subscribe({
        next: (events) => subscriber.next({ type: 'burst', events }),
        error: (error: unknown) => {
          subscriber.next({ type: 'watchFailed', error });
          subscriber.complete();
        },
        complete: () => {
          subscriber.next(watchClosed);
          subscriber.complete();
        },
      });
      return () => {
        if (!watch.closed) scheduler.schedule(() => watch.unsubscribe(), 0);
      };
    });
}
