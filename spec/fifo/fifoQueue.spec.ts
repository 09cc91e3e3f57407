import { describe, expect, it, jest } from '@jest/globals';
import { KeyError, TransformError, type RxkubeError } from '../../lib/errors.js';
import { createFifoQueue } from '../../lib/fifo/createFifoQueue.js';
import { DeletedFinalStateUnknown } from '../../lib/fifo/deletedFinalStateUnknown.js';
import { DeltaFifoQueue } from '../../lib/fifo/deltaFifoQueue.js';
import type { FifoMode, FifoQueueOptions } from '../../lib/fifo/fifoQueue.js';
import { OrderedFifoQueue } from '../../lib/fifo/orderedFifoQueue.js';
import { deltasOf, dfsu, keyFunc, obj, popAll, TestStore, type D, type TestObj } from './fixtures.js';

const modes: FifoMode[] = ['coalescing', 'ordered'];
const q = (mode: FifoMode, options: FifoQueueOptions<TestObj> = {}) =>
  createFifoQueue<TestObj>({ keyFunc, mode, ...options });
/** The delta type each mode gives Replace items by default. */
const replaced = (mode: FifoMode) => (mode === 'coalescing' ? 'Sync' : 'Replaced');

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

    it('F5: a DFSU for a known key carries the known object; a queued DFSU is not nested', () => {
      const f = q(mode, { knownObjects: new TestStore(obj('bar', 6)) });
      f.delete(new DeletedFinalStateUnknown('foo', obj('foo', 1))); // dropped: neither queued nor known
      f.add(obj('foo', 2));
      f.replace([], '0');
      f.replace([], '0');
      const pops = popAll(f);
      expect(deltasOf(pops, 'bar')).toEqual([['Deleted', dfsu(obj('bar', 6))]]);
      expect(deltasOf(pops, 'foo')).toEqual([
        ['Added', obj('foo', 2)],
        ['Deleted', dfsu(obj('foo', 2))],
      ]);
    });

    it('F7: emitDeltaTypeReplaced decides between Replaced and Sync for Replace items', () => {
      const on = q(mode, { emitDeltaTypeReplaced: true });
      on.replace([obj('foo', 1)], '1');
      expect(popAll(on)).toEqual([['foo', [['Replaced', obj('foo', 1)]]]]);
      const off = q(mode, { emitDeltaTypeReplaced: false });
      off.replace([obj('foo', 1)], '1');
      expect(popAll(off)).toEqual([['foo', [['Sync', obj('foo', 1)]]]]);
    });

    it('F9: Resync queues Sync for every known key with nothing queued', () => {
      const f = q(mode, { knownObjects: new TestStore(obj('foo', 5), obj('bar', 6)) });
      f.resync();
      expect(popAll(f)).toEqual([
        ['foo', [['Sync', obj('foo', 5)]]],
        ['bar', [['Sync', obj('bar', 6)]]],
      ]);
    });

    it('F9: Resync skips a key with a queued delta (Update(foo6) then Resync gives only [Updated 6])', () => {
      const f = q(mode, { knownObjects: new TestStore(obj('foo', 5)) });
      f.update(obj('foo', 6));
      f.resync();
      expect(popAll(f)).toEqual([['foo', [['Updated', obj('foo', 6)]]]]);
    });

    it('F9: Resync without a known store does nothing', () => {
      const f = q(mode);
      f.resync();
      expect(f.length).toBe(0);
    });

    it('F10: hasSynced is false before anything and true after a first Add (no list)', () => {
      const f = q(mode);
      expect(f.hasSynced).toBe(false);
      f.add(obj('foo', 1));
      expect(f.hasSynced).toBe(true);
    });

    it('F10: hasSynced is true after a first Update or Delete too', () => {
      const u = q(mode);
      u.update(obj('foo', 1));
      expect(u.hasSynced).toBe(true);
      const d = q(mode);
      d.delete(obj('foo', 1)); // dropped, but it still counts as the first call (as client-go)
      expect(d.hasSynced).toBe(true);
    });

    it('F10: hasSynced is true right after Replace([])', () => {
      const f = q(mode);
      f.replace([], '0');
      expect(f.hasSynced).toBe(true);
    });

    it('F10: after Replace([a, b]) hasSynced is false until both are popped', () => {
      const f = q(mode);
      f.replace([obj('a', 1), obj('b', 1)], '0');
      expect(f.hasSynced).toBe(false);
      f.pop();
      expect(f.hasSynced).toBe(false);
      f.pop();
      expect(f.hasSynced).toBe(true);
    });

    it('F10: a second Replace does not make hasSynced false again', () => {
      const f = q(mode);
      f.replace([obj('a', 1)], '0');
      f.pop();
      f.replace([obj('a', 2), obj('b', 2)], '1');
      expect(f.hasSynced).toBe(true);
    });

    it('F10: the deletions the first Replace detects count towards hasSynced', () => {
      const f = q(mode, { knownObjects: new TestStore(obj('gone', 1)) });
      f.replace([obj('a', 1)], '0');
      expect(f.hasSynced).toBe(false);
      f.pop();
      expect(f.hasSynced).toBe(false);
      f.pop();
      expect(f.hasSynced).toBe(true);
    });

    it('F11: every pop of the first Replace is isInInitialList; later ones are not', () => {
      const f = q(mode);
      f.replace([obj('a', 1), obj('b', 1)], '0');
      f.add(obj('c', 1)); // arrives while the initial list is still queued
      const flags = [f.pop(), f.pop(), f.pop()].map((p) => [p?.key, p?.isInInitialList]);
      expect(flags).toEqual([
        ['a', true],
        ['b', true],
        ['c', false],
      ]);
      f.replace([obj('a', 2)], '1');
      expect(f.pop()?.isInInitialList).toBe(false);
    });

    it('F11: items added before any Replace are not isInInitialList', () => {
      const f = q(mode);
      f.add(obj('a', 1));
      f.replace([obj('a', 2)], '1');
      const pops = [f.pop(), f.pop()].filter((p) => p !== undefined);
      expect(pops.every((p) => !p.isInInitialList)).toBe(true);
    });

    it('F13: the transform runs exactly once per object, never on Sync deltas of a resync or on tombstones', () => {
      const seen: TestObj[] = [];
      const transform = (o: TestObj): TestObj => {
        seen.push(o);
        return { ...o, val: o.val * 100 };
      };
      const store = new TestStore(obj('known', 1));
      const f = q(mode, { knownObjects: store, transform });
      f.add(obj('a', 1));
      f.update(obj('a', 2));
      f.replace([obj('b', 3)], '1'); // a -> DFSU, known -> DFSU, b listed
      f.delete(new DeletedFinalStateUnknown('b', obj('b', 3)));
      const pops = popAll(f);
      f.resync(); // Sync known(1) from the store
      const resync = popAll(f);
      expect(seen).toEqual([obj('a', 1), obj('a', 2), obj('b', 3)]);
      expect(deltasOf(pops, 'a')).toEqual([
        ['Added', obj('a', 100)],
        ['Updated', obj('a', 200)],
        ['Deleted', dfsu(obj('a', 200))],
      ]);
      expect(deltasOf(pops, 'known')).toEqual([['Deleted', dfsu(obj('known', 1))]]);
      expect(resync).toEqual([['known', [['Sync', obj('known', 1)]]]]);
      expect((resync[0][1][0][1] as TestObj) === store.map.get('known')).toBe(true);
    });

    it('F13: Replace items are transformed even when emitted as Sync', () => {
      const f = q(mode, { transform: (o) => ({ ...o, val: -o.val }), emitDeltaTypeReplaced: false });
      f.replace([obj('a', 1)], '1');
      expect(popAll(f)).toEqual([['a', [['Sync', obj('a', -1)]]]]);
    });

    it('a transform that throws skips the object and reports a TransformError', () => {
      const errors: RxkubeError[] = [];
      const f = q(mode, {
        onError: (e) => errors.push(e),
        transform: (o) => {
          if (o.val < 0) throw new Error('negative');
          return o;
        },
      });
      f.add(obj('a', -1));
      f.add(obj('b', 1));
      expect(popAll(f)).toEqual([['b', [['Added', obj('b', 1)]]]]);
      expect(errors).toHaveLength(1);
      expect(errors[0]).toBeInstanceOf(TransformError);
      expect((errors[0] as TransformError).object).toEqual(obj('a', -1));
    });

    it('F10: an item of the first Replace whose transform throws does not hold hasSynced back', () => {
      const errors: RxkubeError[] = [];
      const f = q(mode, {
        onError: (e) => errors.push(e),
        transform: (o) => {
          if (o.name === 'bad') throw new Error('no');
          return o;
        },
      });
      f.replace([obj('a', 1), obj('bad', 1)], '1');
      expect(f.pop()?.key).toBe('a');
      expect(f.pop()).toBeUndefined();
      expect(f.hasSynced).toBe(true);
      expect(errors).toHaveLength(1);
    });

    it('an object without a key is skipped and reported as a KeyError; the queue goes on', () => {
      const errors: RxkubeError[] = [];
      const f = createFifoQueue<{ metadata?: { name?: string } }>({ mode, onError: (e) => errors.push(e) });
      f.add({});
      f.replace([{ metadata: { name: 'a' } }, { metadata: {} }], '1');
      expect(popAll(f as never).map(([k]) => k)).toEqual(['a']);
      expect(errors.map((e) => e.constructor)).toEqual([KeyError, KeyError]);
    });

    it('wraps a non-KeyError thrown by a custom keyFunc in a KeyError', () => {
      const errors: RxkubeError[] = [];
      const f = createFifoQueue<TestObj>({
        mode,
        keyFunc: () => {
          throw new Error('boom');
        },
        onError: (e) => errors.push(e),
      });
      f.add(obj('a', 1));
      expect(f.length).toBe(0);
      expect(errors[0]).toBeInstanceOf(KeyError);
      expect(errors[0].message).toMatch(/boom/);
    });

    it('reports errors with console.warn by default', () => {
      const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
      try {
        const f = createFifoQueue<{ metadata?: { name?: string } }>({ mode });
        f.add({});
        expect(warn).toHaveBeenCalledWith(expect.stringMatching(/KeyError|couldn't create key/));
      } finally {
        warn.mockRestore();
      }
    });

    it('uses deletionHandlingMetaNamespaceKeyFunc by default', () => {
      const f = createFifoQueue<{ metadata: { name: string; namespace?: string } }>({ mode });
      f.add({ metadata: { namespace: 'ns', name: 'a' } });
      f.add({ metadata: { name: 'node-1' } });
      expect(f.listKeys()).toEqual(['ns/a', 'node-1']);
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
