import { describe, expect, it } from '@jest/globals';
import { DeletedFinalStateUnknown } from '../../lib/meta/deletedFinalStateUnknown.js';
import { deltasOf, dfsu, obj, popAll, TestStore } from './fixtures.js';
import { modes, q } from './fifoQueueSupport.js';

// Both modes: Replace with known objects, Resync, hasSynced and isInInitialList (F5, F7, F9-F11).
describe('fifo queue', () => {
  describe.each(modes)('%s mode', (mode) => {
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
  });
});
