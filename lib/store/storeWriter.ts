import { Observable, Subject } from 'rxjs';
import type { DeletedFinalStateUnknown } from '../meta/deletedFinalStateUnknown.js';
import type { KubeObject } from '../meta/kubeObject.js';
import { StoreWriteError } from './indexErrors.js';
import type { Indexers } from './indexers.js';
import type { StoreOptions } from './store.js';
import { newOwner } from './persistentMap.js';
import { createStore, mutate, openBatch, Store } from './store.js';
import { keyOf } from './storeDraft.js';
import { StoreMutator } from './storeMutator.js';
import { WorkingSet } from './workingSet.js';
import type { StoreChange } from './storeChange.js';

/**
 * The single writer of a store (kube-rs's `Writer`): it holds the current {@link Store} snapshot,
 * turns writes into new snapshots, and publishes each new snapshot on `store$`.
 *
 * `store$` replays the current snapshot to every new subscriber, then emits each new one (as a
 * `BehaviorSubject` does). A write that changes nothing emits nothing. A batch emits once.
 *
 * ```
 * writes:   replace([a,b],'10')   add(c)   batch{upd a; del b}   complete()
 * store$:   S0 --------S1-------------S2------------S3-----------------|
 * late subscriber:                        S2 -------S3-----------------|
 * ```
 *
 * Don't write from inside a `store$` subscriber: writes are synchronous, so a nested write would be
 * seen by later subscribers before the snapshot that triggered it.
 *
 * @example
 * ```ts
 * const writer = storeWriter<V1Pod>();
 * writer.store$.subscribe((store) => console.log(store.size, store.resourceVersion));
 * writer.replace(pods, '100');
 * writer.batch((m) => {
 *   for (const pod of burst) m.upsert(pod);
 *   m.setResourceVersion('104');
 * });
 * writer.current.byIndex('namespace', 'default');
 * ```
 */
export class StoreWriter<T> {
  /**
   * Where the current content is: a snapshot, or the informer's {@link WorkingSet} (from the first
   * {@link batchInPlace} on a store it can hold, until another kind of write).
   */
  private head: Head<T>;
  /** Every new snapshot, for `store$` subscribers (not a BehaviorSubject: see {@link store$}). */
  private readonly subject = new Subject<Store<T>>();
  private inBatch = false;
  private completed = false;
  /**
   * The owner of the current snapshot's newest nodes while that snapshot has been handed to no one
   * (no `current` read, no `store$` subscriber): the next {@link batchInPlace} (or the working
   * set's next snapshot) may then edit them in place, as nobody can tell. Handing it out clears it.
   */
  private unseenOwner: number | undefined;

  /**
   * Every snapshot, starting with the current one for each new subscriber (as a `BehaviorSubject`,
   * whose value would keep a snapshot the working set has moved past, and the objects it holds).
   */
  readonly store$: Observable<Store<T>>;

  constructor(initial: Store<T>) {
    this.head = { kind: 'snapshot', store: initial };
    this.store$ = new Observable<Store<T>>((subscriber) => {
      const inner = this.subject.subscribe(subscriber);
      if (!subscriber.closed) subscriber.next(this.current);
      return inner;
    });
  }

  /** The current snapshot (synchronous). */
  get current(): Store<T> {
    const store = this.peek();
    this.unseenOwner = undefined; // handed out
    return store;
  }

  /**
   * @internal The current snapshot for a read that keeps no reference to it (a `getByKey`, a
   * `list()`): unlike {@link current}, it lets the next {@link batchInPlace} edit it in place.
   */
  peek(): Store<T> {
    if (this.head.kind === 'snapshot') return this.head.store;
    const owner = this.unseenOwner ?? newOwner();
    const store = this.head.set.snapshot(owner);
    this.unseenOwner = owner;
    return store;
  }

  /**
   * @internal The object under `key` now, read without building a snapshot (the FIFO asks this for
   * every deletion it is told of; the informer's `getByKey`).
   */
  peekByKey(key: string): T | undefined {
    return this.head.kind === 'snapshot' ? this.head.store.getByKey(key) : this.head.set.getByKey(key);
  }

  /**
   * @internal The object stored under `obj`'s key now (the informer's `get`), read as
   * {@link peekByKey} reads; a key function that throws throws here, as `Store.get` would.
   */
  peekByObject(obj: T | DeletedFinalStateUnknown<T>): T | undefined {
    if (this.head.kind === 'snapshot') return this.head.store.get(obj);
    return this.head.set.getByKey(keyOf(this.head.set.keyFunc, obj));
  }

  /** Upserts `obj` (see {@link Store.add}). Returns the new current snapshot. */
  add(obj: T): Store<T> {
    return this.publish((s) => s.add(obj));
  }

  /** Upserts `obj` (see {@link Store.update}). Returns the new current snapshot. */
  update(obj: T): Store<T> {
    return this.publish((s) => s.update(obj));
  }

  /**
   * Upserts `obj` as {@link add} does, but returns the object it replaced (`undefined` if the key
   * was new) rather than the snapshot: what an informer needs to tell an add from an update.
   */
  upsert(obj: T): T | undefined {
    return this.batch((m) => m.upsert(obj));
  }

  /** Removes `obj`'s key, or a tombstone's key. Returns the new current snapshot. */
  delete(obj: T | DeletedFinalStateUnknown<T>): Store<T> {
    return this.publish((s) => s.delete(obj));
  }

  /** Replaces everything and rebuilds every index (a relist). Returns the new current snapshot. */
  replace(items: ReadonlyArray<T>, resourceVersion?: string): Store<T> {
    return this.publish((s) => s.replace(items, resourceVersion));
  }

  /** Moves the resource version only (e.g. a bookmark). Returns the new current snapshot. */
  setResourceVersion(resourceVersion: string): Store<T> {
    return this.publish((s) => s.withResourceVersion(resourceVersion));
  }

  /**
   * Adds indexes, built over the objects already stored; works while the informer runs (the next
   * snapshot has them). A clashing name throws {@link IndexConflictError}; nothing changes.
   */
  addIndexers(indexers: Indexers<T>): Store<T> {
    return this.publish((s) => s.addIndexers(indexers));
  }

  /** Applies one change or a list of changes as one batch: one new snapshot, one emission. */
  apply(changes: StoreChange<T> | Iterable<StoreChange<T>>): Store<T> {
    const list: Iterable<StoreChange<T>> = isChange(changes) ? [changes] : changes;
    this.batch((m) => {
      for (const change of list) m.apply(change);
    });
    return this.current;
  }

  /**
   * Runs `fn` as one batch (see {@link Store.withMutations}): any number of changes, one new
   * snapshot, one emission. Returns `fn`'s result. If `fn` throws, nothing is published.
   */
  batch<R>(fn: (mutator: StoreMutator<T>) => R): R {
    this.checkWritable();
    this.inBatch = true;
    let out: { store: Store<T>; result: R };
    const before = this.current; // its nodes are shared with the result, which will be emitted
    try {
      out = mutate(before, fn);
    } finally {
      this.inBatch = false;
    }
    this.head = { kind: 'snapshot', store: out.store };
    this.emit(before, out.store);
    return out.result;
  }

  /**
   * @internal The informer's batch: {@link batch}, made cheaper in two ways that nobody can see.
   * A store whose only index is the namespace index (an informer's default) is written as a
   * {@link WorkingSet}: `Map` writes, and a snapshot built when one is asked for (at the end of the
   * batch if `store$` has subscribers). Any other store is written as a snapshot, and when the
   * current one was never handed out since it was made, its newest nodes are edited in place. If
   * `fn` throws, the writes it made before are kept and published (each write is all-or-nothing),
   * then the error goes on. Index functions must not read the store.
   */
  batchInPlace<R>(fn: (mutator: StoreMutator<T>) => R): R {
    this.checkWritable();
    const set = this.workingSet();
    return set === undefined ? this.batchOnSnapshot(fn) : this.batchOnWorkingSet(set, fn);
  }

  /** Completes `store$` (the informer stopped). Later writes throw {@link StoreWriteError}. */
  complete(): void {
    if (this.completed) return;
    this.completed = true;
    this.subject.complete();
  }

  /** The working set, made from the current snapshot if the store can use one; else `undefined`. */
  private workingSet(): WorkingSet<T> | undefined {
    if (this.head.kind === 'working') return this.head.set;
    if (!WorkingSet.canHold(this.head.store)) return undefined;
    const set = new WorkingSet(this.head.store);
    this.head = { kind: 'working', set };
    return set;
  }

  /**
   * An informer batch on the working set: `Map` writes. A snapshot is built only if someone is
   * subscribed to `store$` (then it is emitted); otherwise when someone asks for it.
   */
  private batchOnWorkingSet<R>(set: WorkingSet<T>, fn: (mutator: StoreMutator<T>) => R): R {
    const mutator = new StoreMutator<T>(set);
    this.inBatch = true;
    try {
      return fn(mutator);
    } finally {
      this.inBatch = false;
      mutator.close();
      if (this.subject.observed) {
        const before = set.lastSnapshot;
        const next = set.snapshot(this.unseenOwner ?? newOwner());
        this.unseenOwner = undefined; // emitted: handed out
        this.emit(before, next);
      }
    }
  }

  /** An informer batch on a snapshot (a store with indexes of its own), edited in place if unseen. */
  private batchOnSnapshot<R>(fn: (mutator: StoreMutator<T>) => R): R {
    const before = this.peek();
    const owner = this.unseenOwner ?? newOwner();
    this.unseenOwner = undefined;
    const batch = openBatch(before, owner);
    this.inBatch = true;
    try {
      return fn(batch.mutator);
    } finally {
      this.inBatch = false;
      // Emitted to a subscriber it is out of our hands, even one that unsubscribes on receiving it
      // (take(1)): ask before emitting. Otherwise the next batch may edit it.
      const handedOut = this.subject.observed;
      const next = batch.close();
      this.head = { kind: 'snapshot', store: next };
      this.emit(before, next);
      if (!handedOut && !this.subject.observed) this.unseenOwner = owner;
    }
  }

  private publish(transition: (store: Store<T>) => Store<T>): Store<T> {
    this.checkWritable();
    const before = this.current;
    const next = transition(before); // returned to the caller: handed out
    this.head = { kind: 'snapshot', store: next };
    this.emit(before, next);
    return next;
  }

  /** Publishes `next` unless it is `before` (a write that changed nothing emits nothing). */
  private emit(before: Store<T> | undefined, next: Store<T>): void {
    if (next !== before) this.subject.next(next);
  }

  private checkWritable(): void {
    if (this.completed) throw new StoreWriteError('the writer is complete');
    if (this.inBatch)
      throw new StoreWriteError('a batch of this writer is running; write through its mutator');
  }
}

/** Where a writer's current content is (see {@link StoreWriter}). */
type Head<T> = { readonly kind: 'snapshot'; readonly store: Store<T> } | { readonly kind: 'working'; readonly set: WorkingSet<T> };

function isChange<T>(x: StoreChange<T> | Iterable<StoreChange<T>>): x is StoreChange<T> {
  return typeof (x as { type?: unknown }).type === 'string';
}

/**
 * A {@link StoreWriter} over an empty store with the given options (the `namespace` index by
 * default, plus your `indexers`).
 *
 * @example
 * ```ts
 * const writer = storeWriter<V1Pod>({ indexers: { byNode: (p) => (p.spec?.nodeName ? [p.spec.nodeName] : []) } });
 * writer.replace(pods, '100');
 * const store = writer.current;          // a snapshot: never changes
 * store.byIndex('byNode', 'node-1');
 * ```
 */
export function storeWriter<T = KubeObject>(options: StoreOptions<T> = {}): StoreWriter<T> {
  return new StoreWriter<T>(createStore<T>(options));
}
