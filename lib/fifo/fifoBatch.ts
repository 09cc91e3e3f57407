import type { FifoPop } from './fifoOutput.js';

/**
 * What the delta FIFO hands on for one burst (client-go's RealFIFO `PopBatch`): every pop the burst
 * made ready, in pop order, to be applied to the store in one write and then told to handlers.
 *
 * - `pops`: the burst's pops (coalesced per key in `coalescing` mode; one per event in `ordered`).
 * - `resourceVersion`: the last valid resource version the burst carried (a list's, an event
 *   object's, a bookmark's), or `undefined` when it carried none: a missing or empty one from the
 *   server never replaces a valid one (client-go's `LastStoreSyncResourceVersion`).
 * - `synced`: true on the one batch after which the queue's `hasSynced` first became true (after
 *   its pops: a consumer that applies the batch before looking has processed every initial item).
 * - `resync`: present (true) when the burst carried a periodic resync (a `resync` event), so its
 *   unchanged updates are a resync the consumer asked for, not news.
 *
 * Readonly by type, not frozen at run time.
 *
 * @example
 * ```ts
 * const batch: FifoBatch<V1Pod> = { pops: [], resourceVersion: '42', synced: false }; // a bookmark
 * ```
 */
export interface FifoBatch<T> {
  readonly pops: ReadonlyArray<FifoPop<T>>;
  readonly resourceVersion: string | undefined;
  readonly synced: boolean;
  readonly resync?: true;
}
