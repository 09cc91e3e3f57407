import { DeletedFinalStateUnknown } from '../fifo/deletedFinalStateUnknown.js';
import type { KeyFunc } from '../meta/keys.js';
import { metaNamespaceKeyFunc } from '../meta/keys.js';
import type { KubeObject } from '../meta/kubeObject.js';
import { deepFreeze } from './deepFreeze.js';
import { IndexConflictError, IndexNotFoundError, StoreWriteError } from './indexErrors.js';
import type { IndexFunc, Indexers } from './indexers.js';
import { metaNamespaceIndexFunc, NamespaceIndex } from './indexers.js';
import { newOwner, PersistentMap } from './persistentMap.js';
import type { StoreChange } from './storeChange.js';

/** The keys filed under one index value. The values are unused (`true`). */
type KeySet = PersistentMap<true>;
/** One index: index value -> keys. A value whose last key goes is removed (no empty sets). */
type Index = PersistentMap<KeySet>;

const NO_VALUES: ReadonlyArray<string> = Object.freeze([]);
const EMPTY_SET: KeySet = PersistentMap.empty<true>();
const EMPTY_INDEX: Index = PersistentMap.empty<KeySet>();

/**
 * Options of {@link createStore} and {@link storeWriter}.
 *
 * @example
 * ```ts
 * const options: StoreOptions<V1Pod> = { indexers: { byNode: (p) => [p.spec?.nodeName ?? ''] } };
 * ```
 */
export interface StoreOptions<T> {
  /** Computes an object's key. Default {@link metaNamespaceKeyFunc} (`namespace/name`). */
  readonly keyFunc?: KeyFunc<T>;
  /**
   * Named index functions. The store also has the {@link NamespaceIndex} (`namespace`) index unless
   * `namespaceIndex` is false; an indexer of yours named `namespace` replaces it.
   */
  readonly indexers?: Indexers<T>;
  /** Whether to add the default `namespace` index. Default true. */
  readonly namespaceIndex?: boolean;
  /**
   * Deep-freeze every object on its way in ({@link deepFreeze}): opt-in mutation detection, the
   * equivalent of client-go's cache mutation detector. A handler or reader that mutates a stored
   * object then throws a `TypeError` (strict mode) instead of corrupting the cache silently.
   * Default false (it costs about 13 µs per 4 KB pod); recommended in tests.
   */
  readonly freeze?: boolean;
}

/** The parts of a snapshot. Names, functions and indexes are parallel arrays (few indexes). */
interface StoreState<T> {
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
function indexAdd(index: Index, value: string, key: string, owner: number): Index {
  const set = index.get(value) ?? EMPTY_SET;
  const next = set.set(key, true, owner);
  return next === set ? index : index.set(value, next, owner);
}

/** Removes `key` from under `value`; drops `value` when its last key goes (S3). */
function indexRemove(index: Index, value: string, key: string, owner: number): Index {
  const set = index.get(value);
  if (set === undefined) return index;
  const next = set.delete(key, owner);
  if (next === set) return index;
  return next.size === 0 ? index.delete(value, owner) : index.set(value, next, owner);
}

/** Moves `key` from the `before` values to the `after` values of one index. */
function indexMove(
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

/** Builds one index over every item: O(n). */
function buildIndex<T>(items: PersistentMap<T>, fn: IndexFunc<T>, owner: number): Index {
  let index = EMPTY_INDEX;
  items.forEach((obj, key) => {
    for (const v of fn(obj)) index = indexAdd(index, v, key, owner);
  });
  return index;
}

function keyOf<T>(keyFunc: KeyFunc<T>, obj: T | DeletedFinalStateUnknown<T>): string {
  return obj instanceof DeletedFinalStateUnknown ? obj.key : keyFunc(obj);
}

/** A snapshot being edited: a private copy of the state's mutable parts (one batch or one change). */
interface Draft<T> {
  readonly keyFunc: KeyFunc<T>;
  readonly indexNames: ReadonlyArray<string>;
  readonly indexFuncs: ReadonlyArray<IndexFunc<T>>;
  items: PersistentMap<T>;
  readonly indices: Index[];
  resourceVersion: string | undefined;
  readonly freeze: boolean;
}

function draftOf<T>(state: StoreState<T>): Draft<T> {
  return {
    keyFunc: state.keyFunc,
    indexNames: state.indexNames,
    indexFuncs: state.indexFuncs,
    items: state.items,
    indices: state.indices.slice(),
    resourceVersion: state.resourceVersion,
    freeze: state.freeze,
  };
}

/** The snapshot a finished draft makes: `store` itself when nothing changed. */
function finish<T>(store: Store<T>, base: StoreState<T>, draft: Draft<T>): Store<T> {
  if (draft.items === base.items && draft.resourceVersion === base.resourceVersion) {
    let same = true;
    for (let i = 0; i < draft.indices.length; i++) same &&= draft.indices[i] === base.indices[i];
    if (same) return store;
  }
  return new Store<T>(draft);
}

/**
 * Upserts `obj`; returns the object it replaced. All-or-nothing: the new object's index values come
 * first, then one walk down the trie stores it and finds the old one (no `get` first: at 100k
 * objects each level is a cache miss), then the old object's values; if one of those throws, the
 * old object is put back.
 */
function draftUpsert<T>(d: Draft<T>, obj: T, owner: number): T | undefined {
  const key = d.keyFunc(obj);
  if (d.freeze) deepFreeze(obj);
  const funcs = d.indexFuncs;
  const n = funcs.length;
  if (n === 1) {
    // The common case (the namespace index only): no arrays of value lists.
    const after = funcs[0](obj);
    const items = d.items.set(key, obj, owner);
    const old = PersistentMap.replacedValue<T>();
    if (old === obj) return old;
    const before = old === undefined ? NO_VALUES : valuesOrRestore(d, items, key, old, funcs[0], owner);
    d.items = items;
    d.indices[0] = indexMove(d.indices[0], key, before, after, owner);
    return old;
  }
  const before = new Array<ReadonlyArray<string>>(n);
  const after = new Array<ReadonlyArray<string>>(n);
  for (let i = 0; i < n; i++) after[i] = funcs[i](obj);
  const items = d.items.set(key, obj, owner);
  const old = PersistentMap.replacedValue<T>();
  if (old === obj) return old;
  for (let i = 0; i < n; i++)
    before[i] = old === undefined ? NO_VALUES : valuesOrRestore(d, items, key, old, funcs[i], owner);
  d.items = items;
  for (let i = 0; i < n; i++) d.indices[i] = indexMove(d.indices[i], key, before[i], after[i], owner);
  return old;
}

/**
 * `fn(old)`. If it throws (an index function that failed on an object it indexed before), `key` gets
 * `old` back in the draft (a batch may have edited its own nodes in place, so dropping `items` is
 * not enough) and the error goes on.
 */
function valuesOrRestore<T>(
  d: Draft<T>,
  items: PersistentMap<T>,
  key: string,
  old: T,
  fn: IndexFunc<T>,
  owner: number,
): ReadonlyArray<string> {
  try {
    return fn(old);
  } catch (e) {
    d.items = items.set(key, old, owner);
    throw e;
  }
}

/** Removes `key`; returns the object removed. All-or-nothing. */
function draftDeleteKey<T>(d: Draft<T>, key: string, owner: number): T | undefined {
  const old = d.items.get(key);
  if (old === undefined) return undefined;
  const funcs = d.indexFuncs;
  const before = new Array<ReadonlyArray<string>>(funcs.length);
  for (let i = 0; i < funcs.length; i++) before[i] = funcs[i](old);
  d.items = d.items.delete(key, owner);
  for (let i = 0; i < funcs.length; i++)
    d.indices[i] = indexMove(d.indices[i], key, before[i], NO_VALUES, owner);
  return old;
}

/** Makes the draft hold exactly `items`, every index rebuilt. All-or-nothing. */
function draftReplace<T>(
  d: Draft<T>,
  items: ReadonlyArray<T>,
  resourceVersion: string | undefined,
  owner: number,
): void {
  let next = PersistentMap.empty<T>();
  for (const obj of items) next = next.set(d.keyFunc(obj), d.freeze ? deepFreeze(obj) : obj, owner);
  const built = d.indexFuncs.map((fn) => buildIndex(next, fn, owner));
  d.items = next;
  for (let i = 0; i < built.length; i++) d.indices[i] = built[i];
  if (resourceVersion !== undefined) d.resourceVersion = resourceVersion;
}

/**
 * An immutable snapshot of the informer's cache: key -> object, plus named indexes (client-go's
 * `Indexer` / `ThreadSafeStore`, kube-rs's `Store`). Reads never change; a transition (`add`,
 * `update`, `delete`, `replace`, `addIndexers`, `withMutations`) returns a new snapshot and leaves
 * this one as it was, so a snapshot can be kept, compared and read at leisure while the informer
 * moves on.
 *
 * Costs (n objects): `get`/`getByKey` O(log32 n); `add`/`update`/`delete` O(log32 n) plus, per
 * index whose values changed, O(log32 n) (structure sharing: nothing is copied per event but the
 * path to the changed entry); `byIndex`/`indexKeys` O(m log32 n) for m results; `list`/`listKeys`
 * O(n) on the first call, then cached for the snapshot; `replace` and `addIndexers` O(n).
 *
 * Objects are stored as given: never mutate one (change a copy, e.g. with immer's `produce`). With
 * `freeze: true` they are deeply frozen on the way in ({@link deepFreeze}), so a mutation throws.
 * Iteration order (`list`, `listKeys`, `byIndex`) is unspecified, as in client-go.
 *
 * @example
 * ```ts
 * const s0 = createStore<V1Pod>({ indexers: { byNode: (p) => [p.spec?.nodeName ?? ''] } });
 * const s1 = s0.add(pod).add(otherPod);
 * s1.getByKey('default/web-1');        // pod
 * s1.byIndex('namespace', 'default');  // [pod, otherPod]
 * s1.byIndex('byNode', 'node-1');      // pods on node-1
 * s0.size;                             // 0: snapshots never change
 * ```
 */
export class Store<T> {
  private listCache: ReadonlyArray<T> | undefined;
  private keysCache: ReadonlyArray<string> | undefined;

  /** @internal Use {@link createStore} or {@link storeWriter}. */
  constructor(private readonly state: StoreState<T>) {}

  /** The number of objects. */
  get size(): number {
    return this.state.items.size;
  }

  /** The resource version this snapshot is at (set by the writer: list RV, event RV, bookmark). */
  get resourceVersion(): string | undefined {
    return this.state.resourceVersion;
  }

  /** The key function objects are keyed with. */
  get keyFunc(): KeyFunc<T> {
    return this.state.keyFunc;
  }

  /** The object stored under `obj`'s key (`obj` may be a newer version, or a tombstone). */
  get(obj: T | DeletedFinalStateUnknown<T>): T | undefined {
    return this.state.items.get(keyOf(this.state.keyFunc, obj));
  }

  /** The object stored under `key`. O(log32 n). */
  getByKey(key: string): T | undefined {
    return this.state.items.get(key);
  }

  /** Every object (frozen array, built once per snapshot: O(n) the first time). */
  list(): ReadonlyArray<T> {
    this.listCache ??= Object.freeze(this.state.items.values());
    return this.listCache;
  }

  /** Every key (frozen array, built once per snapshot: O(n) the first time). */
  listKeys(): ReadonlyArray<string> {
    this.keysCache ??= Object.freeze(this.state.items.keys());
    return this.keysCache;
  }

  /** The names of this store's indexes. */
  indexNames(): ReadonlyArray<string> {
    return this.state.indexNames;
  }

  /** client-go's `GetIndexers`: index name -> index function. */
  getIndexers(): Indexers<T> {
    const out: Record<string, IndexFunc<T>> = {};
    this.state.indexNames.forEach((name, i) => (out[name] = this.state.indexFuncs[i]));
    return out;
  }

  /** The objects filed under `value` in index `indexName`. Throws {@link IndexNotFoundError}. */
  byIndex(indexName: string, value: string): T[] {
    const set = this.indexOf(indexName).get(value);
    if (set === undefined) return [];
    const items = this.state.items;
    const out = new Array<T>(set.size);
    let i = 0;
    set.forEach((_t, key) => {
      out[i++] = items.get(key) as T;
    });
    return out;
  }

  /** The keys filed under `value` in index `indexName`. Throws {@link IndexNotFoundError}. */
  indexKeys(indexName: string, value: string): string[] {
    const set = this.indexOf(indexName).get(value);
    return set === undefined ? [] : set.keys();
  }

  /** Every value index `indexName` has at least one object under. Throws {@link IndexNotFoundError}. */
  listIndexFuncValues(indexName: string): string[] {
    return this.indexOf(indexName).keys();
  }

  /**
   * client-go's `Index`: the objects that share at least one index value with `obj` (the union over
   * `obj`'s values, each object once). Throws {@link IndexNotFoundError}.
   */
  index(indexName: string, obj: T): T[] {
    const i = this.indexPosition(indexName);
    const values = this.state.indexFuncs[i](obj);
    if (values.length === 1) return this.byIndex(indexName, values[0]);
    const index = this.state.indices[i];
    const keys = new Set<string>();
    for (const v of values) index.get(v)?.forEach((_t, key) => keys.add(key));
    const out: T[] = [];
    for (const key of keys) out.push(this.state.items.get(key) as T);
    return out;
  }

  /** A snapshot with `obj` inserted or replacing the object under its key (frozen first with `freeze`). */
  add(obj: T): Store<T> {
    const d = draftOf(this.state);
    draftUpsert(d, obj, newOwner());
    return finish(this, this.state, d);
  }

  /** Same as {@link add} (client-go's `Update` is an upsert too). */
  update(obj: T): Store<T> {
    return this.add(obj);
  }

  /** A snapshot without `obj`'s key (a tombstone is removed by its key). Unknown key: this snapshot. */
  delete(obj: T | DeletedFinalStateUnknown<T>): Store<T> {
    return this.deleteByKey(keyOf(this.state.keyFunc, obj));
  }

  /** A snapshot without `key`. */
  deleteByKey(key: string): Store<T> {
    if (this.state.items.get(key) === undefined) return this;
    const d = draftOf(this.state);
    draftDeleteKey(d, key, newOwner());
    return finish(this, this.state, d);
  }

  /** A snapshot holding exactly `items` (later duplicates win), every index rebuilt. O(n). */
  replace(items: ReadonlyArray<T>, resourceVersion?: string): Store<T> {
    const d = draftOf(this.state);
    draftReplace(d, items, resourceVersion, newOwner());
    return finish(this, this.state, d);
  }

  /** This snapshot at another resource version. */
  withResourceVersion(resourceVersion: string | undefined): Store<T> {
    return resourceVersion === this.state.resourceVersion
      ? this
      : new Store({ ...this.state, resourceVersion });
  }

  /**
   * A snapshot with more indexes, built over the objects already stored (O(n) each). A name this
   * store already has throws {@link IndexConflictError} and adds nothing.
   */
  addIndexers(indexers: Indexers<T>): Store<T> {
    const names = Object.keys(indexers);
    const clash = names.filter((n) => this.state.indexNames.includes(n));
    if (clash.length > 0) throw new IndexConflictError(clash);
    if (names.length === 0) return this;
    const owner = newOwner();
    const funcs = names.map((n) => indexers[n]);
    const built = funcs.map((fn) => buildIndex(this.state.items, fn, owner));
    return new Store({
      ...this.state,
      indexNames: [...this.state.indexNames, ...names],
      indexFuncs: [...this.state.indexFuncs, ...funcs],
      indices: [...this.state.indices, ...built],
    });
  }

  /**
   * Batch mode (immutable.js's `withMutations`): `fn` applies any number of changes through a
   * {@link StoreMutator}, and one new snapshot comes out. Nodes created inside the batch are edited
   * in place, so a batch of k changes costs less than k single changes and allocates one snapshot.
   * If `fn` throws, no snapshot is produced and this one is unchanged. Returns this snapshot when
   * nothing changed.
   */
  withMutations(fn: (mutator: StoreMutator<T>) => void): Store<T> {
    return mutate(this, fn).store;
  }

  /** @internal */
  stateOf(): StoreState<T> {
    return this.state;
  }

  private indexPosition(indexName: string): number {
    const i = this.state.indexNames.indexOf(indexName);
    if (i < 0) throw new IndexNotFoundError(indexName);
    return i;
  }

  private indexOf(indexName: string): Index {
    return this.state.indices[this.indexPosition(indexName)];
  }
}

/**
 * @internal Runs a batch on `store`, returning the new snapshot and `fn`'s result. Used by
 * {@link Store.withMutations} and the writer's `batch`.
 */
export function mutate<T, R>(
  store: Store<T>,
  fn: (mutator: StoreMutator<T>) => R,
): { store: Store<T>; result: R } {
  const base = store.stateOf();
  const draft = draftOf(base);
  const mutator = new StoreMutator<T>(draft);
  let result: R;
  try {
    result = fn(mutator);
  } finally {
    mutator.close();
  }
  return { store: finish(store, base, draft), result };
}

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
  private readonly owner = newOwner();
  private open = true;

  /** @internal Use {@link Store.withMutations} or {@link StoreWriter.batch}. */
  constructor(private readonly draft: Draft<T>) {}

  /** The store's key function. */
  get keyFunc(): KeyFunc<T> {
    return this.draft.keyFunc;
  }

  /** The number of objects, with this batch's changes. */
  get size(): number {
    return this.draft.items.size;
  }

  /** The object under `obj`'s key, with this batch's changes. */
  get(obj: T | DeletedFinalStateUnknown<T>): T | undefined {
    return this.draft.items.get(keyOf(this.draft.keyFunc, obj));
  }

  /** The object under `key`, with this batch's changes. */
  getByKey(key: string): T | undefined {
    return this.draft.items.get(key);
  }

  /** Inserts or replaces `obj` (deep-frozen first with `freeze`). Returns the object it replaced, if any. */
  upsert(obj: T): T | undefined {
    this.check();
    return draftUpsert(this.draft, obj, this.owner);
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
    return draftDeleteKey(this.draft, keyOf(this.draft.keyFunc, obj), this.owner);
  }

  /** Removes `key`. Returns the object removed, if any. */
  deleteByKey(key: string): T | undefined {
    this.check();
    return draftDeleteKey(this.draft, key, this.owner);
  }

  /**
   * Makes the store hold exactly `items` (a later duplicate key wins) and rebuilds every index.
   * Sets the resource version when one is given. O(n); all-or-nothing.
   */
  replace(items: ReadonlyArray<T>, resourceVersion?: string): void {
    this.check();
    draftReplace(this.draft, items, resourceVersion, this.owner);
  }

  /** Sets the resource version the resulting snapshot is at. */
  setResourceVersion(resourceVersion: string): void {
    this.check();
    this.draft.resourceVersion = resourceVersion;
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

  /** @internal Ends the batch: the owner number is retired with this mutator. */
  close(): void {
    this.open = false;
  }

  private check(): void {
    if (!this.open) throw new StoreWriteError('the batch this StoreMutator belongs to has ended');
  }
}

/**
 * An empty {@link Store} with the given key function and indexes (the `namespace` index by default).
 *
 * @example
 * ```ts
 * const store = createStore<V1Pod>({ indexers: { byNode: (p) => (p.spec?.nodeName ? [p.spec.nodeName] : []) } })
 *   .replace(pods, '1234');
 * store.byIndex('byNode', 'node-1');
 * ```
 */
export function createStore<T = KubeObject>(options: StoreOptions<T> = {}): Store<T> {
  const indexers: Record<string, IndexFunc<T>> = {};
  if (options.namespaceIndex !== false) {
    indexers[NamespaceIndex] = metaNamespaceIndexFunc as unknown as IndexFunc<T>;
  }
  Object.assign(indexers, options.indexers);
  const names = Object.keys(indexers);
  return new Store<T>({
    keyFunc: options.keyFunc ?? (metaNamespaceKeyFunc as unknown as KeyFunc<T>),
    indexNames: names,
    indexFuncs: names.map((n) => indexers[n]),
    items: PersistentMap.empty<T>(),
    indices: names.map(() => EMPTY_INDEX),
    resourceVersion: undefined,
    freeze: options.freeze === true,
  });
}
