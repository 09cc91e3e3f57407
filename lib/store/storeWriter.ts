import { BehaviorSubject, defer, type Observable } from 'rxjs';
import type { DeletedFinalStateUnknown } from '../fifo/deletedFinalStateUnknown.js';
import type { KubeObject } from '../meta/kubeObject.js';
import { StoreWriteError } from './indexErrors.js';
import type { Indexers } from './indexers.js';
import type { StoreMutator, StoreOptions } from './store.js';
import { newOwner } from './persistentMap.js';
import { createStore, mutate, openBatch, Store } from './store.js';
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
  private readonly subject: BehaviorSubject<Store<T>>;
  private inBatch = false;
  private completed = false;
  /**
   * The owner of the current snapshot's newest nodes while that snapshot has been handed to no one
   * (no `current` read, no `store$` subscriber): the next {@link batchInPlace} may then edit them in
   * place, as nobody can tell. Anything that hands the snapshot out clears it.
   */
  private unseenOwner: number | undefined;

  /** Every snapshot, starting with the current one for each new subscriber. */
  readonly store$: Observable<Store<T>>;

  constructor(initial: Store<T>) {
    this.subject = new BehaviorSubject(initial);
    this.store$ = defer(() => {
      this.unseenOwner = undefined; // the subscriber is handed the current snapshot
      return this.subject;
    });
  }

  /** The current snapshot (synchronous). */
  get current(): Store<T> {
    this.unseenOwner = undefined;
    return this.subject.getValue();
  }

  /**
   * @internal The current snapshot for a read that keeps no reference to it (a `getByKey`, a
   * `list()`): unlike {@link current}, it lets the next {@link batchInPlace} edit it in place.
   */
  peek(): Store<T> {
    return this.subject.getValue();
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
    this.unseenOwner = undefined; // its snapshot shares those nodes, and will be emitted
    try {
      out = mutate(this.subject.getValue(), fn);
    } finally {
      this.inBatch = false;
    }
    this.emit(out.store);
    return out.result;
  }

  /**
   * @internal The informer's batch: {@link batch}, except that when the current snapshot was never
   * handed out since the last `batchInPlace` made it, this one edits that batch's nodes in place
   * instead of copying them (a snapshot nobody has cannot be seen to change). If `fn` throws, the
   * writes it made before are kept and published (each write is all-or-nothing), then the error
   * goes on: the edited snapshot cannot be given back. Index functions must not read the store.
   */
  batchInPlace<R>(fn: (mutator: StoreMutator<T>) => R): R {
    this.checkWritable();
    const owner = this.unseenOwner ?? newOwner();
    this.unseenOwner = undefined;
    const batch = openBatch(this.subject.getValue(), owner);
    this.inBatch = true;
    try {
      return fn(batch.mutator);
    } finally {
      this.inBatch = false;
      // Emitted to a subscriber it is out of our hands, even one that unsubscribes on receiving it
      // (take(1)): ask before emitting. Otherwise the next batch may edit it.
      const handedOut = this.subject.observed;
      this.emit(batch.close());
      if (!handedOut && !this.subject.observed) this.unseenOwner = owner;
    }
  }

  /** Completes `store$` (the informer stopped). Later writes throw {@link StoreWriteError}. */
  complete(): void {
    if (this.completed) return;
    this.completed = true;
    this.subject.complete();
  }

  private publish(transition: (store: Store<T>) => Store<T>): Store<T> {
    this.checkWritable();
    const next = transition(this.current); // returned to the caller: handed out
    this.emit(next);
    return next;
  }

  private emit(next: Store<T>): void {
    if (next !== this.current) this.subject.next(next);
  }

  private checkWritable(): void {
    if (this.completed) throw new StoreWriteError('the writer is complete');
    if (this.inBatch)
      throw new StoreWriteError('a batch of this writer is running; write through its mutator');
  }
}

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
