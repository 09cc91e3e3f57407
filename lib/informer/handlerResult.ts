import { isObservable, type Observable, type Subscription } from 'rxjs';
import { isPromiseLike } from '../meta/isPromiseLike.js';

/** Called once when a handler's asynchronous result has finished: `failed` with its error, or not. */
export type SettleHandlerResult = (error: unknown, failed: boolean) => void;

/** What waits on a handler's result: the subscription to cancel it, or a Promise of its settling. */
export interface PendingHandlerResult {
  /** Set for an Observable result still running: unsubscribing cancels it (settle is not called). */
  readonly inflight?: Subscription;
  /** Set for a Promise result: resolves once it has settled (whatever the outcome). */
  readonly done?: Promise<void>;
}

/**
 * Waits for what a handler returned before its next notification: an Observable until it completes
 * or errors (its values are ignored), a PromiseLike until it settles. `settle` is called once, and
 * synchronously for an Observable that ends during `subscribe` (then nothing is pending).
 *
 * ```text
 * result:   ----a--|         ----#
 * settle:   -------S         ----S(failed)
 * ```
 *
 * @internal
 * @example
 * ```ts
 * const pending = awaitHandlerResult(handler.update(a, b), (err, failed) => next());
 * // later, to stop: pending.inflight?.unsubscribe()
 * ```
 */
export function awaitHandlerResult(
  result: PromiseLike<unknown> | Observable<unknown>,
  settle: SettleHandlerResult,
): PendingHandlerResult {
  if (isObservable(result)) {
    let settled = false;
    const once: SettleHandlerResult = (error, failed) => {
      if (settled) return;
      settled = true;
      settle(error, failed);
    };
    const inflight = result.subscribe({
      error: (e: unknown) => once(e, true),
      complete: () => once(undefined, false),
    });
    return settled ? {} : { inflight };
  }
  if (!isPromiseLike(result)) {
    // Not asynchronous after all (a handler typed loosely returned a value): nothing to wait for.
    settle(undefined, false);
    return {};
  }
  const done = new Promise<void>((resolve) => {
    const failed = (e: unknown): void => {
      resolve();
      settle(e, true);
    };
    try {
      result.then(
        () => {
          resolve();
          settle(undefined, false);
        },
        failed,
      );
    } catch (e) {
      failed(e); // a thenable whose `then` throws
    }
  });
  return { done };
}
