import { describe, expect, it } from '@jest/globals';
import { popBurst } from '../../lib/fifo/deltaFifoBatch.js';
import type { FifoMode } from '../../lib/fifo/fifoQueue.js';
import { processDeltas } from '../../lib/informer/processDeltas.js';
import type { ReflectorEvent } from '../../lib/reflector/reflectorEvent.js';
import { storeWriter } from '../../lib/store/storeWriter.js';
import { describeNotification } from '../../lib/testing/marbles.js';
import { pod, type Pod } from './support.js';

// The FIFO reads no store: what client-go's DeltaFIFO asks `knownObjects` (is a deleted key known,
// which known keys did a relist not have) is answered by the store write, where the old state is.
// These are client-go's F3/F5/F6 cases, run through the FIFO's reducer and the store write together.
const add = (name: string, rv: string): ReflectorEvent<Pod> => ({ type: 'add', object: pod(name, rv) });
const del = (name: string, rv: string): ReflectorEvent<Pod> => ({ type: 'delete', object: pod(name, rv) });
const rep = (rv: string, ...items: Pod[]): ReflectorEvent<Pod> => ({
  type: 'replace',
  items,
  resourceVersion: rv,
});

/** A store holding `stored`, then each burst through popBurst and processDeltas: what handlers hear. */
function run(mode: FifoMode, stored: Pod[], ...bursts: Array<Array<ReflectorEvent<Pod>>>) {
  const writer = storeWriter<Pod>();
  writer.replace(stored, '1');
  const heard: string[] = [];
  for (const burst of bursts) {
    const batch = popBurst(burst, true, { mode, emitDeltaTypeReplaced: true });
    heard.push(...processDeltas(writer, batch, 'pods').notifications.map((n) => describeNotification(n.notification)));
  }
  return { heard, keys: writer.current.listKeys().slice().sort() };
}

describe('a relist deletes what only the store knew, in the store write (both FIFO modes)', () => {
  it('F3: a deletion of a key the store does not hold is dropped; one it holds is told', () => {
    for (const mode of ['coalescing', 'ordered'] as const) {
      expect(run(mode, [pod('k', '5')], [del('zzz', '6')], [del('k', '7')]).heard).toEqual(['delete ns/k@7']);
    }
  });

  it.each([
    ['coalescing', ['delete ns/baz@10', 'update ns/foo@5->5', 'delete ns/bar@6 tombstone']],
    // F15: ordered mode tells the deletions first, then the listed items
    ['ordered', ['delete ns/baz@10', 'delete ns/bar@6 tombstone', 'update ns/foo@5->5']],
  ] as const)(
    'F6 %s: Delete(baz10), Replace([foo5]) over {foo5, bar6, baz7} -> baz deleted, foo synced, bar a tombstone',
    (mode, heard) => {
      const r = run(
        mode,
        [pod('foo', '5'), pod('bar', '6'), pod('baz', '7')],
        [del('baz', '10'), rep('11', pod('foo', '5'))],
      );
      expect(r.heard).toEqual(heard);
      expect(r.keys).toEqual(['ns/foo']);
    },
  );

  it('F5: Add then Replace([]) -> the add, then one tombstone; a second Replace([]) finds nothing more', () => {
    for (const mode of ['coalescing', 'ordered'] as const) {
      expect(run(mode, [], [add('a', '2'), rep('3')], [rep('4')]).heard).toEqual([
        'add ns/a@2',
        'delete ns/a@2 tombstone',
      ]);
    }
  });

  it('F5: a key queued in the same burst is not deleted twice (Add, Delete, Replace([]))', () => {
    for (const mode of ['coalescing', 'ordered'] as const) {
      expect(run(mode, [pod('s', '1')], [add('a', '2'), del('a', '3'), rep('4')]).heard).toEqual([
        'add ns/a@2',
        'delete ns/a@3',
        'delete ns/s@1 tombstone',
      ]);
    }
  });

  it("I12: relist of {p1, p2, p3} as [p1', p2', p4] -> p3 deleted, p1 and p2 updated, p4 added; the store equals the list", () => {
    const r = run(
      'coalescing',
      [pod('p1', '1'), pod('p2', '1'), pod('p3', '1')],
      [rep('9', pod('p1', '8'), pod('p2', '8'), pod('p4', '8'))],
    );
    expect(r.heard).toEqual([
      'update ns/p1@1->8',
      'update ns/p2@1->8',
      'add ns/p4@8',
      'delete ns/p3@1 tombstone',
    ]);
    expect(r.keys).toEqual(['ns/p1', 'ns/p2', 'ns/p4']);
  });
});
