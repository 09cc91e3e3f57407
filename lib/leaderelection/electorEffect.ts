import { catchError, defer, map, merge, NEVER, of, timer, type Observable, type SchedulerLike, type Subject } from 'rxjs';
import type { RxkubeError } from '../errors.js';
import { longTimer } from '../timers/longTimer.js';
import { electorDeadline, type ElectorCommand, type ElectorInput, type ElectorState } from './electorStep.js';
import { JITTER_FACTOR, type ElectorTimings } from './leaderElectionConfig.js';
import { LeaderElectionError, LeaseConflictError } from './leaderElectionErrors.js';
import type { ResourceLock } from './resourceLock.js';

/**
 * What an elector's effects need: the lock, the clock and timers, the jitter's random source, and
 * where failed attempts are reported.
 *
 * @internal
 * @example
 * ```ts
 * const env: ElectorEnv = { lock, scheduler: asyncScheduler, random: Math.random, timings, errors };
 * ```
 */
export interface ElectorEnv {
  readonly lock: ResourceLock;
  readonly scheduler: SchedulerLike;
  readonly random: () => number;
  readonly timings: ElectorTimings;
  readonly errors: Subject<RxkubeError>;
}

/**
 * The I/O of one elector transition as a cold Observable of the inputs it produces: its command
 * (a lock call answering `got` / `wrote` / `failed`, or a retry timer's `tick`) raced with the
 * state's deadline (the renew or release deadline: `deadline`). The edge takes the first input
 * and unsubscribes the rest, which aborts a request in flight or cancels a timer.
 *
 * ```text
 * command get     ----got|           (or ----failed| : a 409 is a lost race, anything else reported)
 * command wait    -------tick|       (retryPeriod, jittered x [1, 2.2) while not leading)
 * deadline        ----------------deadline|
 * ```
 *
 * @internal
 * @example
 * ```ts
 * electorEffect(transition.command, transition.state, env).pipe(take(1)).subscribe(feedTheStep);
 * ```
 */
export function electorEffect(command: ElectorCommand, state: ElectorState, env: ElectorEnv): Observable<ElectorInput> {
  const { scheduler, timings } = env;
  const at = electorDeadline(state, timings);
  // When the deadline timer fires, `at` has come, even if the clock says a hair less (fractional
  // virtual time, a wall clock behind the timers' monotonic one).
  const deadline$: Observable<ElectorInput> =
    at === undefined
      ? NEVER
      : longTimer(Math.max(0, at - scheduler.now()), scheduler).pipe(map(() => ({ type: 'deadline', now: Math.max(scheduler.now(), at) })));
  return merge(commandEffect(command, state, env), deadline$);
}

function commandEffect(command: ElectorCommand, state: ElectorState, env: ElectorEnv): Observable<ElectorInput> {
  const { lock, scheduler, random } = env;
  const operation = state.phase === 'releasing' ? 'release' : command.type;
  // A failed call is one input; anything but a lost race is reported first.
  const failed = catchError<ElectorInput, Observable<ElectorInput>>((e: unknown) => {
    const conflict = e instanceof LeaseConflictError;
    if (!conflict) env.errors.next(new LeaderElectionError(lock.describe(), operation, e));
    return of({ type: 'failed', now: scheduler.now(), conflict });
  });
  switch (command.type) {
    case 'none':
      return NEVER;
    case 'wait': {
      const ms = command.jitter ? command.ms + random() * JITTER_FACTOR * command.ms : command.ms;
      return timer(ms, scheduler).pipe(map(() => ({ type: 'tick', now: scheduler.now() })));
    }
    case 'get':
      // defer: a lock that throws instead of erroring fails this attempt, not the edge.
      return defer(() => lock.get()).pipe(
        map((lease): ElectorInput => ({ type: 'got', now: scheduler.now(), lease })),
        failed,
      );
    case 'create':
    case 'update':
      return defer(() => (command.type === 'create' ? lock.create(command.record) : lock.update(command.record, command.resourceVersion))).pipe(
        map((lease): ElectorInput => ({ type: 'wrote', now: scheduler.now(), lease })),
        failed,
      );
  }
}
