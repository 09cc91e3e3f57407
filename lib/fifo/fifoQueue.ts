import type { RxkubeError } from '../errors.js';
import type { KeyFunc } from '../meta/keys.js';
import type { FifoEvent } from './fifoEvent.js';
import type { Deltas } from './delta.js';
import type { DeletedFinalStateUnknown } from '../meta/deletedFinalStateUnknown.js';
import type { FifoPop } from './fifoOutput.js';
import type { KnownObjects } from './knownObjects.js';

/**
 * How the FIFO treats several events for one key:
 * - `coalescing` (client-go's `DeltaFIFO`): one entry per key; the key keeps the place where it first
 *   entered the queue and every delta that arrives before it is popped leaves with it, in one pop.
 * - `ordered` (client-go's `RealFIFO`): every event is its own pop, in arrival order; nothing merged.
 *
 * @example
 * ```ts
 * events$.pipe(deltaFifo({ mode: 'ordered' as FifoMode }));
 * ```
 */
export type FifoMode = 'coalescing' | 'ordered';

/**
 * The options of the FIFO queue itself (see {@link DeltaFifoOptions} for the operator's).
 *
 * @example
 * ```ts
 * const q = createFifoQueue<V1Pod>({ mode: 'ordered', knownObjects, transform: stripManagedFields });
 * ```
 */
export interface FifoQueueOptions<T> {
  /** `coalescing` (default, client-go's DeltaFIFO) or `ordered` (client-go's RealFIFO). */
  readonly mode?: FifoMode;
  /**
   * The key of an object. Default: `deletionHandlingMetaNamespaceKeyFunc` (`namespace/name`).
   * A {@link DeletedFinalStateUnknown} is always keyed by the key it carries, before this is asked.
   */
  readonly keyFunc?: KeyFunc<T>;
  /** The consumer's store, read at delete / replace / resync time. See {@link KnownObjects}. */
  readonly knownObjects?: KnownObjects<T>;
  /**
   * @internal The consumer resolves against its own store what the queue would ask `knownObjects`:
   * deletions of keys with nothing queued are passed on (the consumer drops those it does not
   * hold), and a `replace` leaves a {@link RelistMark} where the deletions of the keys only the
   * consumer knows belong. Set by {@link deltaFifoBatch}, whose FIFO reads no store.
   */
  readonly knownObjectsDownstream?: boolean;
  /**
   * Emit `Replaced` rather than `Sync` for the items of a `replace`. Default: `false` in coalescing
   * mode (client-go's backward-compatible default), `true` in ordered mode (RealFIFO always does).
   */
  readonly emitDeltaTypeReplaced?: boolean;
  /**
   * Runs once per object as it enters the queue (add, update, delete, replace items), before it is
   * stored, as client-go's `TransformFunc`. Never on `Sync` deltas of a resync (the object came from
   * the store, so it was already transformed) nor on tombstones. The key is computed before it runs.
   */
  readonly transform?: (obj: T) => T;
  /**
   * Told of an object that could not be queued: a {@link KeyError} (no key) or a
   * {@link TransformError}. The object is skipped and the queue goes on. Default: `console.warn`.
   */
  readonly onError?: (error: RxkubeError) => void;
}

/**
 * A delta FIFO queue as a plain mutable object: the state {@link deltaFifo} keeps, exported so that
 * its behaviour can be driven step by step (as client-go's tests drive `Add` / `Pop`). Deterministic
 * and free of I/O; every operation but `replace` / `resync` is O(1) amortised.
 *
 * @example
 * ```ts
 * const q = createFifoQueue<V1Pod>();
 * q.add(pod);
 * q.update(pod2);
 * q.pop(); // { type: 'pop', key: 'ns/a', deltas: [Added pod, Updated pod2], isInInitialList: false }
 * ```
 */
export interface FifoQueue<T> {
  /** Which mode the queue runs in. */
  readonly mode: FifoMode;
  /** How many pops are ready (keys in coalescing mode, deltas in ordered mode). */
  readonly length: number;
  /**
   * client-go's `HasSynced`: true once an add/update/delete came first, or once every item queued
   * by the first `replace` has been popped.
   */
  readonly hasSynced: boolean;
  /** A watch ADDED event. */
  add(obj: T): void;
  /** A watch MODIFIED event. */
  update(obj: T): void;
  /** A watch DELETED event (or a tombstone). Dropped if the key is neither queued nor known. */
  delete(obj: T | DeletedFinalStateUnknown<T>): void;
  /** A complete list: `Sync`/`Replaced` for each item, tombstones for the keys it no longer has. */
  replace(items: ReadonlyArray<T>, resourceVersion?: string): void;
  /** Queue `Sync` for every known key with nothing queued. */
  resync(): void;
  /** Applies one {@link FifoEvent} (a bookmark changes nothing). */
  apply(event: FifoEvent<T>): void;
  /** Takes the oldest entry, or `undefined` when the queue is empty. The pop is readonly by type (not frozen). */
  pop(): FifoPop<T> | undefined;
  /**
   * Takes every entry at once, oldest first: the pops that calling `pop()` until the queue is empty
   * would give, with the same `isInInitialList` flags (client-go's RealFIFO `PopBatch`, unbounded).
   */
  popBatch(): FifoPop<T>[];
  /** The queued keys, in pop order (with repeats in ordered mode). */
  listKeys(): string[];
  /** A copy of the deltas queued for `key` (all of them, oldest first), or `undefined`. */
  getByKey(key: string): Deltas<T> | undefined;
}
