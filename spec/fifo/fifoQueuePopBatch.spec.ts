import { describe, expect, it } from '@jest/globals';
import type { FifoQueue } from '../../lib/fifo/fifoQueue.js';
import { obj, TestStore, type TestObj } from './fixtures.js';
import { modes, q } from './fifoQueueSupport.js';

/** A scripted history: a first Replace (with a deletion against the known store), then watch events. */
function script(f: FifoQueue<TestObj>): void {
  f.replace([obj('a', 1), obj('b', 1), obj('c', 1)], '10');
  f.update(obj('a', 2));
  f.delete(obj('b', 1));
  f.add(obj('d', 1));
}

function drainByPop(f: FifoQueue<TestObj>): unknown[] {
  const out: unknown[] = [];
  for (let p = f.pop(); p !== undefined; p = f.pop()) out.push(p);
  return out;
}

describe.each(modes)('popBatch (%s)', (mode) => {
  const known = () => new TestStore(obj('gone', 0));

  it('takes exactly what popping until empty takes, flags and all, and leaves the queue empty', () => {
    const a = q(mode, { knownObjects: known() });
    const b = q(mode, { knownObjects: known() });
    script(a);
    script(b);
    const byPop = drainByPop(a);
    const batch = b.popBatch();
    expect(batch).toEqual(byPop);
    expect(batch.some((p) => p.isInInitialList)).toBe(true);
    expect(batch.some((p) => !p.isInInitialList)).toBe(true);
    expect(b.length).toBe(0);
    expect(b.listKeys()).toEqual([]);
    expect(b.hasSynced).toBe(a.hasSynced);
    expect(b.popBatch()).toEqual([]);
  });

  it('forgets the keys it took: a key queued again starts a new entry', () => {
    const f = q(mode);
    f.add(obj('a', 1));
    f.update(obj('a', 2));
    f.popBatch();
    f.update(obj('a', 3));
    expect(f.getByKey('a')?.map((d) => d.object)).toEqual([obj('a', 3)]);
    expect(f.popBatch().map((p) => p.deltas.length)).toEqual([1]);
  });
});
