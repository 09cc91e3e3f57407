import type { RateLimiter } from './rateLimiter.js';
import { checkAtLeast } from './rateLimiterOptions.js';

/**
 * Retries an item quickly a few times, then slowly (client-go's `ItemFastSlowRateLimiter`): the first
 * `maxFastAttempts` retries wait `fastMs`, the later ones `slowMs`. `forget` resets the item.
 *
 * @example
 * ```ts
 * const limiter = itemFastSlowRateLimiter<string>({ fastMs: 100, slowMs: 10_000, maxFastAttempts: 3 });
 * // when('a'): 100, 100, 100, 10000, 10000, ...
 * ```
 */
export function itemFastSlowRateLimiter<T>(options: {
  fastMs: number;
  slowMs: number;
  maxFastAttempts: number;
}): RateLimiter<T> {
  checkAtLeast('itemFastSlowRateLimiter', 'fastMs', options?.fastMs, 0);
  checkAtLeast('itemFastSlowRateLimiter', 'slowMs', options?.slowMs, 0);
  checkAtLeast('itemFastSlowRateLimiter', 'maxFastAttempts', options?.maxFastAttempts, 0);
  const failures = new Map<T, number>();
  return {
    when(item) {
      const n = (failures.get(item) ?? 0) + 1;
      failures.set(item, n);
      return n <= options.maxFastAttempts ? options.fastMs : options.slowMs;
    },
    forget(item) {
      failures.delete(item);
    },
    numRequeues(item) {
      return failures.get(item) ?? 0;
    },
  };
}
