import { describe, expect, it } from '@jest/globals';
import { compareResourceVersions } from '../../lib/meta/compareResourceVersions.js';
import { isWriteSeen, ownWritesStep, type AwaitedWrite } from '../../lib/controller/ownWrites.js';
import { dep } from './support.js';

const write = (over: Partial<AwaitedWrite> = {}): AwaitedWrite => ({ cache: 0, key: 'ns/a', uid: 'uid-a', resourceVersion: '42', deleted: false, ...over });

describe('read-your-own-writes: the pure parts', () => {
  it('compareResourceVersions orders decimal integers of any length and refuses the rest', () => {
    expect(compareResourceVersions('99', '100')).toBe(-1);
    expect(compareResourceVersions('100', '100')).toBe(0);
    expect(compareResourceVersions('12345678901234567890', '12345678901234567889')).toBe(1);
    expect(compareResourceVersions('0', '1')).toBe(-1);
    for (const [a, b] of [['abc', '1'], ['01', '1'], ['1', ''], ['1.5', '2'], [undefined, '1'], ['-1', '1']]) {
      expect(compareResourceVersions(a, b)).toBeUndefined();
    }
  });

  it('isWriteSeen: comparable versions, at or past the written one; absent but synced past it (deleted since)', () => {
    expect(isWriteSeen(write(), { object: dep('a', '41') })).toBe(false);
    expect(isWriteSeen(write(), { object: dep('a', '42') })).toBe(true);
    expect(isWriteSeen(write(), { object: dep('a', '50') })).toBe(true);
    expect(isWriteSeen(write(), { object: undefined, lastSyncResourceVersion: '41' })).toBe(false);
    expect(isWriteSeen(write(), { object: undefined, lastSyncResourceVersion: '43' })).toBe(true);
  });

  it('isWriteSeen: incomparable versions, the written one or a change from the one before the write', () => {
    expect(isWriteSeen(write({ resourceVersion: 'x2', before: 'x1' }), { object: dep('a', 'x1') })).toBe(false);
    expect(isWriteSeen(write({ resourceVersion: 'x2', before: 'x1' }), { object: dep('a', 'x2') })).toBe(true);
    expect(isWriteSeen(write({ resourceVersion: 'x2', before: 'x1' }), { object: dep('a', 'x3') })).toBe(true);
    // No version written: only "differs from before" can tell.
    expect(isWriteSeen(write({ resourceVersion: undefined, before: '7' }), { object: dep('a', '7') })).toBe(false);
    expect(isWriteSeen(write({ resourceVersion: undefined, before: '7' }), { object: dep('a', '8') })).toBe(true);
    // A create (nothing cached then): seen once cached.
    expect(isWriteSeen(write({ resourceVersion: 'x2' }), { object: undefined })).toBe(false);
    expect(isWriteSeen(write({ resourceVersion: 'x2' }), { object: dep('a', 'x9') })).toBe(true);
  });

  it('isWriteSeen: a deletion once gone, replaced (another uid), or marked for deletion', () => {
    const del = write({ deleted: true });
    expect(isWriteSeen(del, { object: dep('a', '42') })).toBe(false);
    expect(isWriteSeen(del, { object: undefined })).toBe(true);
    expect(isWriteSeen(del, { object: dep('a', '60', 1, { uid: 'uid-other' }) })).toBe(true);
    const marked = { ...dep('a', '43'), metadata: { ...dep('a', '43').metadata, deletionTimestamp: '2026-01-01T00:00:00Z' } };
    expect(isWriteSeen(del, { object: marked })).toBe(true);
  });

  it('ownWritesStep: drops what is seen, catches up when none is left, times out with the rest', () => {
    const a = write();
    const b = write({ key: 'ns/b', resourceVersion: '50' });
    const cache: Record<string, string> = { 'ns/a': '42', 'ns/b': '49' };
    const read = (w: AwaitedWrite) => ({ object: dep(w.key.slice(3), cache[w.key]) });
    const s1 = ownWritesStep({ kind: 'waiting', pending: [a, b], since: 10 }, { type: 'check', now: 12, read });
    expect(s1).toEqual({ kind: 'waiting', pending: [b], since: 10 });
    expect(ownWritesStep(s1, { type: 'timeout', now: 20 })).toEqual({ kind: 'timedOut', pending: [b], waitedMs: 10 });
    cache['ns/b'] = '50';
    const s2 = ownWritesStep(s1, { type: 'check', now: 15, read });
    expect(s2).toEqual({ kind: 'caughtUp', waitedMs: 5 });
    expect(ownWritesStep(s2, { type: 'timeout', now: 99 })).toBe(s2);
  });
});
