import type { DeletedFinalStateUnknown } from '../meta/deletedFinalStateUnknown.js';

/**
 * One change to a store, as a value (what {@link StoreWriter.apply} and
 * {@link StoreMutator.apply} take):
 * - `add` / `update`: upsert the object (both insert or replace; client-go's `Add`/`Update`).
 * - `delete`: remove the object's key; a {@link DeletedFinalStateUnknown} is removed by its `key`.
 * - `replace`: the store becomes exactly `items` at `resourceVersion`; every index is rebuilt.
 * - `resourceVersion`: only the store's resource version moves (a bookmark, or the RV of the event
 *   just applied).
 *
 * @example
 * ```ts
 * writer.apply([
 *   { type: 'add', object: pod },
 *   { type: 'delete', object: oldPod },
 *   { type: 'resourceVersion', resourceVersion: '42' },
 * ]);
 * ```
 */
export type StoreChange<T> =
  | { readonly type: 'add' | 'update'; readonly object: T }
  | { readonly type: 'delete'; readonly object: T | DeletedFinalStateUnknown<T> }
  | { readonly type: 'replace'; readonly items: ReadonlyArray<T>; readonly resourceVersion?: string }
  | { readonly type: 'resourceVersion'; readonly resourceVersion: string };
