import type { RxkubeError } from '../errors.js';
import type { FifoPop } from './fifoOutput.js';
import type { RelistMark } from './relistMark.js';

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
 * - `errors`: present when objects of the burst could not be queued (a `KeyError`, a
 *   `TransformError`); they were skipped. Errors travel in the stream: the FIFO calls no one.
 * - `relists`: present when the burst carried a list: where each list's deletions of keys that
 *   only the store knows belong (see {@link RelistMark}); the store write finds those keys.
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
  readonly relists?: ReadonlyArray<RelistMark>;
  readonly errors?: ReadonlyArray<RxkubeError>;
}
