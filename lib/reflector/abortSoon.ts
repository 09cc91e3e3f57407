import { Observable, type MonoTypeOperatorFunction, type SchedulerLike } from 'rxjs';

/**
 * Unsubscribes from the source one scheduler turn after the result is unsubscribed, not at once;
 * what the source sends meanwhile is dropped. For watches: the reflector often leaves a watch from
 * inside the stream's own callback (an ERROR event, a subscriber that unsubscribes while handling
 * an event), and aborting a response that has just ended, from within its last chunk, can surface
 * as an uncaught AbortError in Node's http client. A source that ended by itself leaves no timer.
 *
 * ```text
 * source:   -a-b-c---      (the abort reaches it one turn after the unsubscribe)
 * result:   -a-b!          ! = unsubscribed; c is dropped
 * ```
 *
 * @example
 * ```ts
 * lw.watchBursts(options).pipe(abortSoon(scheduler), takeWhile(notEnded, true));
 * ```
 */
export function abortSoon<T>(scheduler: SchedulerLike): MonoTypeOperatorFunction<T> {
  return (source) =>
    new Observable<T>((subscriber) => {
      // An observer, not the subscriber itself: passing the subscriber would chain its teardown
      // to the source's and abort at once.
      const inner = source.subscribe({
        next: (value) => subscriber.next(value),
        error: (err: unknown) => subscriber.error(err),
        complete: () => subscriber.complete(),
      });
      return () => {
        if (!inner.closed) scheduler.schedule(() => inner.unsubscribe(), 0);
      };
    });
}
