import { describe, it } from '@jest/globals';
import { createFifoQueue } from '../../lib/fifo/createFifoQueue.js';
import { DeletedFinalStateUnknown } from '../../lib/meta/deletedFinalStateUnknown.js';
import type { DeltaType } from '../../lib/fifo/delta.js';
import type { FifoMode, FifoQueue } from '../../lib/fifo/fifoQueue.js';
import { keyFunc, obj, TestStore, type TestObj } from './fixtures.js';
import { seededRandom } from '../../lib/testing/fakeApiServer/random.js';
import { expectEqual } from '../support/expectEqual.js';

type Obj = TestObj | DeletedFinalStateUnknown<TestObj>;
interface RefDelta {
  type: DeltaType;
  object: Obj;
}
const keyOf = (o: Obj): string => (o instanceof DeletedFinalStateUnknown ? o.key : o.name);

/**
 * Literal, unoptimised transcriptions of client-go's DeltaFIFO and RealFIFO (slices scanned and
 * shifted, as in Go), to check the O(1) structures of the real queues against. Same deviation as
 * rxkube's ordered mode: a deletion of a key neither queued nor known is dropped.
 */
abstract class Reference {
  populated = false;
  initialPopulationCount = 0;
  constructor(readonly known: TestStore) {}
  get hasSynced(): boolean {
    return this.populated && this.initialPopulationCount === 0;
  }
  abstract readonly length: number;
  abstract add(o: TestObj): void;
  abstract update(o: TestObj): void;
  abstract delete(o: Obj): void;
  abstract replace(list: TestObj[]): void;
  abstract resync(): void;
  abstract pop(): { key: string; deltas: RefDelta[]; isInInitialList: boolean } | undefined;
}

class RefDeltaFifo extends Reference {
  items = new Map<string, RefDelta[]>();
  queue: string[] = [];
  get length(): number {
    return this.queue.length;
  }
  private queueAction(type: DeltaType, o: Obj): void {
    const id = keyOf(o);
    const old = this.items.get(id);
    let deltas = [...(old ?? []), { type, object: o }];
    const n = deltas.length;
    if (n >= 2 && deltas[n - 1].type === 'Deleted' && deltas[n - 2].type === 'Deleted') {
      const keep = deltas[n - 2].object instanceof DeletedFinalStateUnknown ? deltas[n - 1] : deltas[n - 2];
      deltas = [...deltas.slice(0, n - 2), keep];
    }
    if (old === undefined) this.queue.push(id);
    this.items.set(id, deltas);
  }
  add(o: TestObj) {
    this.populated = true;
    this.queueAction('Added', o);
  }
  update(o: TestObj) {
    this.populated = true;
    this.queueAction('Updated', o);
  }
  delete(o: Obj) {
    const id = keyOf(o);
    this.populated = true;
    if (this.known.getByKey(id) === undefined && !this.items.has(id)) return;
    this.queueAction('Deleted', o);
  }
  replace(list: TestObj[]) {
    const keys = new Set<string>();
    for (const item of list) {
      keys.add(keyOf(item));
      this.queueAction('Sync', item);
    }
    let queuedDeletions = 0;
    for (const k of [...this.queue]) {
      if (keys.has(k)) continue;
      const ds = this.items.get(k)!;
      let last = ds[ds.length - 1].object;
      if (last instanceof DeletedFinalStateUnknown) last = last.obj;
      queuedDeletions++;
      this.queueAction('Deleted', new DeletedFinalStateUnknown(k, last));
    }
    for (const k of [...this.known.listKeys()]) {
      if (keys.has(k) || (this.items.get(k)?.length ?? 0) > 0) continue;
      queuedDeletions++;
      this.queueAction('Deleted', new DeletedFinalStateUnknown(k, this.known.getByKey(k)!));
    }
    if (!this.populated) {
      this.populated = true;
      this.initialPopulationCount = keys.size + queuedDeletions;
    }
  }
  resync() {
    for (const k of [...this.known.listKeys()]) {
      const o = this.known.getByKey(k)!;
      if ((this.items.get(keyOf(o))?.length ?? 0) > 0) continue;
      this.queueAction('Sync', o);
    }
  }
  pop() {
    const id = this.queue.shift();
    if (id === undefined) return undefined;
    const isInInitialList = !this.hasSynced;
    if (this.initialPopulationCount > 0) this.initialPopulationCount--;
    const deltas = this.items.get(id)!;
    this.items.delete(id);
    return { key: id, deltas, isInInitialList };
  }
}

class RefRealFifo extends Reference {
  items: RefDelta[] = [];
  get length(): number {
    return this.items.length;
  }
  add(o: TestObj) {
    this.populated = true;
    this.items.push({ type: 'Added', object: o });
  }
  update(o: TestObj) {
    this.populated = true;
    this.items.push({ type: 'Updated', object: o });
  }
  delete(o: Obj) {
    const id = keyOf(o);
    this.populated = true;
    if (this.known.getByKey(id) === undefined && !this.items.some((d) => keyOf(d.object) === id)) return;
    this.items.push({ type: 'Deleted', object: o });
  }
  replace(list: TestObj[]) {
    const newKeys = new Set(list.map(keyOf));
    const queuedKeys: string[] = [];
    const last = new Map<string, RefDelta>();
    for (const d of this.items) {
      const k = keyOf(d.object);
      if (!last.has(k)) queuedKeys.push(k);
      last.set(k, d);
    }
    for (const k of queuedKeys) {
      if (newKeys.has(k) || last.get(k)!.type === 'Deleted') continue;
      this.items.push({
        type: 'Deleted',
        object: new DeletedFinalStateUnknown(k, last.get(k)!.object as TestObj),
      });
    }
    for (const k of [...this.known.listKeys()]) {
      if (newKeys.has(k) || last.has(k)) continue;
      this.items.push({ type: 'Deleted', object: new DeletedFinalStateUnknown(k, this.known.getByKey(k)!) });
    }
    for (const o of list) this.items.push({ type: 'Replaced', object: o });
    if (!this.populated) {
      this.populated = true;
      this.initialPopulationCount = this.items.length;
    }
  }
  resync() {
    const inQueue = new Set(this.items.map((d) => keyOf(d.object)));
    for (const k of [...this.known.listKeys()]) {
      if (inQueue.has(k)) continue;
      this.items.push({ type: 'Sync', object: this.known.getByKey(k)! });
    }
  }
  pop() {
    const d = this.items.shift();
    if (d === undefined) return undefined;
    const isInInitialList = !this.hasSynced;
    if (this.initialPopulationCount > 0) this.initialPopulationCount--;
    return { key: keyOf(d.object), deltas: [d], isInInitialList };
  }
}

/** A seeded float source (rxkube/testing's mulberry32), so every run does the same operations. */
const rng = (seed: number): (() => number) => seededRandom(seed).next;

describe.each<FifoMode>(['coalescing', 'ordered'])(
  '%s queue against a literal client-go transcription',
  (mode) => {
    it('F1-F15: 250 random sequences of add/update/delete/replace/resync/pop give the same pops and hasSynced', () => {
      const names = ['a', 'b', 'c', 'd', 'e', 'f'];
      for (let seed = 1; seed <= 250; seed++) {
        const rand = rng(seed);
        const pick = <X>(xs: readonly X[]): X => xs[Math.floor(rand() * xs.length)];
        // Each side has its own known store, updated from its own pops, as an informer does.
        const realStore = new TestStore();
        const refStore = new TestStore();
        const real: FifoQueue<TestObj> = createFifoQueue<TestObj>({ mode, keyFunc, knownObjects: realStore });
        const ref: Reference = mode === 'coalescing' ? new RefDeltaFifo(refStore) : new RefRealFifo(refStore);
        const realLog: unknown[] = [];
        const refLog: unknown[] = [];
        for (let step = 0; step < 60; step++) {
          const v = step;
          const r = rand();
          if (r < 0.2) {
            const o = obj(pick(names), v);
            real.add(o);
            ref.add(o);
          } else if (r < 0.35) {
            const o = obj(pick(names), v);
            real.update(o);
            ref.update(o);
          } else if (r < 0.45) {
            const o = obj(pick(names), v);
            real.delete(o);
            ref.delete(o);
          } else if (r < 0.5) {
            const t = new DeletedFinalStateUnknown(pick(names), obj('x', v));
            real.delete(t);
            ref.delete(t);
          } else if (r < 0.6) {
            const list = names.filter(() => rand() < 0.5).map((n) => obj(n, v));
            real.replace(list, String(v));
            ref.replace(list);
          } else if (r < 0.65) {
            real.resync();
            ref.resync();
          } else {
            const n = 1 + Math.floor(rand() * 3);
            for (let i = 0; i < n; i++) {
              const a = real.pop();
              const b = ref.pop();
              realLog.push({
                step,
                pop: a && { key: a.key, deltas: [...a.deltas], isInInitialList: a.isInInitialList },
              });
              refLog.push({ step, pop: b });
              if (a !== undefined) realStore.apply(a);
              if (b !== undefined) refStore.apply(b as never);
            }
          }
          realLog.push({ step, hasSynced: real.hasSynced, length: real.length });
          refLog.push({ step, hasSynced: ref.hasSynced, length: ref.length });
        }
        expectEqual({ seed, log: realLog }, { seed, log: refLog });
      }
    });
  },
);
