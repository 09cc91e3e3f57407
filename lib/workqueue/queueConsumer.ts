// The one consumer of a work queue that pulls keys when told some are ready, instead of
// subscribing get$() for each: the controller's workers. Internal (not exported from the package).
import type { QueueItem } from './queueItem.js';

/**
 * What a queue's consumer is given: `take(at)`, a ready key held from `at` (the controller's clock
 * read it once for both), or undefined. The item is the queue's entry: read it, do not change it.
 *
 * @internal
 * @example
 * ```ts
 * const item = consumer.take(scheduler.now());
 * ```
 */
export interface QueueConsumer<T> {
  take(at: number): QueueItem<T> | undefined;
}

interface ConsumerHooks<T> {
  setReadyListener(listener: (() => void) | undefined): void;
  take(at?: number, shared?: boolean): QueueItem<T> | undefined;
}

const hooks = new WeakMap<object, ConsumerHooks<unknown>>();

/**
 * Registers the core of `queue` (done by `workQueue()`).
 *
 * @internal
 * @example
 * ```ts
 * registerQueueCore(queue, core);
 * ```
 */
export function registerQueueCore<T>(queue: object, core: ConsumerHooks<T>): void {
  hooks.set(queue, core as ConsumerHooks<unknown>);
}

/**
 * Makes `ready` the consumer of `queue`: called (synchronously) whenever the queue has ready keys
 * that no `get$` subscriber took (after an add, a done that queues a dirty key again, a delay that
 * ends); it pulls them with the answer's `take`. One consumer per queue. Undefined for a queue not
 * made by `workQueue()`.
 *
 * @internal
 * @example
 * ```ts
 * const consumer = consumeQueue(queue, () => { for (let i = consumer?.take(Date.now()); i; i = consumer?.take(Date.now())) handle(i); });
 * ```
 */
export function consumeQueue<T>(queue: object, ready: () => void): QueueConsumer<T> | undefined {
  const core = hooks.get(queue) as ConsumerHooks<T> | undefined;
  if (core === undefined) return undefined;
  core.setReadyListener(ready);
  // The queue's own entry (no copy per key): the consumer reads its key and priority and keeps it.
  return { take: (at) => core.take(at, true) };
}
