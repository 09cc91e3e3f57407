import type { WorkQueue } from '../workqueue/workQueue.js';
import type { ReconcileOutcome } from './reconcileOutcome.js';

/**
 * What a reconcile's outcome does to its key (controller-runtime's `reconcileHandler`): success
 * forgets its retries; `requeue_after` forgets them and queues it again after `ms`; `requeue` and
 * a non-terminal error queue it again rate-limited (an error whose 429 said Retry-After: after
 * that); a terminal error forgets it. Keys no longer
 * this replica's (`ours` false) are not queued again; nothing is once the queue shuts down. May
 * throw what the rate limiter throws (an invalid delay).
 *
 * @example
 * ```ts
 * requeueAfter(queue, 'ns/a', { result: 'requeue_after', ms: 5000, priority: 0 }, () => true);
 * ```
 */
export function requeueAfter(queue: WorkQueue<string>, key: string, outcome: ReconcileOutcome, ours: (key: string) => boolean): void {
  if (queue.shuttingDown()) return;
  switch (outcome.result) {
    case 'success':
      queue.forget(key);
      return;
    case 'requeue_after':
      queue.forget(key);
      if (ours(key)) queue.addAfter(key, outcome.ms, { priority: outcome.priority });
      return;
    case 'requeue':
      if (ours(key)) queue.addRateLimited(key, { priority: outcome.priority });
      return;
    case 'error': {
      if (outcome.terminal) {
        queue.forget(key);
        return;
      }
      if (!ours(key)) return;
      // The server said when (429 + Retry-After): then, as the reflector does, not the limiter's schedule.
      if (outcome.retryAfterMs !== undefined) queue.addAfter(key, outcome.retryAfterMs, { priority: outcome.priority });
      else queue.addRateLimited(key, { priority: outcome.priority });
    }
  }
}
