import type { SchedulerLike, Subject } from 'rxjs';
import type { CoreQueue } from './coreQueue.js';
import type { DelayingQueue } from './delayingQueue.js';
import type { RateLimiter } from './rateLimiter.js';
import { checkDelay, checkPriority } from './workQueueArgs.js';
import { QueueShutDownError } from './workQueueError.js';
import type { WorkQueueMetricEvent } from './workQueueMetrics.js';

/**
 * The rate-limiting layer (client-go's `rateLimitingType`, controller-runtime's `AddWithOpts`):
 * every add comes here, is checked, and goes to the {@link DelayingQueue} now or later. A
 * rate-limited add asks the limiter (which counts a retry) and waits the shorter of its delay and
 * `after` (an `after` of 0 or less: the limiter's delay).
 *
 * ```text
 * add(a, { rateLimited, after: 30 })   limiter says 5: a ready at 5
 * add(b, { rateLimited, after: 1 })    limiter says 5: b ready at 1
 * ```
 *
 * @internal
 * @example
 * ```ts
 * const limited = rateLimitingQueue('pods', core, delaying, limiter, scheduler, metrics);
 * limited.add('ns/a', 0, true, undefined);
 * ```
 */
export interface RateLimitingQueue<T> {
  /** Checks, then adds: `after` ms (0: now), rate-limited or not, at a priority (`undefined`: 0). */
  add(key: T, after: unknown, rateLimited: unknown, priority: unknown): void;
  forget(key: T): void;
  numRequeues(key: T): number;
  retriesTotal(): number;
}

/**
 * Creates a {@link RateLimitingQueue}. Everything that can be refused is checked before the
 * limiter is asked, as it counts a retry that cannot be taken back; no options object is made per
 * add.
 *
 * @internal
 * @example
 * ```ts
 * const limited = rateLimitingQueue('pods', core, delaying, defaultControllerRateLimiter(), scheduler, metrics);
 * ```
 */
export function rateLimitingQueue<T>(
  name: string,
  core: CoreQueue<T>,
  delaying: DelayingQueue<T>,
  limiter: RateLimiter<T>,
  scheduler: SchedulerLike,
  metrics: Subject<WorkQueueMetricEvent>,
): RateLimitingQueue<T> {
  let retries = 0;
  return {
    add(key, after, rateLimited, rawPriority) {
      if (core.isShutDown()) throw new QueueShutDownError(name, key);
      const priority = checkPriority(name, key, rawPriority);
      let delay = checkDelay(name, key, after, 'addAfter');
      if (rateLimited) {
        const limited = checkDelay(name, key, limiter.when(key, scheduler.now()), 'its rate limiter');
        delay = delay > 0 && delay < limited ? delay : limited;
        retries++;
        metrics.next({ type: 'retry' });
      }
      delaying.addAfter(key, delay, priority);
    },
    forget: (key) => limiter.forget(key),
    numRequeues: (key) => limiter.numRequeues(key),
    retriesTotal: () => retries,
  };
}
