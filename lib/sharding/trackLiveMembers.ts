import { asyncScheduler, Observable, type OperatorFunction, type SchedulerLike, type Subscription } from 'rxjs';
import type { Lease } from '../leaderelection/leaseLock.js';
import { longTimer } from '../timers/longTimer.js';
import { liveMembers, nextMemberExpiry, observeMembers, type MemberObservations } from './memberObservations.js';

/**
 * Snapshots of the membership Leases in, the live members out (sorted; emitted when the set
 * changes): a member joins when its Lease is seen with a holder, and drops out when its Lease has
 * not changed for its leaseDuration by this replica's own clock (a timer re-evaluates at the next
 * expiry) or when it is released or deleted.
 *
 * ```text
 * leases:  -L{a,b}----L{a',b}------------------------   b stops renewing
 * members: -[a,b]-------------------[a]-------------   b expires: its last change seen + leaseDuration
 * ```
 *
 * @example
 * ```ts
 * leaseInformer.store$.pipe(map((s) => s.list()), trackLiveMembers(scheduler)).subscribe((m) => console.log(m));
 * ```
 */
export function trackLiveMembers(scheduler: SchedulerLike = asyncScheduler): OperatorFunction<ReadonlyArray<Lease>, ReadonlyArray<string>> {
  return (source) =>
    new Observable<ReadonlyArray<string>>((subscriber) => {
      let obs: MemberObservations = new Map();
      let last: string | undefined;
      let expiry: Subscription | undefined;
      // `due`: the expiry the timer was armed for. Its time has come even when now() says a hair
      // less (fractional virtual time), else the member would stay live and the timer re-arm at
      // the same instant for ever.
      const evaluate = (due = -Infinity): void => {
        const now = Math.max(scheduler.now(), due);
        const live = liveMembers(obs, now);
        const id = live.join('\u0000');
        if (id !== last) {
          last = id;
          subscriber.next(live);
        }
        expiry?.unsubscribe();
        const at = nextMemberExpiry(obs, now);
        // longTimer: an expiry further off than a JavaScript timer holds is still waited out whole.
        expiry = at === undefined ? undefined : longTimer(at - now, scheduler).subscribe(() => evaluate(at));
      };
      const sub = source.subscribe({
        next: (leases) => {
          obs = observeMembers(obs, leases, scheduler.now());
          evaluate();
        },
        error: (e: unknown) => subscriber.error(e),
        complete: () => subscriber.complete(),
      });
      return () => {
        sub.unsubscribe();
        expiry?.unsubscribe();
      };
    });
}
