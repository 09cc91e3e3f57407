import { DeletedFinalStateUnknown } from '../meta/deletedFinalStateUnknown.js';
import type { KeyFunc } from '../meta/keys.js';
import { deepFreeze } from './deepFreeze.js';
import { InvalidIndexValuesError } from './indexErrors.js';
import { metaNamespaceIndexFunc, type IndexFunc } from './indexers.js';
import type { KubeObjectLike } from '../meta/kubeObject.js';
import { PersistentMap } from './persistentMap.js';
import type { MutationTarget } from './mutationTarget.js';

// Internal to lib/store: the state of a snapshot and the all-or-nothing edits of a draft of it (one
// batch or one change). Store, StoreMutator and createStore are built on these.

/** The keys filed under one index value. The values are unused (`true`). */
export type KeySet = PersistentMap<true>;
/** One index: index value -> keys. A value whose last key goes is removed (no empty sets). */
export type Index = PersistentMap<KeySet>;

export const NO_VALUES: ReadonlyArray<string> = Object.freeze([]);
export const EMPTY_SET: KeySet = PersistentMap.empty<true>();
export const EMPTY_INDEX: Index = PersistentMap.empty<KeySet>();

/** The parts of a snapshot. Names, functions and indexes are parallel arrays (few indexes). */
export interface StoreState<T> {
  readonly keyFunc: KeyFunc<T>;
  readonly indexNames: ReadonlyArray<string>;
  readonly indexFuncs: ReadonlyArray<IndexFunc<T>>;
  readonly items: PersistentMap<T>;
  readonly indices: ReadonlyArray<Index>;
  readonly resourceVersion: string | undefined;
  /** Deep-freeze objects on the way in (`StoreOptions.freeze`). */
  readonly freeze: boolean;
}

/** Files `key` under `value` in `index`. */
export function indexAdd(index: Index, value: string, key: string, owner: number): Index {
  const set = index.get(value) ?? EMPTY_SET;
  const next = set.set(key, true, owner);
  return next === set ? index : index.set(value, next, owner);
}

/** Removes `key` from under `value`; drops `value` when its last key goes (S3). */
export function indexRemove(index: Index, value: string, key: string, owner: number): Index {
  const set = index.get(value);
  if (set === undefined) return index;
  const next = set.delete(key, owner);
  if (next === set) return index;
  return next.size === 0 ? index.delete(value, owner) : index.set(value, next, owner);
}

/** Moves `key` from the `before` values to the `after` values of one index. */
export function indexMove(
  index: Index,
  key: string,
  before: ReadonlyArray<string>,
  after: ReadonlyArray<string>,
  owner: number,
): Index {
  // The common case (a pod changes but stays in its namespace) touches nothing.
  if (before.length === 1 && after.length === 1 && before[0] === after[0]) return index;
  if (before.length + after.length > 16) {
    const b = new Set(before);
    const a = new Set(after);
    for (const v of b) if (!a.has(v)) index = indexRemove(index, v, key, owner);
    for (const v of a) if (!b.has(v)) index = indexAdd(index, v, key, owner);
    return index;
  }
  for (const v of before) if (!after.includes(v)) index = indexRemove(index, v, key, owner);
  for (const v of after) if (!before.includes(v)) index = indexAdd(index, v, key, owner);
  return index;
}

/**
 * `fn(obj)`, checked to be an array of strings: anything else is an {@link InvalidIndexValuesError}
 * thrown before the value is used, so a write stays all-or-nothing.
 */
export function indexValues<T>(name: string, fn: IndexFunc<T>, obj: T): ReadonlyArray<string> {
  const values: unknown = fn(obj);
  if (!Array.isArray(values)) throw new InvalidIndexValuesError(name, values);
  for (let i = 0; i < values.length; i++) {
    if (typeof values[i] !== 'string') throw new InvalidIndexValuesError(name, values);
  }
  return values as ReadonlyArray<string>;
}

/** Builds one index over every item: O(n). */
export function buildIndex<T>(items: PersistentMap<T>, name: string, fn: IndexFunc<T>, owner: number): Index {
  let index = EMPTY_INDEX;
  items.forEach((obj, key) => {
    for (const v of indexValues(name, fn, obj)) index = indexAdd(index, v, key, owner);
  });
  return index;
}

export function keyOf<T>(keyFunc: KeyFunc<T>, obj: T | DeletedFinalStateUnknown<T>): string {
  return obj instanceof DeletedFinalStateUnknown ? obj.key : keyFunc(obj);
}

/** A snapshot being edited: a private copy of the state's mutable parts (one batch or one change). */
export interface Draft<T> {
  readonly keyFunc: KeyFunc<T>;
  readonly indexNames: ReadonlyArray<string>;
  readonly indexFuncs: ReadonlyArray<IndexFunc<T>>;
  items: PersistentMap<T>;
  readonly indices: Index[];
  resourceVersion: string | undefined;
  readonly freeze: boolean;
  /**
   * Whether a write changed an object. A batch that reuses the owner of an unpublished snapshot
   * (the informer's) edits that snapshot's nodes in place, so "same map object" no longer means
   * "same content": this flag does.
   */
  changed: boolean;
}

export function draftOf<T>(state: StoreState<T>): Draft<T> {
  return {
    keyFunc: state.keyFunc,
    indexNames: state.indexNames,
    indexFuncs: state.indexFuncs,
    items: state.items,
    indices: state.indices.slice(),
    resourceVersion: state.resourceVersion,
    freeze: state.freeze,
    changed: false,
  };
}

/**
 * Upserts `obj`; returns the object it replaced. All-or-nothing: the new object's index values come
 * first, then one walk down the trie stores it and finds the old one (no `get` first: at 100k
 * objects each level is a cache miss), then the old object's values; if one of those throws, the
 * old object is put back.
 */
export function draftUpsert<T>(d: Draft<T>, obj: T, owner: number, key = d.keyFunc(obj)): T | undefined {
  if (d.freeze) deepFreeze(obj);
  const funcs = d.indexFuncs;
  const n = funcs.length;
  if (n === 1 && funcs[0] === (metaNamespaceIndexFunc as unknown)) return upsertNamespaced(d, obj, owner, key);
  if (n === 1) {
    // One index: no arrays of value lists.
    const after = indexValues(d.indexNames[0], funcs[0], obj);
    const items = d.items.set(key, obj, owner);
    const old = PersistentMap.replacedValue<T>();
    if (old === obj) return old;
    const before = old === undefined ? NO_VALUES : valuesOrRestore(d, items, key, old, 0, owner);
    d.items = items;
    d.changed = true;
    d.indices[0] = indexMove(d.indices[0], key, before, after, owner);
    return old;
  }
  const before = new Array<ReadonlyArray<string>>(n);
  const after = new Array<ReadonlyArray<string>>(n);
  for (let i = 0; i < n; i++) after[i] = indexValues(d.indexNames[i], funcs[i], obj);
  const items = d.items.set(key, obj, owner);
  const old = PersistentMap.replacedValue<T>();
  if (old === obj) return old;
  for (let i = 0; i < n; i++)
    before[i] = old === undefined ? NO_VALUES : valuesOrRestore(d, items, key, old, i, owner);
  d.items = items;
  d.changed = true;
  for (let i = 0; i < n; i++) d.indices[i] = indexMove(d.indices[i], key, before[i], after[i], owner);
  return old;
}

/** The namespace the built-in namespace index files an object under (as `metaNamespaceIndexFunc`). */
export const namespaceOf = (obj: unknown): string => (obj as KubeObjectLike).metadata?.namespace ?? '';

/**
 * {@link draftUpsert} when the only index is the built-in namespace index (an informer's default):
 * the same result, without building value lists. A change that stays in its namespace, the common
 * case, touches no index at all.
 */
function upsertNamespaced<T>(d: Draft<T>, obj: T, owner: number, key: string): T | undefined {
  const ns = namespaceOf(obj); // first: like the index function, it throws before anything changes
  const items = d.items.set(key, obj, owner);
  const old = PersistentMap.replacedValue<T>();
  if (old === obj) return old;
  d.items = items;
  d.changed = true;
  if (old === undefined) d.indices[0] = indexAdd(d.indices[0], ns, key, owner);
  else {
    const was = namespaceOf(old);
    if (was !== ns) d.indices[0] = indexMove(d.indices[0], key, [was], [ns], owner);
  }
  return old;
}

/**
 * Index `i`'s values of `old`. If its function throws (an index function that failed on an object it
 * indexed before) or returns no array of strings, `key` gets `old` back in the draft (a batch may have edited its own nodes in place, so dropping `items` is
 * not enough) and the error goes on.
 */
export function valuesOrRestore<T>(
  d: Draft<T>,
  items: PersistentMap<T>,
  key: string,
  old: T,
  i: number,
  owner: number,
): ReadonlyArray<string> {
  try {
    return indexValues(d.indexNames[i], d.indexFuncs[i], old);
  } catch (e) {
    d.items = items.set(key, old, owner);
    throw e;
  }
}

/** Removes `key`; returns the object removed. All-or-nothing. */
export function draftDeleteKey<T>(d: Draft<T>, key: string, owner: number): T | undefined {
  const old = d.items.get(key);
  if (old === undefined) return undefined;
  const funcs = d.indexFuncs;
  const before = new Array<ReadonlyArray<string>>(funcs.length);
  for (let i = 0; i < funcs.length; i++) before[i] = indexValues(d.indexNames[i], funcs[i], old);
  d.items = d.items.delete(key, owner);
  d.changed = true;
  for (let i = 0; i < funcs.length; i++)
    d.indices[i] = indexMove(d.indices[i], key, before[i], NO_VALUES, owner);
  return old;
}

/** Makes the draft hold exactly `items`, every index rebuilt. All-or-nothing. */
export function draftReplace<T>(
  d: Draft<T>,
  items: ReadonlyArray<T>,
  resourceVersion: string | undefined,
  owner: number,
): void {
  let next = PersistentMap.empty<T>();
  for (const obj of items) next = next.set(d.keyFunc(obj), d.freeze ? deepFreeze(obj) : obj, owner);
  const built = d.indexFuncs.map((fn, i) => buildIndex(next, d.indexNames[i], fn, owner));
  d.items = next;
  d.changed = true;
  for (let i = 0; i < built.length; i++) d.indices[i] = built[i];
  if (resourceVersion !== undefined) d.resourceVersion = resourceVersion;
}

/** The {@link MutationTarget} of a batch on a snapshot: edits of a draft, under the batch's owner. */
export class DraftTarget<T> implements MutationTarget<T> {
  constructor(
    private readonly draft: Draft<T>,
    private readonly owner: number,
  ) {}

  get keyFunc(): KeyFunc<T> {
    return this.draft.keyFunc;
  }

  get size(): number {
    return this.draft.items.size;
  }

  getByKey(key: string): T | undefined {
    return this.draft.items.get(key);
  }

  upsert(key: string, obj: T): T | undefined {
    return draftUpsert(this.draft, obj, this.owner, key);
  }

  deleteByKey(key: string): T | undefined {
    return draftDeleteKey(this.draft, key, this.owner);
  }

  replace(items: ReadonlyArray<T>, resourceVersion: string | undefined): void {
    draftReplace(this.draft, items, resourceVersion, this.owner);
  }

  setResourceVersion(resourceVersion: string): void {
    this.draft.resourceVersion = resourceVersion;
  }
}
