import type { RateLimiter } from './rateLimiter.js';
import { checkRateLimiter } from './rateLimiterOptions.js';

/**
 * The longest delay of several limiters (client-go's `MaxOfRateLimiter`). Every limiter is asked
 * (each counts the failure); `numRequeues` is the largest count; `forget` forgets in all. Each
 * argument must be a rate limiter (`maxOfRateLimiter(null)` is a {@link ConfigError} naming `limiters[0]`).
 *
 * @example
 * ```ts
 * const limiter = maxOfRateLimiter(itemExponentialFailureRateLimiter<string>(), bucketRateLimiter<string>());
 * ```
 */
export function maxOfRateLimiter<T>(...limiters: ReadonlyArray<RateLimiter<T>>): RateLimiter<T> {
  limiters.forEach((limiter, i) => checkRateLimiter('maxOfRateLimiter', `limiters[${i}]`, limiter));
  return {
    when(item, nowMs) {
      let delay = 0;
      for (const limiter of limiters) delay = Math.max(delay, limiter.when(item, nowMs));
      return delay;
    },
    forget(item) {
      for (const limiter of limiters) limiter.forget(item);
    },
    numRequeues(item) {
      let n = 0;
      for (const limiter of limiters) n = Math.max(n, limiter.numRequeues(item));
      return n;
    },
  };
}
