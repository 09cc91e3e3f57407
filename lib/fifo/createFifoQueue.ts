import { DeltaFifoQueue } from './deltaFifoQueue.js';
import type { FifoQueue, FifoQueueOptions } from './fifoQueue.js';
import { OrderedFifoQueue } from './orderedFifoQueue.js';

/**
 * A new, empty FIFO queue in the given mode: a {@link DeltaFifoQueue} (`coalescing`, the default) or
 * an {@link OrderedFifoQueue} (`ordered`).
 *
 * @example
 * ```ts
 * const q = createFifoQueue<V1Pod>({ mode: 'ordered' });
 * q.replace([a, b], '10');
 * q.pop(); // { key: 'ns/a', deltas: [Replaced a], isInInitialList: true }
 * ```
 */
export function createFifoQueue<T>(options: FifoQueueOptions<T> = {}): FifoQueue<T> {
  return options.mode === 'ordered' ? new OrderedFifoQueue<T>(options) : new DeltaFifoQueue<T>(options);
}
