import type { DeletedFinalStateUnknown } from '../meta/deletedFinalStateUnknown.js';
import type { KeyFunc } from '../meta/keys.js';
import { StoreWriteError } from './indexErrors.js';
import type { StoreChange } from './storeChange.js';
import type { MutationTarget } from './mutationTarget.js';
import { keyOf } from './storeDraft.js';

export type { MutationTarget } from './mutationTarget.js';


/**
 * The write handle of one batch ({@link Store.withMutations}, {@link StoreWriter.batch}). Its reads
 * see the batch's own changes. Valid only while the batch runs; using it afterwards throws.
 * Each write is all-or-nothing: if a key or index function throws, that write changes nothing.
 *
 * @example
 * ```ts
 * const next = store.withMutations((m) => {
 *   for (const pod of pods) {
 *     const old = m.upsert(pod);  // the previous object under the key, if any
 *     if (old) console.log('updated', m.keyFunc(pod));
 *   }
 *   m.setResourceVersion('42');
 * });
 * ```
 */
export class StoreMutator<T> {
  private open = true;

  /** @internal Use {@link Store.withMutations} or {@link StoreWriter.batch}. */
  constructor(private readonly target: MutationTarget<T>) {}

  /** The store's key function. */
  get keyFunc(): KeyFunc<T> {
    return this.target.keyFunc;
  }

  /** The number of objects, with this batch's changes. */
  get size(): number {
    return this.target.size;
  }

  /** The object under `obj`'s key, with this batch's changes. */
  get(obj: T | DeletedFinalStateUnknown<T>): T | undefined {
    return this.target.getByKey(keyOf(this.target.keyFunc, obj));
  }

  /** The object under `key`, with this batch's changes. */
  getByKey(key: string): T | undefined {
    return this.target.getByKey(key);
  }

  /** Inserts or replaces `obj` (deep-frozen first with `freeze`). Returns the object it replaced, if any. */
  upsert(obj: T): T | undefined {
    this.check();
    return this.target.upsert(this.target.keyFunc(obj), obj);
  }

  /**
   * {@link upsert} under a key the caller already has (a FIFO pop's): `key` must be what the
   * store's key function gives for `obj`.
   *
   * @example
   * ```ts
   * store.withMutations((m) => m.upsertByKey('default/web-1', pod));
   * ```
   */
  upsertByKey(key: string, obj: T): T | undefined {
    this.check();
    return this.target.upsert(key, obj);
  }

  /** Same as {@link upsert}. */
  add(obj: T): T | undefined {
    return this.upsert(obj);
  }

  /** Same as {@link upsert}. */
  update(obj: T): T | undefined {
    return this.upsert(obj);
  }

  /** Removes `obj`'s key (a tombstone's `key`). Returns the object removed, if any. */
  delete(obj: T | DeletedFinalStateUnknown<T>): T | undefined {
    this.check();
    return this.target.deleteByKey(keyOf(this.target.keyFunc, obj));
  }

  /** Removes `key`. Returns the object removed, if any. */
  deleteByKey(key: string): T | undefined {
    this.check();
    return this.target.deleteByKey(key);
  }

  /**
   * Makes the store hold exactly `items` (a later duplicate key wins) and rebuilds every index.
   * Sets the resource version when one is given. O(n); all-or-nothing.
   */
  replace(items: ReadonlyArray<T>, resourceVersion?: string): void {
    this.check();
    this.target.replace(items, resourceVersion);
  }

  /** Sets the resource version the resulting snapshot is at. */
  setResourceVersion(resourceVersion: string): void {
    this.check();
    this.target.setResourceVersion(resourceVersion);
  }

  /** Applies one {@link StoreChange}. */
  apply(change: StoreChange<T>): void {
    switch (change.type) {
      case 'add':
      case 'update':
        this.upsert(change.object);
        return;
      case 'delete':
        this.delete(change.object);
        return;
      case 'replace':
        this.replace(change.items, change.resourceVersion);
        return;
      case 'resourceVersion':
        this.setResourceVersion(change.resourceVersion);
        return;
    }
  }

  /** @internal Ends the batch: later writes through this mutator throw. */
  close(): void {
    this.open = false;
  }

  private check(): void {
    if (!this.open) throw new StoreWriteError('the batch this StoreMutator belongs to has ended');
  }
}
