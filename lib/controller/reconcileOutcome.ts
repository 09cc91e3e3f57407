import { Observable, defaultIfEmpty, isObservable, map, race, takeLast, type SchedulerLike, type Subscription } from 'rxjs';
import { isPromiseLike } from '../meta/isPromiseLike.js';
import { longTimer } from '../timers/longTimer.js';
import { apiErrorRetryAfterMs } from '../write/apiErrorStatus.js';
import { InvalidReconcileResultError, ReconcileTimeoutError } from './controllerErrors.js';
import type { ReconcileContext, ReconcileResult, Reconciler } from './reconciler.js';
import { retryAfterDelay } from './retryAfter.js';
import { TerminalError } from './terminalError.js';

/**
 * How one reconcile ended, and so what happens to its key (controller-runtime's `reconcileHandler`);
 * `result` is the `controller_runtime_reconcile_total` label.
 * - `success`: forgotten (retry memory reset).
 * - `requeue_after`: forgotten, queued again after `ms`.
 * - `requeue`: queued again, rate-limited.
 * - `error`: queued again rate-limited at the priority it was queued at (as controller-runtime), or,
 *   for a {@link TerminalError} (`terminal`), forgotten; when the error is a 429 whose answer said
 *   when to come back, `retryAfterMs` (bounded to 5 minutes): queued again after that instead.
 *
 * @example
 * ```ts
 * const outcome: ReconcileOutcome = { result: 'requeue_after', ms: 5000, priority: 0 };
 * ```
 */
export type ReconcileOutcome =
  | { readonly result: 'success' }
  | { readonly result: 'requeue_after'; readonly ms: number; readonly priority: number }
  | { readonly result: 'requeue'; readonly priority: number }
  | {
      readonly result: 'error';
      readonly error: unknown;
      readonly terminal: boolean;
      readonly priority: number;
      readonly retryAfterMs?: number;
    };

/**
 * What {@link startReconcile} needs besides the reconcile: the priority the key was queued at (a
 * requeue's default) and the clock (a Retry-After given as a date).
 *
 * @example
 * ```ts
 * const options: ReconcileRunOptions = { priority: 0, scheduler: asyncScheduler };
 * ```
 */
export interface ReconcileRunOptions {
  readonly priority: number;
  readonly scheduler: SchedulerLike;
}

/**
 * Where {@link startReconcile} hands a reconcile's outcome (once).
 *
 * @example
 * ```ts
 * const sink: OutcomeSink = { settle: (outcome) => console.log(outcome.result) };
 * ```
 */
export interface OutcomeSink {
  settle(outcome: ReconcileOutcome): void;
}

/**
 * Calls a reconcile and hands its {@link ReconcileOutcome} to `sink` once, whatever it returns:
 * at once for a value or a throw, on the settlement of a Promise, on the last value of an
 * Observable (undefined if it completes empty). Returns the subscription of an Observable
 * reconcile (unsubscribing it stops the reconcile; `sink` is then never told), else undefined.
 * Nothing is made for a reconcile that returns a value: this runs once per reconcile, and an
 * operator chain around each was most of a trivial reconcile's cost in the controller
 * (bench/controller.mjs).
 *
 * @example
 * ```ts
 * const running = startReconcile(reconcile, 'ns/a', ctx, { priority: 0, scheduler }, { settle: (o) => console.log(o.result) });
 * ```
 */
export function startReconcile<T>(
  reconcile: Reconciler<T>,
  key: string,
  ctx: ReconcileContext<T>,
  options: ReconcileRunOptions,
  sink: OutcomeSink,
): Subscription | undefined {
  let returned: ReturnType<Reconciler<T>>;
  try {
    returned = reconcile(key, ctx);
  } catch (e) {
    sink.settle(errorOutcome(e, options));
    return undefined;
  }
  if (isObservable(returned)) {
    return returned.pipe(takeLast(1), defaultIfEmpty(undefined)).subscribe({
      next: (result) => sink.settle(settledOutcome(result, options)),
      error: (e: unknown) => sink.settle(errorOutcome(e, options)),
    });
  }
  if (isPromiseLike<ReconcileResult | void>(returned)) {
    returned.then(
      (result) => sink.settle(settledOutcome(result, options)),
      (e: unknown) => sink.settle(errorOutcome(e, options)),
    );
  } else {
    sink.settle(settledOutcome(returned, options));
  }
  return undefined;
}

/** The outcome of a result (a result the controller cannot act on is a failed reconcile). */
function settledOutcome(result: ReconcileResult | void, options: ReconcileRunOptions): ReconcileOutcome {
  try {
    return outcomeOf(result, options.priority);
  } catch (e) {
    return errorOutcome(e, options);
  }
}

/**
 * Runs a reconcile as {@link startReconcile} does, as a cold Observable that emits its
 * {@link ReconcileOutcome} once, with an optional timeout on `scheduler`. Unsubscribing (or the
 * timeout) unsubscribes an Observable reconcile; the timeout also aborts `ctx.signal`.
 *
 * @example
 * ```ts
 * runReconcile(reconcile, 'ns/a', ctx, abort, { timeoutMs: 10_000, scheduler: asyncScheduler, priority: 0 }).subscribe(handle);
 * ```
 */
export function runReconcile<T>(
  reconcile: Reconciler<T>,
  key: string,
  ctx: ReconcileContext<T>,
  abort: Pick<AbortController, 'abort'>,
  options: { timeoutMs?: number; scheduler: SchedulerLike; priority: number },
): Observable<ReconcileOutcome> {
  const run$ = new Observable<ReconcileOutcome>((subscriber) =>
    startReconcile(reconcile, key, ctx, options, {
      settle(outcome) {
        subscriber.next(outcome);
        subscriber.complete();
      },
    }),
  );
  if (options.timeoutMs === undefined) return run$;
  const timeoutMs = options.timeoutMs;
  return race(
    run$,
    longTimer(timeoutMs, options.scheduler).pipe(
      map(() => {
        abort.abort();
        return reconcileTimeoutOutcome(key, timeoutMs, options);
      }),
    ),
  );
}

/**
 * The outcome of a reconcile that ran past `timeoutMs`: a {@link ReconcileTimeoutError}, retried.
 *
 * @example
 * ```ts
 * settle(reconcileTimeoutOutcome('ns/a', 10_000, { priority: 0, scheduler }));
 * ```
 */
export function reconcileTimeoutOutcome(key: string, timeoutMs: number, options: ReconcileRunOptions): ReconcileOutcome {
  return errorOutcome(new ReconcileTimeoutError(key, timeoutMs), options);
}

function errorOutcome(error: unknown, options: ReconcileRunOptions): ReconcileOutcome {
  const retryAfterMs = retryAfterDelay(apiErrorRetryAfterMs(error, () => options.scheduler.now()));
  return {
    result: 'error',
    error,
    terminal: isTerminal(error),
    priority: options.priority,
    ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
  };
}

const SUCCESS: ReconcileOutcome = Object.freeze({ result: 'success' });

function outcomeOf(result: ReconcileResult | void, queuedAt: number): ReconcileOutcome {
  // Plain JavaScript may hand back a string or NaN: refused here (thrown into catchError, a failed
  // reconcile), never handed to the queue.
  if (result?.priority !== undefined && !Number.isFinite(result.priority)) {
    throw new InvalidReconcileResultError('priority', result.priority);
  }
  if (result?.requeueAfter !== undefined && !Number.isFinite(result.requeueAfter)) {
    throw new InvalidReconcileResultError('requeueAfter', result.requeueAfter);
  }
  const priority = result?.priority ?? queuedAt;
  if (result?.requeueAfter !== undefined && result.requeueAfter > 0) {
    return { result: 'requeue_after', ms: result.requeueAfter, priority };
  }
  if (result?.requeue) return { result: 'requeue', priority };
  return SUCCESS;
}

/**
 * A {@link TerminalError}, or an error caused by one (`new Error('...', { cause })`): controller-runtime
 * tests with `errors.Is`, which unwraps. The chain is followed a bounded number of links (it may loop).
 */
function isTerminal(error: unknown): boolean {
  let e: unknown = error;
  for (let depth = 0; depth < 16 && e instanceof Error; depth++) {
    if (e instanceof TerminalError) return true;
    e = e.cause;
  }
  return false;
}
