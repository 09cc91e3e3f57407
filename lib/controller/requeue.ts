import type { WorkQueue } from '../workqueue/workQueue.js';
import type { ReconcileOutcome } from './reconcileOutcome.js';

/**
 * What happens to a key after its reconcile (controller-runtime's `reconcileHandler`), as data:
 * - `none`: nothing (the queue is shutting down, or the key is no longer this replica's after a
 *   failure: its retry count is kept, as controller-runtime keeps it);
 * - `forget`: its retry count is reset (a success, a terminal error, or a key no longer ours
 *   after a `requeueAfter`);
 * - `forgetAndAddAfter`: reset, and queued again after `ms` (`requeueAfter`);
 * - `addAfter`: queued again after `ms`, retries kept (a 429 whose answer said when);
 * - `addRateLimited`: queued again after the rate limiter's delay, counting a retry.
 *
 * @example
 * ```ts
 * const r: Requeue = { kind: 'forgetAndAddAfter', ms: 5000, priority: 0 };
 * ```
 */
export type Requeue =
  | { readonly kind: 'none' }
  | { readonly kind: 'forget' }
  | { readonly kind: 'forgetAndAddAfter'; readonly ms: number; readonly priority: number }
  | { readonly kind: 'addAfter'; readonly ms: number; readonly priority: number }
  | { readonly kind: 'addRateLimited'; readonly priority: number };

const NONE: Requeue = Object.freeze({ kind: 'none' });
const FORGET: Requeue = Object.freeze({ kind: 'forget' });

/**
 * The {@link Requeue} of a reconcile's outcome: success forgets the key's retries; `requeue_after`
 * forgets them and queues it again after `ms`; `requeue` and a non-terminal error queue it again
 * rate-limited (an error whose 429 said Retry-After: after that, as the reflector does); a
 * terminal error forgets it. Keys no longer this replica's (`ours` false) are not queued again;
 * nothing is while the controller drains.
 *
 * @example
 * ```ts
 * requeueOf({ result: 'requeue_after', ms: 5000, priority: 0 }, true, false); // forgetAndAddAfter 5000
 * ```
 */
export function requeueOf(outcome: ReconcileOutcome, ours: boolean, draining: boolean): Requeue {
  if (draining) return NONE;
  switch (outcome.result) {
    case 'success':
      return FORGET;
    case 'requeue_after':
      return ours ? { kind: 'forgetAndAddAfter', ms: outcome.ms, priority: outcome.priority } : FORGET;
    case 'requeue':
      return ours ? { kind: 'addRateLimited', priority: outcome.priority } : NONE;
    case 'error':
      if (outcome.terminal) return FORGET;
      if (!ours) return NONE;
      if (outcome.retryAfterMs !== undefined) return { kind: 'addAfter', ms: outcome.retryAfterMs, priority: outcome.priority };
      return { kind: 'addRateLimited', priority: outcome.priority };
  }
}

/**
 * Does to `key` in `queue` what `requeue` says (nothing once the queue shuts down). May throw what the rate limiter throws (an
 * invalid delay), after it counted the retry.
 *
 * @example
 * ```ts
 * applyRequeue(queue, 'ns/a', requeueOf(outcome, true, false));
 * ```
 */
export function applyRequeue(queue: WorkQueue<string>, key: string, requeue: Requeue): void {
  // The queue may have been shut down by hand (`ctl.queue.shutDown()`): then nothing, as adds throw.
  if (queue.shuttingDown()) return;
  switch (requeue.kind) {
    case 'none':
      return;
    case 'forget':
      queue.forget(key);
      return;
    case 'forgetAndAddAfter':
      queue.forget(key);
      queue.addAfter(key, requeue.ms, { priority: requeue.priority });
      return;
    case 'addAfter':
      queue.addAfter(key, requeue.ms, { priority: requeue.priority });
      return;
    case 'addRateLimited':
      queue.addRateLimited(key, { priority: requeue.priority });
  }
}
