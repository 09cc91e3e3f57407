import type { DeletedFinalStateUnknown } from '../meta/deletedFinalStateUnknown.js';
import type { KeyFunc } from '../meta/keys.js';
import { metaNamespaceKeyFunc } from '../meta/keys.js';
import type { KubeObject } from '../meta/kubeObject.js';
import { checkIndexers, IndexConflictError, IndexNotFoundError } from './indexErrors.js';
import type { IndexFunc, Indexers } from './indexers.js';
import { metaNamespaceIndexFunc, NamespaceIndex } from './indexers.js';
import { newOwner, PersistentMap } from './persistentMap.js';
import {
  buildIndex,
  draftDeleteKey,
  draftOf,
  draftReplace,
  draftUpsert,
  DraftTarget,
  EMPTY_INDEX,
  indexValues,
  keyOf,
  type Draft,
  type Index,
  type StoreState,
} from './storeDraft.js';
import { StoreMutator } from './storeMutator.js';

export { StoreMutator } from './storeMutator.js';


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

/** The snapshot a finished draft makes: `store` itself when nothing changed. */
function finish<T>(store: Store<T>, base: StoreState<T>, draft: Draft<T>): Store<T> {
  if (!draft.changed && draft.items === base.items && draft.resourceVersion === base.resourceVersion) {
    let same = true;
    for (let i = 0; i < draft.indices.length; i++) same &&= draft.indices[i] === base.indices[i];
    if (same) return store;
  }
  return new Store<T>(draft);
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
    const values = indexValues(indexName, this.state.indexFuncs[i], obj);
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
    checkIndexers(indexers);
    const names = Object.keys(indexers);
    const clash = names.filter((n) => this.state.indexNames.includes(n));
    if (clash.length > 0) throw new IndexConflictError(clash);
    if (names.length === 0) return this;
    const owner = newOwner();
    const funcs = names.map((n) => indexers[n]);
    const built = funcs.map((fn, i) => buildIndex(this.state.items, names[i], fn, owner));
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
 * @internal A batch on `store` whose new nodes belong to `owner`: its mutator, and `close`, which
 * ends the batch and gives the resulting snapshot. With a fresh owner (`newOwner()`) `store` is left
 * as it was; with the owner of an earlier batch whose snapshot nobody else has seen (the writer's
 * `batchInPlace`), that batch's nodes are edited in place.
 */
export function openBatch<T>(store: Store<T>, owner: number): { mutator: StoreMutator<T>; close(): Store<T> } {
  const base = store.stateOf();
  const draft = draftOf(base);
  const mutator = new StoreMutator<T>(new DraftTarget(draft, owner));
  return {
    mutator,
    close: () => {
      mutator.close();
      return finish(store, base, draft);
    },
  };
}

/**
 * @internal Runs a batch on `store`, returning the new snapshot and `fn`'s result; if `fn` throws,
 * `store` is unchanged. Used by {@link Store.withMutations} and the writer's `batch`.
 */
export function mutate<T, R>(
  store: Store<T>,
  fn: (mutator: StoreMutator<T>) => R,
): { store: Store<T>; result: R } {
  const batch = openBatch(store, newOwner());
  let result: R;
  try {
    result = fn(batch.mutator);
  } catch (e) {
    batch.mutator.close();
    throw e;
  }
  return { store: batch.close(), result };
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
  if (options.indexers !== undefined) checkIndexers(options.indexers);
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
