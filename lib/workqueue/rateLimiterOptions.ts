import type { RateLimiter } from './rateLimiter.js';
import { RateLimiterConfigError } from './workQueueError.js';

/**
 * Throws {@link RateLimiterConfigError} unless `value` is a number at least `min` (not NaN).
 *
 * @internal
 * @example
 * ```ts
 * checkAtLeast('bucketRateLimiter', 'burst', options.burst, 1);
 * ```
 */
export function checkAtLeast(limiter: string, option: string, value: unknown, min: number, rule = `a number >= ${min}`): void {
  if (typeof value !== 'number' || !(value >= min)) throw new RateLimiterConfigError(limiter, option, value, rule);
}

/**
 * Throws {@link RateLimiterConfigError} unless `value` is a {@link RateLimiter} (an object with
 * `when`, `forget` and `numRequeues` functions): else the first retry would be a TypeError.
 *
 * @internal
 * @example
 * ```ts
 * checkRateLimiter('maxOfRateLimiter', 'limiters[0]', limiters[0]);
 * ```
 */
export function checkRateLimiter(limiter: string, option: string, value: unknown): void {
  const candidate = value as Partial<RateLimiter<unknown>> | null | undefined;
  if (
    typeof candidate?.when !== 'function' ||
    typeof candidate.forget !== 'function' ||
    typeof candidate.numRequeues !== 'function'
  ) {
    throw new RateLimiterConfigError(limiter, option, value, 'a rate limiter (an object with when, forget and numRequeues functions)');
  }
}
