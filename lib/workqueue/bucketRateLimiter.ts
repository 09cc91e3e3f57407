import type { RateLimiter } from './rateLimiter.js';
import { checkAtLeast } from './rateLimiterOptions.js';

/**
 * An overall token bucket shared by every item (client-go's `BucketRateLimiter`, golang's
 * `rate.Limiter.Reserve`): `qps` tokens per second, up to `burst` saved. Each `when` takes a token;
 * when none is left it reserves the next one and returns the wait until it is there. It tracks no
 * item: `numRequeues` is 0 and `forget` does nothing. Defaults: 10 per second, burst 100. A wait
 * too long for a number (a `qps` near 0) is `Infinity`: the item is never retried.
 *
 * ```text
 * burst 2, qps 10, all at t=0: when -> 0, 0, 100, 200, 300 ...
 * ```
 *
 * @example
 * ```ts
 * const limiter = bucketRateLimiter<string>({ qps: 50, burst: 300 });
 * ```
 */
export function bucketRateLimiter<T>(options?: { qps?: number; burst?: number } | null): RateLimiter<T> {
  // null options are the defaults, as undefined ones.
  const qps = options?.qps ?? 10;
  const burst = options?.burst ?? 100;
  checkAtLeast('bucketRateLimiter', 'qps', qps, Number.MIN_VALUE, 'a number above 0 (with 0 every key past the burst would wait for ever)');
  checkAtLeast('bucketRateLimiter', 'burst', burst, 1);
  let tokens = burst;
  let last: number | undefined;
  return {
    when(_item, nowMs) {
      if (last !== undefined && nowMs > last) tokens = Math.min(burst, tokens + ((nowMs - last) * qps) / 1000);
      if (last === undefined || nowMs > last) last = nowMs;
      tokens -= 1;
      return tokens >= 0 ? 0 : (-tokens * 1000) / qps;
    },
    forget() {},
    numRequeues() {
      return 0;
    },
  };
}
