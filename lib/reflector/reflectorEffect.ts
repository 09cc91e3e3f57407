import { catchError, defer, map, of, timer, type Observable, type SchedulerLike } from 'rxjs';
import { detectDeadWatch } from '../listwatch/detectDeadWatch.js';
import type { ListWatch } from '../listwatch/listWatch.js';
import type { WatchEvent } from '../listwatch/watchEvent.js';
import { listAll, type ListResult } from './listAll.js';
import type { ReflectorInput } from './reflectorInput.js';
import type { ReflectorState, WatchRequest } from './reflectorState.js';
import { watchInputs } from './watchInputs.js';

const timerFired: ReflectorInput<never> = Object.freeze({ type: 'timerFired' });

/**
 * The I/O a phase needs, as a cold Observable of the inputs it yields for the step: `listing` lists
 * (all pages), `watching` watches in bursts through rxkube's one dead-watch mechanism
 * ({@link detectDeadWatch}), `backingOff` is a timer on the injected scheduler. Errors become
 * inputs; the Observable never errors. Unsubscribing aborts it (a watch one turn later: {@link watchInputs}).
 *
 * ```text
 * listing:    listAll ----R|          -> (listed R)|   or  (listFailed e)|
 * watching:   bursts  -[a,b]--[c]--|  -> -burst--burst--(watchClosed|)   or  (watchFailed e)|
 * backingOff: timer(delayMs)   ---x|  -> ---(timerFired|)
 * ```
 *
 * @example
 * ```ts
 * reflectorEffect(lw, state, 'Pod', asyncScheduler).subscribe((input) => (state = reflectorStep(state, input, ctx).state));
 * ```
 */
export function reflectorEffect<T>(
  lw: ListWatch<T>,
  state: ReflectorState<T>,
  typeName: string,
  scheduler: SchedulerLike,
): Observable<ReflectorInput<T>> {
  switch (state.phase) {
    case 'listing':
      return listAll(lw, state.options).pipe(
        map((result: ListResult<T>): ReflectorInput<T> => ({ type: 'listed', result })),
        catchError((error: unknown) => of<ReflectorInput<T>>({ type: 'listFailed', error })),
      );
    case 'watching':
      return watchEffect(lw, state.request, typeName, scheduler);
    case 'backingOff':
      return timer(state.delayMs, scheduler).pipe(map(() => timerFired));
  }
}

function watchEffect<T>(
  lw: ListWatch<T>,
  request: WatchRequest,
  typeName: string,
  scheduler: SchedulerLike,
): Observable<ReflectorInput<T>> {
  // defer: a ListWatch that throws instead of returning an Observable fails this watch, no more.
  const bursts$ = defer((): Observable<ReadonlyArray<WatchEvent<T>>> =>
    lw.watchBursts
      ? lw.watchBursts(request.options)
      : lw.watch(request.options).pipe(map((event) => [event])),
  );
  // Dead-connection detection (R12): silence between bursts longer than the bound (a bookmark
  // interval, or the watch timeout, plus the grace) errors with WatchDeadError and aborts the request.
  return bursts$.pipe(
    detectDeadWatch(request.silenceMs, scheduler, `${typeName} watch`, request.expected),
    watchInputs(scheduler),
  );
}
