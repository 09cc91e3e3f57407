import type { DeletedFinalStateUnknown } from '../meta/deletedFinalStateUnknown.js';

/**
 * The kinds of change a delta carries (client-go's `DeltaType`).
 * - `Added`, `Updated`, `Deleted`: from watch events (or a resync for `Sync`).
 * - `Replaced`: an item of a relist, when the FIFO is asked to emit it (`emitDeltaTypeReplaced`).
 * - `Sync`: an item of a relist, or a periodic resync.
 */
export const DeltaType = {
  Added: 'Added',
  Updated: 'Updated',
  Deleted: 'Deleted',
  Replaced: 'Replaced',
  Sync: 'Sync',
} as const;
/** One of {@link DeltaType}'s values. */
export type DeltaType = (typeof DeltaType)[keyof typeof DeltaType];

/**
 * One change to one object. A `Deleted` delta may carry a {@link DeletedFinalStateUnknown} tombstone.
 *
 * @example
 * ```ts
 * const d: Delta<V1Pod> = { type: DeltaType.Added, object: pod };
 * ```
 */
export interface Delta<T> {
  readonly type: DeltaType;
  readonly object: T | DeletedFinalStateUnknown<T>;
}

/** The deltas of one key, oldest first. Never empty when popped. */
export type Deltas<T> = ReadonlyArray<Delta<T>>;
