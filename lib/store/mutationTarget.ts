import type { KeyFunc } from '../meta/keys.js';

/**
 * @internal What a {@link StoreMutator} writes to: a draft of a snapshot (`DraftTarget`, a batch on
 * a `Store`) or the informer's working set (`WorkingSet`). Each write is all-or-nothing.
 */
export interface MutationTarget<T> {
  readonly keyFunc: KeyFunc<T>;
  readonly size: number;
  getByKey(key: string): T | undefined;
  /** Stores `obj` under `key` (the key function's key for it); returns the object replaced. */
  upsert(key: string, obj: T): T | undefined;
  deleteByKey(key: string): T | undefined;
  replace(items: ReadonlyArray<T>, resourceVersion: string | undefined): void;
  setResourceVersion(resourceVersion: string): void;
}
