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
