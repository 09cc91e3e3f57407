/** The longest Retry-After a controller honours: 5 minutes, as the reflector's bound. */
export const MAX_RETRY_AFTER_MS = 300_000;

/**
 * The delay before a key is retried after the server answered a reconcile's write with a 429 and
 * a Retry-After (`retryAfterMs`, from `apiErrorRetryAfterMs`): that long, bounded to 5 minutes (a
 * Retry-After of days would leave the key stuck long after the server recovered); `undefined`
 * when the server said nothing (the rate limiter decides).
 *
 * @example
 * ```ts
 * retryAfterDelay(3000); // 3000
 * retryAfterDelay(undefined); // undefined: addRateLimited
 * ```
 */
export function retryAfterDelay(retryAfterMs: number | undefined): number | undefined {
  if (retryAfterMs === undefined || !Number.isFinite(retryAfterMs) || retryAfterMs < 0) return undefined;
  return Math.min(retryAfterMs, MAX_RETRY_AFTER_MS);
}
