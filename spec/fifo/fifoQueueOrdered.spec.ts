import { describe, expect, it } from '@jest/globals';
import type { FifoQueueOptions } from '../../lib/fifo/fifoQueue.js';
import { OrderedFifoQueue } from '../../lib/fifo/orderedFifoQueue.js';
import { dfsu, keyFunc, obj, popAll, TestStore, type TestObj } from './fixtures.js';

// Ordered mode only (RealFIFO): F15 and what it changes in F6, F8-F10 and F12.
describe('fifo queue', () => {
  describe('ordered mode (RealFIFO)', () => {
    const o = (options: FifoQueueOptions<TestObj> = {}) =>
      new OrderedFifoQueue<TestObj>({ keyFunc, ...options });

    it('F15: Replace emits the deletions first (queued keys, then known keys), then Replaced in list order', () => {
      const f = o({ knownObjects: new TestStore(obj('k1', 1), obj('k2', 1), obj('k3', 1), obj('k4', 1)) });
      f.add(obj('a', 1));
      f.update(obj('k1', 2));
      f.delete(obj('k2', 2));
      f.replace([obj('k3', 2), obj('b', 1)], '10');
      expect(popAll(f)).toEqual([
        ['a', [['Added', obj('a', 1)]]],
        ['k1', [['Updated', obj('k1', 2)]]],
        ['k2', [['Deleted', obj('k2', 2)]]],
        ['a', [['Deleted', dfsu(obj('a', 1))]]],
        ['k1', [['Deleted', dfsu(obj('k1', 2))]]],
        ['k4', [['Deleted', dfsu(obj('k4', 1))]]],
        ['k3', [['Replaced', obj('k3', 2)]]],
        ['b', [['Replaced', obj('b', 1)]]],
      ]);
    });

    it('F6/F15: known {foo5, bar6, baz7}; Delete(baz10); Replace([foo5]) pops Deleted baz10, DFSU bar6, Replaced foo5', () => {
      const f = o({ knownObjects: new TestStore(obj('foo', 5), obj('bar', 6), obj('baz', 7)) });
      f.delete(obj('baz', 10));
      f.replace([obj('foo', 5)], '0');
      expect(popAll(f)).toEqual([
        ['baz', [['Deleted', obj('baz', 10)]]],
        ['bar', [['Deleted', dfsu(obj('bar', 6))]]],
        ['foo', [['Replaced', obj('foo', 5)]]],
      ]);
    });

    it('F8/F15: nothing is merged, not even two deletions', () => {
      const f = o({ knownObjects: new TestStore(obj('foo', 5)) });
      f.delete(obj('foo', 10));
      f.delete(obj('foo', 11));
      expect(popAll(f)).toEqual([
        ['foo', [['Deleted', obj('foo', 10)]]],
        ['foo', [['Deleted', obj('foo', 11)]]],
      ]);
    });

    it('F10/F15: every entry of the first Replace counts (duplicates pop separately)', () => {
      const f = o();
      f.replace([obj('a', 1), obj('a', 2), obj('b', 1)], '0');
      expect(f.length).toBe(3);
      f.pop();
      f.pop();
      expect(f.hasSynced).toBe(false);
      expect(f.pop()?.isInInitialList).toBe(true);
      expect(f.hasSynced).toBe(true);
    });

    it('F12/F15: keys do not jump the line: every event pops in arrival order', () => {
      const f = o();
      for (const [k, v] of [
        ['foo', 10],
        ['bar', 1],
        ['foo', 11],
        ['foo', 13],
        ['zab', 30],
      ] as const) {
        f.add(obj(k, v));
      }
      expect(f.pop()!.deltas[0].object).toEqual(obj('foo', 10));
      f.add(obj('foo', 14));
      expect(popAll(f).map(([k, ds]) => [k, (ds[0][1] as TestObj).val])).toEqual([
        ['bar', 1],
        ['foo', 11],
        ['foo', 13],
        ['zab', 30],
        ['foo', 14],
      ]);
    });

    it('F9/F15: Resync skips a key that has any entry queued, even an older one', () => {
      const f = o({ knownObjects: new TestStore(obj('foo', 5), obj('bar', 1)) });
      f.update(obj('foo', 6));
      f.update(obj('foo', 7));
      f.pop();
      f.resync();
      expect(popAll(f)).toEqual([
        ['foo', [['Updated', obj('foo', 7)]]],
        ['bar', [['Sync', obj('bar', 1)]]],
      ]);
    });

    it('listKeys and getByKey see every queued entry', () => {
      const f = o();
      f.add(obj('a', 1));
      f.add(obj('b', 1));
      f.update(obj('a', 2));
      expect(f.listKeys()).toEqual(['a', 'b', 'a']);
      expect(f.getByKey('a')?.map((d) => d.type)).toEqual(['Added', 'Updated']);
      expect(f.getByKey('c')).toBeUndefined();
    });
  });
});
