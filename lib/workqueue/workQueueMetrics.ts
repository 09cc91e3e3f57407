/**
 * What a work queue tells its metrics as it happens (client-go's `queueMetrics` hooks), on
 * `metrics$`. Durations are seconds on the queue's scheduler clock.
 * - `add`: a key became dirty (client-go counts this as `workqueue_adds_total`).
 * - `retry`: an `addRateLimited` (`workqueue_retries_total`).
 * - `get`: a worker took a key that waited `queueSeconds` since it was added (`workqueue_queue_duration_seconds`).
 * - `done`: a worker finished a key it held for `workSeconds` (`workqueue_work_duration_seconds`).
 *
 * @example
 * ```ts
 * queue.metrics$.subscribe((m) => { if (m.type === 'get') histogram.observe(m.queueSeconds); });
 * ```
 */
export type WorkQueueMetricEvent =
  | { readonly type: 'add' }
  | { readonly type: 'retry' }
  | { readonly type: 'get'; readonly queueSeconds: number }
  | { readonly type: 'done'; readonly workSeconds: number };

/**
 * A work queue's figures now (plain numbers, for gauges and tests).
 * - `depth`: keys waiting for a worker, counting keys re-added while in flight (`workqueue_depth`).
 * - `depthByPriority`: the same by priority level (`workqueue_depth{priority}`, as
 *   controller-runtime's priority queue); levels with no key are absent.
 * - `ready`: keys a worker can take now (`len()`).
 * - `waiting`: keys in the delaying part (`addAfter`, rate-limited retries).
 * - `inFlight`: keys held by workers.
 * - `addsTotal`, `retriesTotal`: counters since the queue was created.
 * - `unfinishedWorkSeconds`: the summed age of the keys in flight (`workqueue_unfinished_work_seconds`).
 * - `longestRunningProcessorSeconds`: the age of the oldest of them (`workqueue_longest_running_processor_seconds`).
 *
 * @example
 * ```ts
 * const { depth, inFlight } = queue.stats();
 * ```
 */
export interface WorkQueueStats {
  readonly depth: number;
  readonly depthByPriority: ReadonlyMap<number, number>;
  readonly ready: number;
  readonly waiting: number;
  readonly inFlight: number;
  readonly addsTotal: number;
  readonly retriesTotal: number;
  readonly unfinishedWorkSeconds: number;
  readonly longestRunningProcessorSeconds: number;
}
