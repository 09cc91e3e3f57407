import type { RateLimiter } from './rateLimiter.js';
import { checkAtLeast } from './rateLimiterOptions.js';

/**
 * Per-item exponential backoff (client-go's `ItemExponentialFailureRateLimiter`): the n-th retry of
 * an item (n from 0) waits `baseMs * 2^n`, capped at `maxMs` (also once 2^n overflows; a `baseMs`
 * of 0 waits 0 every time). `forget` resets the item.
 * Defaults: 5 ms doubling up to 1000 s, as client-go's default controller limiter.
 *
 * ```text
 * when(a): 5, 10, 20, 40, ... 1_000_000   forget(a): back to 5
 * ```
 *
 * @example
 * ```ts
 * const limiter = itemExponentialFailureRateLimiter<string>({ baseMs: 100, maxMs: 60_000 });
 * limiter.when('ns/a', 0); // 100
 * limiter.when('ns/a', 0); // 200
 * ```
 */
export function itemExponentialFailureRateLimiter<T>(
  options?: { baseMs?: number; maxMs?: number } | null,
): RateLimiter<T> {
  // null options are the defaults, as undefined ones.
  const baseMs = options?.baseMs ?? 5;
  const maxMs = options?.maxMs ?? 1_000_000;
  checkAtLeast('itemExponentialFailureRateLimiter', 'baseMs', baseMs, 0);
  checkAtLeast('itemExponentialFailureRateLimiter', 'maxMs', maxMs, 0);
  const failures = new Map<T, number>();
  return {
    when(item) {
      const n = failures.get(item) ?? 0;
      failures.set(item, n + 1);
      // 2^n overflows to Infinity from n = 1024: the cap catches it (client-go: past MaxInt64 is
      // maxDelay), but 0 * Infinity is NaN, so a base of 0 is 0 every time.
      if (baseMs === 0) return 0;
      return Math.min(baseMs * 2 ** n, maxMs);
    },
    forget(item) {
      failures.delete(item);
    },
    numRequeues(item) {
      return failures.get(item) ?? 0;
    },
  };
}
