import { ConfigError } from '../configError.js';
import { describeValue } from '../meta/describeValue.js';
import { missingMethods } from '../meta/missingMethods.js';

const shown = (value: unknown): string => (typeof value === 'string' ? JSON.stringify(value) : describeValue(value));

// A rate limiter's ConfigError, thrown when the limiter (or queue) is made.
const rateLimiterConfigError = (limiter: string, option: string, value: unknown, rule: string): ConfigError =>
  new ConfigError(option, `${limiter}: ${option} must be ${rule}, got ${shown(value)}`, { value });

/**
 * Throws a {@link ConfigError} naming `option` unless `value` is a number at least `min` (not NaN).
 *
 * @internal
 * @example
 * ```ts
 * checkAtLeast('bucketRateLimiter', 'burst', options.burst, 1);
 * ```
 */
export function checkAtLeast(limiter: string, option: string, value: unknown, min: number, rule = `a number >= ${min}`): void {
  if (typeof value !== 'number' || !(value >= min)) throw rateLimiterConfigError(limiter, option, value, rule);
}

/** What makes a {@link RateLimiter}. */
export const RATE_LIMITER_METHODS: ReadonlyArray<string> = ['when', 'forget', 'numRequeues'];

/**
 * Throws a {@link ConfigError} naming `option` unless `value` is a {@link RateLimiter} (an object with
 * `when`, `forget` and `numRequeues` functions): else the first retry would be a TypeError.
 *
 * @internal
 * @example
 * ```ts
 * checkRateLimiter('maxOfRateLimiter', 'limiters[0]', limiters[0]);
 * ```
 */
export function checkRateLimiter(limiter: string, option: string, value: unknown): void {
  if (missingMethods(value, RATE_LIMITER_METHODS).length > 0) {
    throw rateLimiterConfigError(limiter, option, value, 'a rate limiter (an object with when, forget and numRequeues functions)');
  }
}
