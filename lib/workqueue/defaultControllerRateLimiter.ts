import { bucketRateLimiter } from './bucketRateLimiter.js';
import { itemExponentialFailureRateLimiter } from './itemExponentialFailureRateLimiter.js';
import { maxOfRateLimiter } from './maxOfRateLimiter.js';
import type { RateLimiter } from './rateLimiter.js';

/**
 * client-go's `DefaultControllerRateLimiter`: the longer of a per-item exponential backoff (5 ms
 * doubling to 1000 s) and an overall token bucket (10 per second, burst 100), so one failing key
 * backs off on its own and many failing keys together cannot retry faster than 10 per second.
 *
 * @example
 * ```ts
 * const queue = workQueue<string>({ rateLimiter: defaultControllerRateLimiter() });
 * ```
 */
export function defaultControllerRateLimiter<T>(): RateLimiter<T> {
  return maxOfRateLimiter<T>(
    itemExponentialFailureRateLimiter<T>({ baseMs: 5, maxMs: 1_000_000 }),
    bucketRateLimiter<T>({ qps: 10, burst: 100 }),
  );
}
