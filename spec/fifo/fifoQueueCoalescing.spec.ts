import { describe, expect, it } from '@jest/globals';
import { DeltaFifoQueue } from '../../lib/fifo/deltaFifoQueue.js';
import type { FifoQueueOptions } from '../../lib/fifo/fifoQueue.js';
import { deltasOf, dfsu, keyFunc, obj, popAll, TestStore, type TestObj } from './fixtures.js';

// Coalescing mode only (DeltaFIFO): F6-F8, F10 and F12 as client-go's DeltaFIFO has them.
describe('fifo queue', () => {
  describe('coalescing mode (DeltaFIFO)', () => {
    const c = (options: FifoQueueOptions<TestObj> = {}) =>
      new DeltaFifoQueue<TestObj>({ keyFunc, ...options });

    it('F6: known {foo5, bar6, baz7}; Delete(baz10); Replace([foo5]) pops {Deleted baz10}, {Sync foo5}, {Deleted DFSU bar6}', () => {
      const f = c({ knownObjects: new TestStore(obj('foo', 5), obj('bar', 6), obj('baz', 7)) });
      f.delete(obj('baz', 10));
      f.replace([obj('foo', 5)], '0');
      expect(popAll(f)).toEqual([
        ['baz', [['Deleted', obj('baz', 10)]]],
        ['foo', [['Sync', obj('foo', 5)]]],
        ['bar', [['Deleted', dfsu(obj('bar', 6))]]],
      ]);
    });

    it('F7: Replaced is emitted instead of Sync with emitDeltaTypeReplaced (default: Sync)', () => {
      const f = c({ emitDeltaTypeReplaced: true, knownObjects: new TestStore(obj('bar', 6)) });
      f.replace([obj('foo', 5)], '0');
      expect(popAll(f)).toEqual([
        ['foo', [['Replaced', obj('foo', 5)]]],
        ['bar', [['Deleted', dfsu(obj('bar', 6))]]],
      ]);
      const d = c();
      d.replace([obj('foo', 5)], '0');
      expect(popAll(d)).toEqual([['foo', [['Sync', obj('foo', 5)]]]]);
    });

    it('F8: two consecutive deletions of a key collapse to one (the first is kept)', () => {
      const f = c({ knownObjects: new TestStore(obj('foo', 5)) });
      f.delete(obj('foo', 10));
      f.delete(obj('foo', 11));
      expect(popAll(f)).toEqual([['foo', [['Deleted', obj('foo', 10)]]]]);
    });

    it('F8: a DFSU followed by a real deletion keeps the real deletion', () => {
      const f = c({ knownObjects: new TestStore(obj('foo', 5)) });
      f.delete(dfsu(obj('foo', 5)));
      f.delete(obj('foo', 10));
      expect(popAll(f)).toEqual([['foo', [['Deleted', obj('foo', 10)]]]]);
    });

    it('F8: a real deletion followed by a DFSU keeps the real deletion', () => {
      const f = c({ knownObjects: new TestStore(obj('foo', 5)) });
      f.delete(obj('foo', 10));
      f.delete(dfsu(obj('foo', 5)));
      expect(popAll(f)).toEqual([['foo', [['Deleted', obj('foo', 10)]]]]);
    });

    it('F8: deletions separated by another delta do not collapse', () => {
      const f = c({ knownObjects: new TestStore(obj('foo', 5)) });
      f.delete(obj('foo', 10));
      f.add(obj('foo', 11));
      f.delete(obj('foo', 12));
      expect(deltasOf(popAll(f), 'foo').map(([t]) => t)).toEqual(['Deleted', 'Added', 'Deleted']);
    });

    it('F10: duplicate keys in one Replace count once', () => {
      const f = c();
      f.replace([obj('a', 1), obj('a', 2), obj('b', 1)], '0');
      expect(f.length).toBe(2);
      expect(f.pop()?.deltas).toHaveLength(2);
      expect(f.hasSynced).toBe(false);
      f.pop();
      expect(f.hasSynced).toBe(true);
    });

    it('F12: line jumpers keep their place', () => {
      const f = c();
      f.add(obj('foo', 10));
      f.add(obj('bar', 1));
      f.add(obj('foo', 11));
      f.add(obj('foo', 13));
      f.add(obj('zab', 30));
      const first = f.pop()!;
      expect(first.key).toBe('foo');
      expect(first.deltas[first.deltas.length - 1].object).toEqual(obj('foo', 13));
      f.add(obj('foo', 14));
      expect(popAll(f)).toEqual([
        ['bar', [['Added', obj('bar', 1)]]],
        ['zab', [['Added', obj('zab', 30)]]],
        ['foo', [['Added', obj('foo', 14)]]],
      ]);
    });

    it('listKeys gives the keys in pop order, once each', () => {
      const f = c();
      f.add(obj('b', 1));
      f.add(obj('a', 1));
      f.update(obj('b', 2));
      expect(f.listKeys()).toEqual(['b', 'a']);
      expect(f.length).toBe(2);
    });
  });
});
