import { DeletedFinalStateUnknown } from '../../lib/meta/deletedFinalStateUnknown.js';
import type { Delta, DeltaType } from '../../lib/fifo/delta.js';
import type { FifoOutput, FifoPop } from '../../lib/fifo/fifoOutput.js';
import type { FifoQueue } from '../../lib/fifo/fifoQueue.js';
import type { KnownObjects } from '../../lib/fifo/knownObjects.js';

/** client-go's test object (`mkFifoObj`): a name and a value. */
export interface TestObj {
  readonly name: string;
  readonly val: number;
}

export const obj = (name: string, val: number): TestObj => ({ name, val });
export const keyFunc = (o: TestObj): string => o.name;

/** A Map-backed store the FIFO reads as its known objects (what the informer's indexer is). */
export class TestStore implements KnownObjects<TestObj> {
  readonly map = new Map<string, TestObj>();
  constructor(...objs: TestObj[]) {
    for (const o of objs) this.map.set(o.name, o);
  }
  getByKey(key: string): TestObj | undefined {
    return this.map.get(key);
  }
  listKeys(): Iterable<string> {
    return this.map.keys();
  }
  /** What an informer does with a pop: apply its newest delta. */
  apply(pop: FifoPop<TestObj>): void {
    for (const d of pop.deltas) {
      if (d.type === 'Deleted') this.map.delete(pop.key);
      else this.map.set(pop.key, d.object as TestObj);
    }
  }
}

/** A delta written compactly: `['Added', obj('foo', 1)]`, or a tombstone. */
export type D = readonly [DeltaType, TestObj | DeletedFinalStateUnknown<TestObj>];

export const toD = (d: Delta<TestObj>): D => [d.type, d.object];

export const dfsu = (o: TestObj): DeletedFinalStateUnknown<TestObj> =>
  new DeletedFinalStateUnknown(o.name, o);

/** Pops until empty (bounded), as `[key, deltas]` pairs. */
export function popAll(q: FifoQueue<TestObj>, max = 100_000): Array<[string, D[]]> {
  const out: Array<[string, D[]]> = [];
  for (let i = 0; i < max; i++) {
    const p = q.pop();
    if (p === undefined) break;
    out.push([p.key, p.deltas.map(toD)]);
  }
  return out;
}

/** Every delta popped for one key, flattened, oldest first (the same in both modes). */
export function deltasOf(pops: Array<[string, D[]]>, key: string): D[] {
  return pops.filter(([k]) => k === key).flatMap(([, ds]) => ds);
}

/** A FifoOutput written compactly for marble expectations. */
export function describeOutput(o: FifoOutput<TestObj>): string {
  if (o.type === 'synced') return 'synced';
  const ds = o.deltas.map((d) => {
    const x =
      d.object instanceof DeletedFinalStateUnknown ? `dfsu(${d.object.obj?.val})` : String(d.object.val);
    return `${d.type} ${x}`;
  });
  return `${o.key}${o.isInInitialList ? '*' : ''}: ${ds.join(', ')}`;
}
