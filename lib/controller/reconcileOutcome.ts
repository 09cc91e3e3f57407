import { Observable, defaultIfEmpty, isObservable, map, race, takeLast, type SchedulerLike } from 'rxjs';
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
 * Runs a reconcile, whatever it returns (a value, a Promise, an Observable, or a throw), with an
 * optional timeout on `scheduler`, and emits its {@link ReconcileOutcome} once. Unsubscribing (or
 * the timeout) unsubscribes an Observable reconcile; the timeout also aborts `ctx.signal`.
 *
 * @example
 * ```ts
 * runReconcile(reconcile, 'ns/a', ctx, abort, { timeoutMs: 10_000, scheduler: asyncScheduler }).subscribe(handle);
 * ```
 */
export function runReconcile<T>(
  reconcile: Reconciler<T>,
  key: string,
  ctx: ReconcileContext<T>,
  abort: Pick<AbortController, 'abort'>,
  options: { timeoutMs?: number; scheduler: SchedulerLike; priority: number },
): Observable<ReconcileOutcome> {
  // One Observable, no operator chain: this runs once per reconcile, and a chain of defer, from,
  // defaultIfEmpty, map and catchError was most of a trivial reconcile's cost in the controller
  // (bench/controller.mjs). Same timing: a value or a throw settles at once, a Promise on its
  // `then`, an Observable on its last value (undefined if it completes empty).
  const run$ = new Observable<ReconcileOutcome>((subscriber) => {
    const settle = (outcome: ReconcileOutcome): void => {
      subscriber.next(outcome);
      subscriber.complete();
    };
    const fail = (error: unknown): void => settle(errorOutcome(error, options));
    const succeed = (result: ReconcileResult | void): void => {
      let outcome: ReconcileOutcome;
      try {
        outcome = outcomeOf(result, options.priority);
      } catch (e) {
        return fail(e);
      }
      settle(outcome);
    };
    let returned: ReturnType<Reconciler<T>>;
    try {
      returned = reconcile(key, ctx);
    } catch (e) {
      return fail(e);
    }
    if (isObservable(returned)) return returned.pipe(takeLast(1), defaultIfEmpty(undefined)).subscribe({ next: succeed, error: fail });
    if (isPromiseLike<ReconcileResult | void>(returned)) returned.then(succeed, fail);
    else succeed(returned);
    return undefined;
  });
  if (options.timeoutMs === undefined) return run$;
  const timeoutMs = options.timeoutMs;
  return race(
    run$,
    longTimer(timeoutMs, options.scheduler).pipe(
      map(() => {
        abort.abort();
        return errorOutcome(new ReconcileTimeoutError(key, timeoutMs), options);
      }),
    ),
  );
}

function errorOutcome(error: unknown, options: { scheduler: SchedulerLike; priority: number }): ReconcileOutcome {
  const retryAfterMs = retryAfterDelay(apiErrorRetryAfterMs(error, () => options.scheduler.now()));
  return {
    result: 'error',
    error,
    terminal: isTerminal(error),
    priority: options.priority,
    ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
  };
}

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
  return { result: 'success' };
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
