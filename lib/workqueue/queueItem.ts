// The shapes a key goes into a work queue with (a priority, options) and comes out as.

/**
 * The priority of items from an informer's initial list and of unchanged resyncs (controller-runtime's
 * `handler.LowPriority`): behind every live change (priority 0).
 *
 * @example
 * ```ts
 * queue.add('ns/unchanged', { priority: LOW_PRIORITY });
 * ```
 */
export const LOW_PRIORITY = -100;

/**
 * How to add a key (controller-runtime's `priorityqueue.AddOpts`).
 * - `after` (ms): ready only then (a delaying queue); the earliest ready time of a key wins.
 * - `rateLimited`: wait as the rate limiter says (the shorter of that and `after`), counting a retry.
 * - `priority`: higher first among ready keys (default 0); a key added twice keeps the higher one,
 *   and a raised key goes to the back of its new level.
 *
 * @example
 * ```ts
 * queue.add('ns/a', { after: 5000, priority: LOW_PRIORITY });
 * ```
 */
export interface AddOptions {
  readonly after?: number;
  readonly rateLimited?: boolean;
  readonly priority?: number;
}

/**
 * What a worker gets: the key, and the priority it was queued at.
 *
 * @example
 * ```ts
 * queue.get$().subscribe(({ key, priority }) => { handle(key, priority); queue.done(key); });
 * ```
 */
export interface QueueItem<T> {
  readonly key: T;
  readonly priority: number;
}
