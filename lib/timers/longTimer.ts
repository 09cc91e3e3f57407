import { asyncScheduler, interval, Observable, repeat, timer, type SchedulerLike, type Subscription } from 'rxjs';

/**
 * The longest delay a JavaScript timer keeps: Node and browsers fire a `setTimeout` or
 * `setInterval` of more (about 24.8 days) after 1 ms instead, so RxJS's `timer` and `interval`
 * would too.
 */
export const maxTimerDelayMs = 2 ** 31 - 1;

/**
 * RxJS's `timer(delayMs, scheduler)` for any delay: emits `0` once `delayMs` have passed on
 * `scheduler`, then completes. A delay past {@link maxTimerDelayMs} (a requeue in 30 days, a
 * sync timeout of `Infinity`) is waited out in steps of at most that; `Infinity` never emits.
 * Shorter delays are exactly `timer`.
 *
 * ```
 * longTimer(30 days):  ---- 24.8 d ----|---- 5.2 d ----(0|)
 * longTimer(Infinity): -------------------------------------...
 * ```
 *
 * @internal
 * @example
 * ```ts
 * longTimer(30 * 86_400_000, scheduler).subscribe(() => renewCertificate());
 * ```
 */
export function longTimer(delayMs: number, scheduler: SchedulerLike = asyncScheduler): Observable<0> {
  if (!(delayMs > maxTimerDelayMs)) return timer(delayMs, scheduler) as Observable<0>;
  return new Observable<0>((subscriber) => {
    if (delayMs === Infinity) return undefined;
    // What is left is counted down by the steps, not read off scheduler.now(): on virtual time
    // with fractional frames that difference can stay a hair above 0 at the same instant for ever.
    let left = delayMs;
    let action: Subscription | undefined;
    const step = (): void => {
      if (left <= 0) {
        subscriber.next(0);
        subscriber.complete();
        return;
      }
      const next = Math.min(left, maxTimerDelayMs);
      left -= next;
      action = scheduler.schedule(step, next);
    };
    step();
    return () => action?.unsubscribe();
  });
}

/**
 * RxJS's `interval(periodMs, scheduler)` for any period: a tick every `periodMs` (values are not
 * counted: each is `0`). Periods past {@link maxTimerDelayMs} tick through {@link longTimer}.
 *
 * ```
 * longInterval(40 days): ---- 40 d ----0---- 40 d ----0--...
 * ```
 *
 * @internal
 * @example
 * ```ts
 * longInterval(resyncCheckPeriod, scheduler).subscribe(() => checkResync());
 * ```
 */
export function longInterval(periodMs: number, scheduler: SchedulerLike = asyncScheduler): Observable<number> {
  if (!(periodMs > maxTimerDelayMs)) return interval(periodMs, scheduler);
  return longTimer(periodMs, scheduler).pipe(repeat());
}
