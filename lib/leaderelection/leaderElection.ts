import {
  asyncScheduler,
  BehaviorSubject,
  defer,
  distinctUntilChanged,
  EMPTY,
  expand,
  filter,
  firstValueFrom,
  map,
  merge,
  of,
  Subject,
  take,
  tap,
  type Observable,
} from 'rxjs';
import { declareParts } from '../rbac/permission.js';
import { RxkubeError } from '../errors.js';
import { errorLogger } from '../logging/errorLogger.js';
import { electorEffect, type ElectorEnv } from './electorEffect.js';
import {
  electorStep,
  isPastDeadline,
  initialElectorState,
  type ElectorInput,
  type ElectorState,
  type ElectorTransition,
} from './electorStep.js';
import { validateLeaderElectionConfig, type LeaderElectionConfig } from './leaderElectionConfig.js';
import { LeaderElectionError } from './leaderElectionErrors.js';
import { lifetimeOf } from '../meta/lifetime.js';

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
  /** The lease duration it runs with (ms): others take over this long after its last renewal. */
  readonly leaseDuration: number;
  /** The lock's `namespace/name`, for messages. */
  readonly lockName: string;
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
 * empty holder on stop. The decisions are the pure {@link electorStep} over a state union; this is
 * its edge, as the reflector's: `expand` runs each transition's effect ({@link electorEffect}: a
 * lock call or a timer, raced with the deadline and with `stop()`) until its first input, which
 * the step turns into the next transition; the state, callbacks and term signal are committed in
 * between. Failed attempts are on `errors$`, logged by its one default subscriber (`logger`).
 *
 * @throws {ConfigError} (option `leaseDuration`, `identity`, ...) when the timings or identity are invalid.
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
  const lock = config.lock;
  const state$ = new BehaviorSubject<ElectorState>(initialElectorState());
  const errors$ = new Subject<RxkubeError>();
  // The log is one subscriber of errors$ (no second error channel).
  errors$.subscribe(errorLogger(config.logger, { scheduler }));
  const env: ElectorEnv = { lock, scheduler, random: config.random ?? Math.random, timings: t, errors: errors$ };
  // Inputs from outside the loop (stop(), a read that found the renew deadline past): they wait
  // here until the transition being committed has started its effect, which takes them first.
  const outside: ElectorInput[] = [];
  const arrived = new Subject<void>();
  let started = false;
  let release: (() => void) | undefined;
  let reportedLeader = '';
  let term: AbortController | undefined;

  const callback = (name: string, fn: () => void): void => {
    try {
      fn();
    } catch (e) {
      errors$.next(new LeaderElectionError(lock.describe(), name, e));
    }
  };

  // The effects of a transition's state change: the state, the callbacks, the term's signal.
  const commit = (next: ElectorState): void => {
    const prev = state$.value;
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
    if (next.phase === 'stopped') {
      state$.complete();
      errors$.complete();
    }
  };

  // An input from outside, when there is one (a marker: it is taken from `outside` only if this
  // transition's effect is the one that answers first).
  const fromOutside$: Observable<'outside'> = defer(() => (outside.length > 0 ? of('outside' as const) : arrived.pipe(take(1), map(() => 'outside' as const))));

  // The edge, as the reflector's: a pure step over the state union, each transition's effect
  // (electorEffect: a lock call or a timer, raced with its deadline, and with inputs from outside)
  // run by expand until its first input, which the step turns into the next transition.
  const next$ = (transition: ElectorTransition): Observable<ElectorTransition> =>
    transition.state.phase === 'stopped'
      ? EMPTY
      : merge(fromOutside$, electorEffect(transition.command, transition.state, env)).pipe(
          take(1),
          map((input) => electorStep(transition.state, input === 'outside' ? (outside.shift() as ElectorInput) : input, t)),
        );

  const send = (input: ElectorInput): void => {
    outside.push(input);
    arrived.next();
  };

  // A leader paused past its renew deadline (SIGSTOP, a long GC, a blocked event loop) learns it
  // from the clock on its first read, not from a timer that may run after other callbacks.
  function expireIfPast(): void {
    const now = scheduler.now();
    if (isPastDeadline(state$.value, now, t) && !outside.some((i) => i.type === 'deadline')) send({ type: 'deadline', now });
  }

  const leading$ = state$.pipe(
    map((s) => s.phase === 'leading'),
    distinctUntilChanged(),
  );
  const elector: LeaderElector = {
    identity: t.identity,
    leaseDuration: t.leaseDuration,
    lockName: lock.describe(),
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
      // Its lock is of the fake API server's KubeConfig: the server's close() stops it if it still runs.
      release = lifetimeOf(lock)?.adopt(elector, () => `a leader elector on the lease ${lock.describe()} (call elector.stop())`, () => elector.stop());
      const first = electorStep(state$.value, { type: 'tick', now: scheduler.now() }, t);
      // Ends by itself: the stopped state's transition starts no effect.
      of(first)
        .pipe(
          expand(next$),
          tap((transition) => commit(transition.state)),
        )
        .subscribe();
    },
    stop() {
      release?.();
      if (state$.value.phase === 'stopped') return Promise.resolve();
      const done = firstValueFrom(state$.pipe(filter((s) => s.phase === 'stopped')), { defaultValue: undefined }).then(() => undefined);
      const input: ElectorInput = { type: 'stop', now: scheduler.now() };
      // Never started: nothing runs, so stopping is one step here.
      if (!started) commit(electorStep(state$.value, input, t).state);
      else send(input);
      return done;
    },
  };
  declareParts(elector, [lock]); // its Lease, for RBAC generation (permissionsOf)
  return elector;
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
