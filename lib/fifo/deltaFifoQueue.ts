import { ArrayQueue } from './arrayQueue.js';
import { DeletedFinalStateUnknown } from '../meta/deletedFinalStateUnknown.js';
import { DeltaType, type Delta, type Deltas } from './delta.js';
import type { FifoEvent } from './fifoEvent.js';
import type { FifoPop } from './fifoOutput.js';
import type { FifoQueue, FifoQueueOptions } from './fifoQueue.js';
import { applyEvent, type ResolvedQueueOptions } from './fifoSupport.js';
import { FifoQueueBase, TRANSFORM_FAILED } from './fifoQueueBase.js';
import { newDelta, newPop, oneDelta } from './fifoRecords.js';

/**
 * The coalescing queue (client-go's `DeltaFIFO`): one entry per key, holding every delta that
 * arrived for the key since it was last popped, oldest first. A key keeps the place where it first
 * entered; two consecutive deletions collapse into one (a {@link DeletedFinalStateUnknown} loses to
 * a real deletion). Use it through {@link deltaFifo}; it is exported to drive step by step.
 *
 * @example
 * ```ts
 * const q = new DeltaFifoQueue<V1Pod>({ knownObjects });
 * q.add(podV10); q.update(podV12); q.delete(podV15);
 * q.pop()!.deltas.map((d) => d.type); // ['Added', 'Updated', 'Deleted']
 * ```
 */
export class DeltaFifoQueue<T> extends FifoQueueBase<T> implements FifoQueue<T> {
  readonly mode = 'coalescing' as const;
  private items = new Map<string, Delta<T>[]>();
  private readonly queue = new ArrayQueue<string>();
  /** `resolved`: options resolved once for many queues (the FIFO's per-burst queues). */
  constructor(options: FifoQueueOptions<T> = {}, resolved?: ResolvedQueueOptions<T>) {
    super(options, false, resolved);
  }

  get length(): number {
    return this.queue.length;
  }

  add(obj: T): void {
    this.populated = true;
    const key = this.keyOf(obj);
    if (key !== undefined) this.queueAction(key, DeltaType.Added, DeltaType.Added, obj);
  }

  update(obj: T): void {
    this.populated = true;
    const key = this.keyOf(obj);
    if (key !== undefined) this.queueAction(key, DeltaType.Updated, DeltaType.Updated, obj);
  }

  delete(obj: T | DeletedFinalStateUnknown<T>): void {
    const key = this.keyOf(obj);
    if (key === undefined) return;
    this.populated = true;
    // Neither queued nor known: presumably a relist already reported it; don't report it twice.
    if (!this.items.has(key) && this.unknown(key)) return;
    this.queueAction(key, DeltaType.Deleted, DeltaType.Deleted, obj);
  }

  replace(list: ReadonlyArray<T>, _resourceVersion?: string): void {
    const keys = new Set<string>();
    for (const item of list) {
      const key = this.keyOf(item);
      if (key === undefined) continue;
      keys.add(key);
      // Internally a Replaced (so the transform runs) even when emitted as Sync.
      this.queueAction(key, this.replaceType, DeltaType.Replaced, item);
    }

    // Deletion detection against what is queued: the newest queued state is the last known one.
    for (const [key, deltas] of this.items) {
      if (keys.has(key)) continue;
      let last = deltas[deltas.length - 1].object;
      if (last instanceof DeletedFinalStateUnknown) last = last.obj;
      this.queueAction(
        key,
        DeltaType.Deleted,
        DeltaType.Deleted,
        new DeletedFinalStateUnknown(key, last as T),
      );
    }

    // ... and against the consumer's store, for keys with nothing queued: after what is queued now.
    const known = this.knownObjects;
    if (this.downstream) this.markRelist(this.queue.length, keys);
    else if (known !== undefined) {
      for (const key of known.listKeys()) {
        if (keys.has(key) || this.items.has(key)) continue;
        // client-go places a tombstone without an object if the store lost it meanwhile.
        const last = known.getByKey(key) as T;
        this.queueAction(key, DeltaType.Deleted, DeltaType.Deleted, new DeletedFinalStateUnknown(key, last));
      }
    }

    if (!this.populated) {
      this.populated = true;
      // client-go counts `len(keys) + queuedDeletions`; before the first list only a resync can have
      // queued anything, so that is the queue's length, which stays right when a transform throws.
      this.initialPopulationCount = this.queue.length;
    }
  }

  resync(): void {
    const known = this.knownObjects;
    if (known === undefined) return;
    for (const knownKey of known.listKeys()) {
      const obj = known.getByKey(knownKey);
      if (obj === undefined) continue;
      const key = this.keyOf(obj);
      // Something queued for the key: a Sync would carry the store's older state; skip it.
      if (key === undefined || this.items.has(key)) continue;
      this.queueAction(key, DeltaType.Sync, DeltaType.Sync, obj);
    }
  }

  apply(event: FifoEvent<T>): void {
    applyEvent(this, event);
  }

  pop(): FifoPop<T> | undefined {
    const key = this.queue.shift();
    if (key === undefined) return undefined;
    const isInInitialList = this.countPop();
    const deltas = this.items.get(key) as Delta<T>[];
    this.items.delete(key);
    // The array leaves the queue with the pop: nothing here mutates it again. Readonly by type, not
    // frozen at run time (freezing every record costs more than the rest of the pop).
    return newPop(key, deltas, isInInitialList);
  }

  popBatch(): FifoPop<T>[] {
    const keys = this.queue.drain();
    const pops = new Array<FifoPop<T>>(keys.length);
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i]!;
      const isInInitialList = this.countPop();
      pops[i] = newPop(key, this.items.get(key)!, isInInitialList);
    }
    // A new Map rather than `clear()`, so that popped deltas die young (docs/PERFORMANCE.md,
    // "A cleared Map chains its tables").
    this.items = new Map();
    return pops;
  }

  listKeys(): string[] {
    return this.queue.toArray();
  }

  getByKey(key: string): Deltas<T> | undefined {
    const deltas = this.items.get(key);
    return deltas === undefined ? undefined : deltas.slice();
  }

  /** client-go's `queueActionLocked`: transform, append, dedup a trailing pair of deletions. */
  private queueAction(
    key: string,
    type: DeltaType,
    internalType: DeltaType,
    obj: T | DeletedFinalStateUnknown<T>,
  ): void {
    const object = this.transformed(obj, internalType === DeltaType.Sync);
    if (object === TRANSFORM_FAILED) return;
    const delta = newDelta<T>(type, object);
    const deltas = this.items.get(key);
    if (deltas === undefined) {
      this.items.set(key, oneDelta(delta));
      this.queue.push(key);
      return;
    }
    const n = deltas.length;
    if (type === DeltaType.Deleted && deltas[n - 1].type === DeltaType.Deleted) {
      // Keep the deletion with the most information: a tombstone loses to a real deletion.
      if (deltas[n - 1].object instanceof DeletedFinalStateUnknown) deltas[n - 1] = delta;
      return;
    }
    deltas.push(delta);
  }
}
