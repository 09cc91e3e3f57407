import type { KeyFunc } from '../meta/keys.js';
import { deepFreeze } from './deepFreeze.js';
import { metaNamespaceIndexFunc } from './indexers.js';
import { openBatch, type Store } from './store.js';
import { namespaceOf } from './storeDraft.js';
import type { MutationTarget } from './mutationTarget.js';

/**
 * The informer's store between snapshots: its objects in a mutable `Map`, plus the recipe for the
 * next {@link Store} snapshot, which is built only when someone asks for one.
 *
 * Why: a snapshot is a persistent trie, and writing one costs a walk of three or four nodes per
 * event (about 0.6 µs on 10k objects). An informer whose store nobody reads between events (only
 * handlers) pays that for nothing. Here a write is a `Map` write. When a snapshot is asked for, the
 * last one built is brought up to date with the keys changed since (each change is applied once,
 * as the eager store would have), or, once there were as many writes as the store holds objects,
 * built afresh (no dearer than catching up, and the replaced objects the old snapshot held can go).
 *
 * ```
 * writes:     upsert a   upsert b   delete a        upsert c ...
 * items:      {a}        {a,b}      {b}             {b,c}
 * snapshot(): ---------------------------S1({b})--------------S2({b,c}): S1 + the change to c
 * ```
 *
 * It holds only stores whose one index is the built-in namespace index (or none): that index
 * function cannot fail on an object, so nothing an index would reject can be accepted here and
 * fail later, when the snapshot is built. Stores with other indexes are written eagerly.
 *
 * @internal Used by the {@link StoreWriter}'s informer batches.
 * @example
 * ```ts
 * const set = new WorkingSet(store);
 * set.upsert('default/a', pod);
 * set.snapshot(newOwner()).getByKey('default/a'); // pod
 * ```
 */
export class WorkingSet<T> implements MutationTarget<T> {
  /** Whether `store`'s indexes allow a working set: none, or only the built-in namespace index. */
  static canHold<T>(store: Store<T>): boolean {
    const funcs = store.stateOf().indexFuncs;
    return funcs.length === 0 || (funcs.length === 1 && funcs[0] === (metaNamespaceIndexFunc as unknown));
  }

  readonly keyFunc: KeyFunc<T>;
  private items = new Map<string, T>();
  private resourceVersion: string | undefined;
  /** An empty snapshot with the store's options: what a fresh build starts from. */
  private readonly empty: Store<T>;
  private readonly freeze: boolean;
  private readonly namespaced: boolean;
  /** The last snapshot built, while catching it up is cheaper than building a new one. */
  private base: Store<T> | undefined;
  /** The keys written since `base` was built. */
  private dirty = new Set<string>();
  /** The writes since `base` was built (a key written twice counts twice). */
  private changes = 0;

  constructor(store: Store<T>) {
    const state = store.stateOf();
    this.keyFunc = state.keyFunc;
    this.freeze = state.freeze;
    this.namespaced = state.indexFuncs.length === 1;
    this.resourceVersion = state.resourceVersion;
    this.empty = store.withResourceVersion(undefined).replace([]);
    state.items.forEach((obj, key) => this.items.set(key, obj));
    this.base = store;
  }

  get size(): number {
    return this.items.size;
  }

  /** The last snapshot built, if it is still kept (it may be behind the working set). */
  get lastSnapshot(): Store<T> | undefined {
    return this.base;
  }

  getByKey(key: string): T | undefined {
    return this.items.get(key);
  }

  upsert(key: string, obj: T): T | undefined {
    // First, as the namespace index would: an object it cannot read is refused here, not later.
    if (this.namespaced) namespaceOf(obj);
    if (this.freeze) deepFreeze(obj);
    const old = this.items.get(key);
    if (old === obj) return old;
    this.items.set(key, obj);
    this.changed(key);
    return old;
  }

  deleteByKey(key: string): T | undefined {
    const old = this.items.get(key);
    if (old === undefined) return undefined;
    this.items.delete(key);
    this.changed(key);
    return old;
  }

  replace(items: ReadonlyArray<T>, resourceVersion: string | undefined): void {
    // Keys and checks first: all-or-nothing.
    const keys = items.map((obj) => {
      if (this.namespaced) namespaceOf(obj);
      return this.keyFunc(obj);
    });
    const next = new Map<string, T>();
    for (let i = 0; i < items.length; i++) next.set(keys[i], this.freeze ? deepFreeze(items[i]) : items[i]);
    this.items = next;
    if (resourceVersion !== undefined) this.resourceVersion = resourceVersion;
    this.dropBase();
  }

  setResourceVersion(resourceVersion: string): void {
    this.resourceVersion = resourceVersion;
  }

  /**
   * The snapshot of what the working set holds now. Nodes that `owner` created are edited in place
   * (pass the owner of a snapshot nobody was handed, or a new one); see {@link openBatch}.
   */
  snapshot(owner: number): Store<T> {
    const base = this.base;
    if (base !== undefined && this.dirty.size === 0 && base.resourceVersion === this.resourceVersion) return base;
    const batch = openBatch(base ?? this.empty, owner);
    const m = batch.mutator;
    try {
      if (base === undefined) for (const [key, obj] of this.items) m.upsertByKey(key, obj);
      else
        for (const key of this.dirty) {
          const obj = this.items.get(key);
          if (obj === undefined) m.deleteByKey(key);
          else m.upsertByKey(key, obj);
        }
      if (this.resourceVersion !== undefined) m.setResourceVersion(this.resourceVersion);
    } catch (e) {
      // Not expected (every object was checked on the way in); `base` may be half edited: rebuild.
      this.dropBase();
      batch.close();
      throw e;
    }
    this.base = batch.close();
    this.dirty = new Set();
    this.changes = 0;
    return this.base;
  }

  private changed(key: string): void {
    if (this.base === undefined) return;
    // As many writes as objects: a fresh build costs no more than catching up, and lets go of the
    // objects `base` holds that were replaced since. (A list into an empty store keeps no base.)
    if (++this.changes >= this.items.size) this.dropBase();
    else this.dirty.add(key);
  }

  private dropBase(): void {
    this.base = undefined;
    this.dirty = new Set();
    this.changes = 0;
  }
}
