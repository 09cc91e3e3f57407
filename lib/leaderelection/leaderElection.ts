import {
  asyncScheduler,
  BehaviorSubject,
  defer,
  distinctUntilChanged,
  filter,
  firstValueFrom,
  map,
  Subject,
  timer,
  type Observable,
  type Subscription,
} from 'rxjs';
import { RxkubeError } from '../errors.js';
import { longTimer } from '../operators/longTimer.js';
import {
  electorDeadline,
  electorStep,
  isPastDeadline,
  initialElectorState,
  type ElectorCommand,
  type ElectorInput,
  type ElectorState,
} from './electorStep.js';
import { JITTER_FACTOR, validateLeaderElectionConfig, type LeaderElectionConfig } from './leaderElectionConfig.js';
import { LeaderElectionError, LeaseConflictError } from './leaderElectionErrors.js';
import type { VersionedRecord } from './leaderElectionRecord.js';

/**
 * A running elector (client-go's `LeaderElector`): leadership as Observables, started with
 * `start()` (client-go's `Run`) and stopped with `stop()` (cancelling Run's context). One-shot, as
 * in client-go: a stopped elector stays stopped; make a new one to run again. Unlike client-go's
 * Run, losing leadership does not end it: it goes back to being a candidate.
 *
 * @example
 * ```ts
 * const elector = leaderElection({ lock: leaseLock(kc, 'default', 'my-controller'), identity: 'pod-a' });
 * elector.leading$.subscribe((leading) => console.log(leading ? 'leading' : 'standing by'));
 * elector.start();
 * process.on('SIGTERM', () => void elector.stop());
 * ```
 */
export interface LeaderElector {
  readonly identity: string;
  /** The elector's state (replays the current one); completes when stopped. */
  readonly state$: Observable<ElectorState>;
  /** Leading or not, over time (replays the current value, then changes only); completes when stopped. */
  readonly leading$: Observable<boolean>;
  /** The holder it last observed (`''`: nobody), over time; completes when stopped. */
  readonly leader$: Observable<string>;
  /** Failed attempts (not lost races) and throwing callbacks: reported, then retried or skipped. */
  readonly errors$: Observable<RxkubeError>;
  isLeader(): boolean;
  /** The holder it last observed, `''` when none. */
  getLeader(): string;
  /** Starts trying to acquire (idempotent; a no-op once stopped). */
  start(): void;
  /**
   * Stops: gives up leadership (with `releaseOnCancel`, first writes the empty holder, bounded by
   * renewDeadline). Resolves once stopped.
   */
  stop(): Promise<void>;
}

/**
 * Lease-based leader election with client-go's semantics (see docs/ha.md): acquire when the lock is
 * absent, expired by this elector's own observation time, or held by itself; renew every
 * retryPeriod; give up when no renewal succeeded within renewDeadline; every write conditional on
 * the resource version read (a 409 is a lost race); leaseTransitions, acquireTime, renewTime kept as
 * client-go keeps them; candidates retry after retryPeriod x [1, 2.2); `releaseOnCancel` writes an
 * empty holder on stop. The decisions are the pure {@link electorStep}; this runs its commands
 * against the lock and the scheduler.
 *
 * @throws {LeaderElectionConfigError} when the timings or identity are invalid.
 *
 * @example
 * ```ts
 * const elector = leaderElection({
 *   lock: leaseLock(kubeConfig, 'kube-system', 'my-controller'),
 *   identity: process.env.POD_NAME ?? 'local',
 *   leaseDuration: 15_000, renewDeadline: 10_000, retryPeriod: 2_000,
 *   releaseOnCancel: true,
 *   onStartedLeading: () => console.log('started leading'),
 *   onStoppedLeading: () => console.log('stopped leading'),
 * });
 * elector.start();
 * ```
 */
export function leaderElection(config: LeaderElectionConfig): LeaderElector {
  const t = validateLeaderElectionConfig(config);
  const scheduler = config.scheduler ?? asyncScheduler;
  const random = config.random ?? Math.random;
  const lock = config.lock;
  const state$ = new BehaviorSubject<ElectorState>(initialElectorState());
  const errors$ = new Subject<RxkubeError>();
  let pending: Subscription | undefined;
  let generation = 0;
  let deadline: { at: number; sub: Subscription } | undefined;
  let started = false;
  let reportedLeader = '';
  let term: AbortController | undefined;

  const callback = (name: string, fn: () => void): void => {
    try {
      fn();
    } catch (e) {
      errors$.next(new LeaderElectionError(lock.describe(), name, e));
    }
  };

  const commit = (prev: ElectorState, next: ElectorState): void => {
    state$.next(next);
    const holder = next.observed.record?.holderIdentity ?? '';
    if (holder !== reportedLeader) {
      reportedLeader = holder;
      callback('onNewLeader', () => config.onNewLeader?.(holder));
    }
    const was = prev.phase === 'leading';
    const is = next.phase === 'leading';
    if (!was && is) {
      term = new AbortController();
      const signal = checkedOnRead(term.signal, expireIfPast);
      callback('onStartedLeading', () => config.onStartedLeading?.(signal));
    } else if (was && !is) {
      term?.abort();
      callback('onStoppedLeading', () => config.onStoppedLeading?.());
    }
    scheduleDeadline(next);
    if (next.phase === 'stopped') {
      state$.complete();
      errors$.complete();
    }
  };

  const scheduleDeadline = (s: ElectorState): void => {
    const at = electorDeadline(s, t);
    if (at === deadline?.at) return;
    deadline?.sub.unsubscribe();
    // When the timer fires, `at` has come, even if the clock says a hair less (fractional virtual
    // time, a wall clock behind the timers' monotonic one): with now() the step could find the
    // deadline not yet passed, and nothing would arm it again.
    deadline =
      at === undefined
        ? undefined
        : {
            at,
            sub: longTimer(Math.max(0, at - scheduler.now()), scheduler).subscribe(() => {
              deadline = undefined;
              dispatch({ type: 'deadline', now: Math.max(scheduler.now(), at) });
            }),
          };
  };

  const apply = (input: ElectorInput): void => {
    const prev = state$.value;
    if (prev.phase === 'stopped') return;
    const { state, command } = electorStep(prev, input, t);
    // Whatever was in flight is superseded (at a deadline: abandoned, its request aborted).
    const old = pending;
    pending = undefined;
    old?.unsubscribe();
    commit(prev, state);
    run(command, state);
  };

  // Inputs that arrive while one is being applied (a leading$ subscriber or a callback that calls
  // stop(), a lock that answers synchronously) wait for it to finish: applied in the middle of a
  // commit, a stop would be followed by the rest of the older transition (its onStartedLeading, a
  // renew deadline armed for a stopped elector).
  const queued: ElectorInput[] = [];
  let applying = false;
  const dispatch = (input: ElectorInput): void => {
    queued.push(input);
    if (applying) return;
    applying = true;
    try {
      for (let next = queued.shift(); next !== undefined; next = queued.shift()) apply(next);
    } finally {
      applying = false;
      queued.length = 0;
    }
  };

  const run = (command: ElectorCommand, state: ElectorState): void => {
    const mine = ++generation;
    const current = (): boolean => mine === generation;
    const operation = state.phase === 'releasing' ? 'release' : command.type;
    const fail = (e: unknown): void => {
      if (!current()) return;
      const conflict = e instanceof LeaseConflictError;
      if (!conflict) errors$.next(new LeaderElectionError(lock.describe(), operation, e));
      dispatch({ type: 'failed', now: scheduler.now(), conflict });
    };
    let sub: Subscription | undefined;
    switch (command.type) {
      case 'none':
        return;
      case 'wait': {
        const ms = command.jitter ? command.ms + random() * JITTER_FACTOR * command.ms : command.ms;
        sub = timer(ms, scheduler).subscribe(() => current() && dispatch({ type: 'tick', now: scheduler.now() }));
        break;
      }
      case 'get':
        // defer: a lock that throws instead of erroring fails this attempt, not the timer that ran it.
        sub = defer(() => lock.get()).subscribe({
          next: (lease) => current() && dispatch({ type: 'got', now: scheduler.now(), lease }),
          error: fail,
        });
        break;
      case 'create':
      case 'update': {
        const write$: Observable<VersionedRecord> = defer(() =>
          command.type === 'create' ? lock.create(command.record) : lock.update(command.record, command.resourceVersion),
        );
        sub = write$.subscribe({ next: (lease) => current() && dispatch({ type: 'wrote', now: scheduler.now(), lease }), error: fail });
        break;
      }
    }
    // A lock that answers synchronously has already moved the elector on.
    if (current()) pending = sub;
  };

  // A leader paused past its renew deadline (SIGSTOP, a long GC, a blocked event loop) learns it
  // from the clock on its first read, not from a timer that may run after other callbacks.
  function expireIfPast(): void {
    const s = state$.value;
    const now = scheduler.now();
    if (isPastDeadline(s, now, t)) dispatch({ type: 'deadline', now });
  }

  const leading$ = state$.pipe(
    map((s) => s.phase === 'leading'),
    distinctUntilChanged(),
  );
  return {
    identity: t.identity,
    state$: state$.asObservable(),
    leading$,
    leader$: state$.pipe(
      map((s) => s.observed.record?.holderIdentity ?? ''),
      distinctUntilChanged(),
    ),
    errors$: errors$.asObservable(),
    isLeader: () => {
      expireIfPast();
      const s = state$.value;
      return s.phase === 'leading' && !isPastDeadline(s, scheduler.now(), t);
    },
    getLeader: () => state$.value.observed.record?.holderIdentity ?? '',
    start() {
      if (started || state$.value.phase === 'stopped') return;
      started = true;
      dispatch({ type: 'tick', now: scheduler.now() });
    },
    stop() {
      if (state$.value.phase === 'stopped') return Promise.resolve();
      const done = firstValueFrom(state$.pipe(filter((s) => s.phase === 'stopped')), { defaultValue: undefined }).then(() => undefined);
      dispatch({ type: 'stop', now: scheduler.now() });
      return done;
    },
  };
}

/**
 * The term's signal, with `aborted` and `throwIfAborted()` checking the clock first (`check` aborts
 * the term when the renew deadline has passed), so that code gated on the signal stops as soon as
 * a paused process reads it. Left as it is where AbortSignal's `aborted` is not a prototype getter.
 */
function checkedOnRead(signal: AbortSignal, check: () => void): AbortSignal {
  const aborted = Object.getOwnPropertyDescriptor(AbortSignal.prototype, 'aborted')?.get;
  const throwIfAborted = AbortSignal.prototype.throwIfAborted;
  if (aborted === undefined) return signal;
  Object.defineProperty(signal, 'aborted', {
    configurable: true,
    get: () => {
      check();
      return aborted.call(signal) as boolean;
    },
  });
  if (typeof throwIfAborted === 'function') {
    Object.defineProperty(signal, 'throwIfAborted', {
      configurable: true,
      value: () => {
        check();
        throwIfAborted.call(signal);
      },
    });
  }
  return signal;
}
