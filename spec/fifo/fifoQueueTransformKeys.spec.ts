import { describe, expect, it, jest } from '@jest/globals';
import { KeyError, TransformError, type RxkubeError } from '../../lib/errors.js';
import { createFifoQueue } from '../../lib/fifo/createFifoQueue.js';
import { DeletedFinalStateUnknown } from '../../lib/meta/deletedFinalStateUnknown.js';
import { deltasOf, dfsu, obj, popAll, TestStore, type TestObj } from './fixtures.js';
import { modes, q } from './fifoQueueSupport.js';

// Both modes: the transform (F13), keys, and how the queue reports a throwing transform or key function.
describe('fifo queue', () => {
  describe.each(modes)('%s mode', (mode) => {
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

    it('a transform that returns nothing (a forgotten return) is a TransformError too, not a KeyError downstream', () => {
      const errors: RxkubeError[] = [];
      const f = q(mode, {
        onError: (e) => errors.push(e),
        transform: ((o: { val: number }) => (o.val < 0 ? undefined : o)) as unknown as (o: ReturnType<typeof obj>) => ReturnType<typeof obj>,
      });
      f.add(obj('a', -1));
      f.add(obj('b', 1));
      expect(popAll(f)).toEqual([['b', [['Added', obj('b', 1)]]]]);
      expect(errors).toEqual([expect.any(TransformError)]);
      expect(errors[0].message).toMatch(/the transform returned undefined, not an object/);
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

    it("reports errors to rxkube's default logger (console.error, explained) without onError", () => {
      const error = jest.spyOn(console, 'error').mockImplementation(() => undefined);
      const was = process.env.RXKUBE_LOG;
      delete process.env.RXKUBE_LOG; // the specs turn the default logger off; this one looks at it
      try {
        // A reason of its own per mode: the default logger holds back a line it logged moments ago.
        const keyFunc = (o: { name?: string }): string => {
          if (o.name === undefined) throw new Error(`no name (${mode} mode)`);
          return o.name;
        };
        const f = createFifoQueue<{ name?: string }>({ mode, keyFunc });
        f.add({ name: 'a' }); // keyed: nothing to report
        f.add({});
        expect(error).toHaveBeenCalledTimes(1);
        expect(error).toHaveBeenCalledWith(expect.stringMatching(new RegExp(`^rxkube: .*no name \\(${mode} mode\\)`)));
      } finally {
        process.env.RXKUBE_LOG = was;
        error.mockRestore();
      }
    });

    it('uses deletionHandlingMetaNamespaceKeyFunc by default', () => {
      const f = createFifoQueue<{ metadata: { name: string; namespace?: string } }>({ mode });
      f.add({ metadata: { namespace: 'ns', name: 'a' } });
      f.add({ metadata: { name: 'node-1' } });
      expect(f.listKeys()).toEqual(['ns/a', 'node-1']);
    });
  });
});
