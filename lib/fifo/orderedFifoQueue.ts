import { ArrayQueue } from './arrayQueue.js';
import { DeletedFinalStateUnknown } from '../meta/deletedFinalStateUnknown.js';
import { DeltaType, type Delta, type Deltas } from './delta.js';
import type { FifoEvent } from './fifoEvent.js';
import type { FifoPop } from './fifoOutput.js';
import type { FifoQueue, FifoQueueOptions } from './fifoQueue.js';
import { applyEvent, type ResolvedQueueOptions } from './fifoSupport.js';
import { FifoQueueBase, TRANSFORM_FAILED } from './fifoQueueBase.js';
import { newDelta, newPop, oneDelta } from './fifoRecords.js';

// Classes, not literals: made per event (see fifoRecords.ts).
class Entry<T> {
  constructor(
    readonly key: string,
    readonly delta: Delta<T>,
  ) {}
}

class KeyState<T> {
  constructor(
    /** How many entries of the key are queued. */
    public count: number,
    /** The newest of them. */
    public last: Delta<T>,
  ) {}
}

/**
 * The ordered queue (client-go's `RealFIFO`): every event is its own pop, in arrival order, nothing
 * merged. A `replace` first queues tombstones for the keys it no longer lists (queued keys whose
 * last delta is not a deletion, then known keys neither listed nor queued), then a `Replaced` delta
 * for each listed item, in list order. Use it through {@link deltaFifo} with `mode: 'ordered'`.
 *
 * @example
 * ```ts
 * const q = new OrderedFifoQueue<V1Pod>({ knownObjects });
 * q.add(podV10); q.update(podV12);
 * q.pop()!.deltas; // [Added podV10]
 * q.pop()!.deltas; // [Updated podV12]
 * ```
 */
export class OrderedFifoQueue<T> extends FifoQueueBase<T> implements FifoQueue<T> {
  readonly mode = 'ordered' as const;
  private readonly entries = new ArrayQueue<Entry<T>>();
  /** Per queued key: how many entries and the newest, so replace/resync need no scan. */
  private keys = new Map<string, KeyState<T>>();
  /** `resolved`: options resolved once for many queues (the FIFO's per-burst queues). */
  constructor(options: FifoQueueOptions<T> = {}, resolved?: ResolvedQueueOptions<T>) {
    super(options, true, resolved);
  }

  get length(): number {
    return this.entries.length;
  }

  add(obj: T): void {
    this.populated = true;
    const key = this.keyOf(obj);
    if (key !== undefined) this.push(key, DeltaType.Added, obj, false);
  }

  update(obj: T): void {
    this.populated = true;
    const key = this.keyOf(obj);
    if (key !== undefined) this.push(key, DeltaType.Updated, obj, false);
  }

  delete(obj: T | DeletedFinalStateUnknown<T>): void {
    const key = this.keyOf(obj);
    if (key === undefined) return;
    this.populated = true;
    // RealFIFO queues every deletion; rxkube drops, as DeltaFIFO does, the deletion of a key that is
    // neither queued nor known (nobody has seen the object, so nobody must hear it is gone).
    if (!this.keys.has(key) && this.unknown(key)) return;
    this.push(key, DeltaType.Deleted, obj, false);
  }

  replace(list: ReadonlyArray<T>, _resourceVersion?: string): void {
    const listed: Array<{ key: string; item: T }> = [];
    const newKeys = new Set<string>();
    for (const item of list) {
      const key = this.keyOf(item);
      if (key === undefined) continue;
      newKeys.add(key);
      listed.push({ key, item });
    }

    // Queued keys not listed, in the order of their oldest queued entry (a scan, as RealFIFO does:
    // O(queue), like the replace itself); a key already ending in a deletion needs no second one.
    const queuedKeys: string[] = [];
    const seen = new Set<string>();
    this.entries.forEach(({ key }) => {
      if (seen.has(key)) return;
      seen.add(key);
      queuedKeys.push(key);
    });
    for (const key of queuedKeys) {
      const last = (this.keys.get(key) as KeyState<T>).last;
      if (newKeys.has(key) || last.type === DeltaType.Deleted) continue;
      this.push(key, DeltaType.Deleted, new DeletedFinalStateUnknown(key, last.object as T), true);
    }

    // Then the known keys neither listed nor queued, before the listed items.
    const known = this.knownObjects;
    if (this.downstream) this.markRelist(this.entries.length, newKeys);
    else if (known !== undefined) {
      for (const key of known.listKeys()) {
        if (newKeys.has(key) || seen.has(key)) continue;
        const last = known.getByKey(key) as T;
        this.push(key, DeltaType.Deleted, new DeletedFinalStateUnknown(key, last), true);
      }
    }

    for (const { key, item } of listed) this.push(key, this.replaceType, item, false);

    if (!this.populated) {
      this.populated = true;
      this.initialPopulationCount = this.entries.length;
    }
  }

  resync(): void {
    const known = this.knownObjects;
    if (known === undefined) return;
    for (const key of known.listKeys()) {
      if (this.keys.has(key)) continue;
      const obj = known.getByKey(key);
      if (obj === undefined) continue;
      this.push(key, DeltaType.Sync, obj, true);
    }
  }

  apply(event: FifoEvent<T>): void {
    applyEvent(this, event);
  }

  pop(): FifoPop<T> | undefined {
    const entry = this.entries.shift();
    if (entry === undefined) return undefined;
    const isInInitialList = this.countPop();
    const state = this.keys.get(entry.key) as KeyState<T>;
    if (--state.count === 0) this.keys.delete(entry.key);
    return newPop(entry.key, oneDelta(entry.delta), isInInitialList);
  }

  popBatch(): FifoPop<T>[] {
    const entries = this.entries.drain();
    const pops = new Array<FifoPop<T>>(entries.length);
    for (let i = 0; i < entries.length; i++) {
      const entry = entries[i]!;
      const isInInitialList = this.countPop();
      pops[i] = newPop(entry.key, oneDelta(entry.delta), isInInitialList);
    }
    this.keys = new Map(); // not clear(): see DeltaFifoQueue.popBatch
    return pops;
  }

  listKeys(): string[] {
    return this.entries.toArray().map((e) => e.key);
  }

  getByKey(key: string): Deltas<T> | undefined {
    if (!this.keys.has(key)) return undefined;
    return this.entries
      .toArray()
      .filter((e) => e.key === key)
      .map((e) => e.delta);
  }

  private push(
    key: string,
    type: DeltaType,
    obj: T | DeletedFinalStateUnknown<T>,
    skipTransform: boolean,
  ): void {
    const object = this.transformed(obj, skipTransform);
    if (object === TRANSFORM_FAILED) return;
    const delta = newDelta<T>(type, object);
    this.entries.push(new Entry(key, delta));
    const state = this.keys.get(key);
    if (state === undefined) this.keys.set(key, new KeyState(1, delta));
    else {
      state.count++;
      state.last = delta;
    }
  }
}
