/**
 * How long an item waits before it is retried (client-go's `TypedRateLimiter`). Implement it for a
 * custom policy; rxkube ships {@link itemExponentialFailureRateLimiter}, {@link bucketRateLimiter},
 * {@link itemFastSlowRateLimiter}, {@link maxOfRateLimiter} and {@link defaultControllerRateLimiter}.
 *
 * - `when(item, nowMs)`: the delay (ms) before `item` may be retried; called once per
 *   `addRateLimited`, so it may count failures. `nowMs` is the queue's scheduler clock.
 * - `forget(item)`: the item succeeded; reset what is remembered of it.
 * - `numRequeues(item)`: how many times it has been retried since the last `forget`.
 *
 * @example
 * ```ts
 * // Retries every key after a flat second, and remembers nothing.
 * const flat: RateLimiter<string> = { when: () => 1000, forget: () => {}, numRequeues: () => 0 };
 * const queue = workQueue<string>({ rateLimiter: flat });
 * ```
 */
export interface RateLimiter<T> {
  when(item: T, nowMs: number): number;
  forget(item: T): void;
  numRequeues(item: T): number;
}
