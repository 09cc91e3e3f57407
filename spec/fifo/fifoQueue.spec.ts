import { describe, expect, it } from '@jest/globals';
import { createFifoQueue } from '../../lib/fifo/createFifoQueue.js';
import { DeltaFifoQueue } from '../../lib/fifo/deltaFifoQueue.js';
import { OrderedFifoQueue } from '../../lib/fifo/orderedFifoQueue.js';
import { deltasOf, dfsu, keyFunc, obj, popAll, TestStore, type D, type TestObj } from './fixtures.js';
import { modes, q, replaced } from './fifoQueueSupport.js';

// Both modes: order, deletions, Replace, reflector events and queue upkeep. Known objects and
// hasSynced: fifoQueueSync.spec.ts; transform and keys: fifoQueueTransformKeys.spec.ts; each mode
// alone: fifoQueueCoalescing.spec.ts, fifoQueueOrdered.spec.ts.
describe('fifo queue', () => {
  it('creates the queue of the mode asked for', () => {
    expect(createFifoQueue({ keyFunc })).toBeInstanceOf(DeltaFifoQueue);
    expect(createFifoQueue({ keyFunc, mode: 'ordered' })).toBeInstanceOf(OrderedFifoQueue);
  });

  describe.each(modes)('%s mode', (mode) => {
    it('F1: two producers adding 500 items each, interleaved, each come out in their own order', () => {
      const f = q(mode);
      for (let i = 0; i < 500; i++) {
        f.add(obj(`a${i}`, i));
        f.add(obj(`b${i}`, i + 1000));
      }
      const pops = popAll(f);
      expect(pops).toHaveLength(1000);
      const a = pops.filter(([k]) => k.startsWith('a')).map(([, ds]) => (ds[0][1] as TestObj).val);
      const b = pops.filter(([k]) => k.startsWith('b')).map(([, ds]) => (ds[0][1] as TestObj).val);
      expect(a).toEqual(Array.from({ length: 500 }, (_, i) => i));
      expect(b).toEqual(Array.from({ length: 500 }, (_, i) => i + 1000));
    });

    it('F2: Add(v10), Update(v12), Delete(v15) of one key before a pop: three deltas, newest v15', () => {
      const f = q(mode);
      f.add(obj('foo', 10));
      f.update(obj('foo', 12));
      f.delete(obj('foo', 15));
      const pops = popAll(f);
      const expected: D[] = [
        ['Added', obj('foo', 10)],
        ['Updated', obj('foo', 12)],
        ['Deleted', obj('foo', 15)],
      ];
      if (mode === 'coalescing') expect(pops).toEqual([['foo', expected]]);
      else expect(pops).toEqual(expected.map((d) => ['foo', [d]]));
    });

    it('F3: a Delete of a key neither queued nor known is dropped', () => {
      const noStore = q(mode);
      noStore.delete(obj('foo', 10));
      expect(noStore.length).toBe(0);
      const withStore = q(mode, { knownObjects: new TestStore(obj('bar', 1)) });
      withStore.delete(obj('foo', 10));
      expect(withStore.length).toBe(0);
      expect(popAll(withStore)).toEqual([]);
    });

    it('F3: a Delete of a key in the known store is queued', () => {
      const f = q(mode, { knownObjects: new TestStore(obj('foo', 5)) });
      f.delete(obj('foo', 10));
      expect(popAll(f)).toEqual([['foo', [['Deleted', obj('foo', 10)]]]]);
    });

    it('F3: a Delete of a key only queued (no known store) is queued', () => {
      const f = q(mode);
      f.add(obj('foo', 5));
      f.delete(obj('foo', 10));
      expect(deltasOf(popAll(f), 'foo')).toEqual([
        ['Added', obj('foo', 5)],
        ['Deleted', obj('foo', 10)],
      ]);
    });

    it('F4: Delete(old) then Replace([new]) of one key gives [Deleted old, Sync/Replaced new]', () => {
      const f = q(mode, { knownObjects: new TestStore(obj('foo', 5)) });
      f.delete(obj('foo', 10));
      f.replace([obj('foo', 6)], '0');
      const pops = popAll(f);
      const expected: D[] = [
        ['Deleted', obj('foo', 10)],
        [replaced(mode), obj('foo', 6)],
      ];
      if (mode === 'coalescing') expect(pops).toEqual([['foo', expected]]);
      else expect(pops).toEqual(expected.map((d) => ['foo', [d]]));
    });

    describe.each([
      ['without a known store', false],
      ['with a known store', true],
    ])('F5: Replace detects deletions %s', (_name, withStore) => {
      const make = () => q(mode, withStore ? { knownObjects: new TestStore() } : {});
      const R = replaced(mode);

      it('F5: Add, Replace([]) -> [Added, Deleted(DFSU obj)]', () => {
        const f = make();
        f.add(obj('foo', 10));
        f.replace([], '0');
        expect(deltasOf(popAll(f), 'foo')).toEqual([
          ['Added', obj('foo', 10)],
          ['Deleted', dfsu(obj('foo', 10))],
        ]);
      });

      it('F5: Add, Delete, Replace([]) -> [Added, Deleted] (no second deletion)', () => {
        const f = make();
        f.add(obj('foo', 10));
        f.delete(obj('foo', 15));
        f.replace([], '0');
        expect(deltasOf(popAll(f), 'foo')).toEqual([
          ['Added', obj('foo', 10)],
          ['Deleted', obj('foo', 15)],
        ]);
      });

      it('F5: Add, Replace([o]) twice, Replace([]) -> [Added, Sync, Sync, Deleted(DFSU)]', () => {
        const f = make();
        f.add(obj('foo', 10));
        f.replace([obj('foo', 10)], '0');
        f.replace([obj('foo', 10)], '0');
        f.replace([], '0');
        expect(deltasOf(popAll(f), 'foo')).toEqual([
          ['Added', obj('foo', 10)],
          [R, obj('foo', 10)],
          [R, obj('foo', 10)],
          ['Deleted', dfsu(obj('foo', 10))],
        ]);
      });

      it('F5: Add, Replace([]), Replace([]) -> one DFSU', () => {
        const f = make();
        f.add(obj('foo', 10));
        f.replace([], '0');
        f.replace([], '0');
        expect(deltasOf(popAll(f), 'foo')).toEqual([
          ['Added', obj('foo', 10)],
          ['Deleted', dfsu(obj('foo', 10))],
        ]);
      });

      it('F5: Add, Delete, Add(v2), Replace([]) -> ends with a DFSU carrying v2', () => {
        const f = make();
        f.add(obj('foo', 10));
        f.delete(obj('foo', 10));
        f.add(obj('foo', 20));
        f.replace([], '0');
        expect(deltasOf(popAll(f), 'foo')).toEqual([
          ['Added', obj('foo', 10)],
          ['Deleted', obj('foo', 10)],
          ['Added', obj('foo', 20)],
          ['Deleted', dfsu(obj('foo', 20))],
        ]);
      });
    });

    it('applies reflector events; a bookmark changes nothing', () => {
      const f = q(mode, { knownObjects: new TestStore(obj('k', 1)) });
      f.apply({ type: 'bookmark', resourceVersion: '5' });
      expect(f.length).toBe(0);
      expect(f.hasSynced).toBe(false);
      f.apply({ type: 'add', object: obj('a', 1) });
      f.apply({ type: 'update', object: obj('a', 2) });
      f.apply({ type: 'delete', object: obj('a', 3) });
      f.apply({ type: 'resync' });
      f.apply({ type: 'replace', items: [obj('b', 1)], resourceVersion: '6' });
      const pops = popAll(f);
      expect(deltasOf(pops, 'a').map(([t]) => t)).toEqual(['Added', 'Updated', 'Deleted']);
      expect(deltasOf(pops, 'k').map(([t]) => t)).toEqual(['Sync', 'Deleted']);
      expect(deltasOf(pops, 'b')).toEqual([[replaced(mode), obj('b', 1)]]);
    });

    it('hands out pops and deltas readonly by type, not frozen at run time (and never touched again)', () => {
      const f = q(mode);
      const a = obj('a', 1);
      f.add(a);
      const p = f.pop()!;
      expect(Object.isFrozen(p)).toBe(false);
      expect(Object.isFrozen(p.deltas)).toBe(false);
      expect(p.deltas[0].object).toBe(a);
      f.add(obj('a', 2));
      expect(p.deltas).toHaveLength(1);
      expect(f.pop()!.deltas).toHaveLength(1);
      expect(f.pop()).toBeUndefined();
    });

    it('getByKey returns a copy of the queued deltas', () => {
      const f = q(mode);
      f.add(obj('a', 1));
      f.update(obj('a', 2));
      f.add(obj('b', 1));
      const a = f.getByKey('a')!;
      expect(a.map((d) => d.type)).toEqual(['Added', 'Updated']);
      expect(f.getByKey('nope')).toBeUndefined();
      f.update(obj('a', 3));
      expect(a).toHaveLength(2);
    });

    it('stays first-in first-out across many pushes and pops (queue compaction)', () => {
      const f = q(mode);
      const popped: string[] = [];
      for (let i = 0; i < 5000; i++) {
        f.add(obj(`k${i}`, i));
        if (i % 3 === 0) popped.push(f.pop()!.key);
      }
      popped.push(...popAll(f).map(([k]) => k));
      expect(popped).toEqual(Array.from({ length: 5000 }, (_, i) => `k${i}`));
    });
  });
});
