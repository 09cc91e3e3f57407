import { describe, expect, it } from '@jest/globals';
import { createFifoQueue } from '../../lib/fifo/createFifoQueue.js';
import { popBurst } from '../../lib/fifo/deltaFifoBatch.js';
import { keyFunc, obj, TestStore, type TestObj } from './fixtures.js';

describe('popBurst: a resync burst says so on its batch', () => {
  it('marks the batch of a resync burst (and only it) with resync: true', () => {
    const known = new TestStore(obj('a', 1), obj('b', 1));
    const queue = createFifoQueue<TestObj>({ keyFunc, knownObjects: known });
    const listed = popBurst(
      queue,
      [{ type: 'replace', items: [obj('a', 1), obj('b', 1)], resourceVersion: '5' }],
      false,
    );
    expect(listed.resync).toBeUndefined();
    const resynced = popBurst(queue, [{ type: 'resync' }], true);
    expect(resynced.resync).toBe(true);
    expect(resynced.pops.map((p) => [p.key, p.deltas.map((d) => d.type)])).toEqual([
      ['a', ['Sync']],
      ['b', ['Sync']],
    ]);
    expect(resynced.resourceVersion).toBeUndefined();
    const watched = popBurst(queue, [{ type: 'update', object: obj('a', 2) }], true);
    expect(watched.resync).toBeUndefined();
  });
});
