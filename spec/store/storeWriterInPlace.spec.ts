import { describe, expect, it } from '@jest/globals';
import { skip, take } from 'rxjs';
import type { KubeObject } from '../../lib/meta/kubeObject.js';
import type { Store } from '../../lib/store/store.js';
import { storeWriter, type StoreWriter } from '../../lib/store/storeWriter.js';
import { SnapshotReaders } from './snapshotReaders.js';
import { podOnNode } from '../support/pods.js';
import { seededRandom } from '../../lib/testing/fakeApiServer/random.js';

// The informer's batches (`batchInPlace`) edit in place the nodes of a snapshot nobody was handed.
// These tests hold the other half of that bargain: a snapshot that was handed out (`current`,
// `store$`) never changes, whatever batches follow.

type Pod = KubeObject & { spec: { nodeName: string } };

const byNode = (p: Pod) => [p.spec.nodeName];

/** Everything a reader can see of a snapshot, as plain data. */
function contents(s: Store<Pod>): unknown {
  const objects = [...s.listKeys()].sort().map((k) => [k, s.getByKey(k)?.metadata?.resourceVersion]);
  const nodes = s.indexNames().includes('byNode')
    ? [...s.listIndexFuncValues('byNode')].sort().map((v) => [v, [...s.indexKeys('byNode', v)].sort()])
    : [];
  // The count of each namespace's entries (byIndex's length is that count: no lookups needed).
  const namespaces = [...s.listIndexFuncValues('namespace')].sort().map((v) => [v, s.indexKeys('namespace', v).length]);
  return { size: s.size, rv: s.resourceVersion, objects, nodes, namespaces };
}

function randomBatch(writer: StoreWriter<Pod>, rnd: () => number, rv: number): void {
  writer.batchInPlace((m) => {
    const n = 1 + Math.floor(rnd() * 40);
    for (let i = 0; i < n; i++) {
      const name = `p${Math.floor(rnd() * 200)}`;
      const ns = `ns${Math.floor(rnd() * 3)}`;
      if (rnd() < 0.2) m.deleteByKey(`${ns}/${name}`);
      else m.upsert(podOnNode(ns, name, `node${Math.floor(rnd() * 5)}`, String(rv * 100 + i)));
    }
    m.setResourceVersion(String(rv));
  });
}

describe('storeWriter.batchInPlace', () => {
  it('applies a batch and emits once, like batch', () => {
    const writer = storeWriter<Pod>({ indexers: { byNode } });
    const seen: number[] = [];
    const sub = writer.store$.subscribe((s) => seen.push(s.size));
    const old = writer.batchInPlace((m) => {
      m.upsert(podOnNode('a', 'x', 'n1', '1'));
      m.upsert(podOnNode('a', 'y', 'n1', '2'));
      return m.upsert(podOnNode('a', 'x', 'n2', '3'));
    });
    expect(old?.metadata?.resourceVersion).toBe('1');
    expect(seen).toEqual([0, 2]);
    expect(writer.current.indexKeys('byNode', 'n2')).toEqual(['a/x']);
    sub.unsubscribe();
  });

  it('a batch that changes nothing emits nothing, even after in-place batches', () => {
    const writer = storeWriter<Pod>();
    const p = podOnNode('a', 'x', 'n1', '1');
    writer.batchInPlace((m) => void m.upsert(p));
    writer.batchInPlace((m) => void m.upsert(podOnNode('a', 'y', 'n1', '1')));
    let emissions = 0;
    const sub = writer.store$.subscribe(() => emissions++);
    writer.batchInPlace((m) => void m.upsert(p));
    expect(emissions).toBe(1); // the replay only
    sub.unsubscribe();
  });

  it('an update of an existing key in an unseen snapshot still gives a new snapshot with the new object', () => {
    const writer = storeWriter<Pod>();
    writer.batchInPlace((m) => void m.upsert(podOnNode('a', 'x', 'n1', '1')));
    writer.batchInPlace((m) => void m.upsert(podOnNode('a', 'x', 'n1', '2'))); // same size: edited in place
    const seen: Array<string | undefined> = [];
    const sub = writer.store$.subscribe((s) => seen.push(s.getByKey('a/x')?.metadata?.resourceVersion));
    writer.batchInPlace((m) => void m.upsert(podOnNode('a', 'x', 'n1', '3')));
    writer.batchInPlace((m) => void m.upsert(podOnNode('a', 'x', 'n1', '4')));
    expect(seen).toEqual(['2', '3', '4']);
    sub.unsubscribe();
  });

  it('a read of a cached list between in-place updates of the same keys sees each update', () => {
    // An update of an existing key edits the unseen snapshot's nodes in place and keeps the map's
    // size: it must still give a new snapshot, or list() would answer from the old one's cache.
    const writer = storeWriter<Pod>();
    writer.batchInPlace((m) => void m.upsert(podOnNode('a', 'x', 'n1', '1')));
    const rv = () => writer.peek().list().map((p) => p.metadata?.resourceVersion);
    expect(rv()).toEqual(['1']);
    writer.batchInPlace((m) => void m.upsert(podOnNode('a', 'x', 'n1', '2')));
    expect(rv()).toEqual(['2']);
    writer.batchInPlace((m) => void m.upsert(podOnNode('a', 'x', 'n1', '3')));
    expect(rv()).toEqual(['3']);
  });

  it('a snapshot read through current never changes afterwards', () => {
    const writer = storeWriter<Pod>({ indexers: { byNode } });
    writer.batchInPlace((m) => {
      for (let i = 0; i < 100; i++) m.upsert(podOnNode('a', `p${i}`, 'n1', '1'));
    });
    writer.batchInPlace((m) => void m.upsert(podOnNode('a', 'p1', 'n2', '2')));
    const kept = writer.current;
    const before = contents(kept);
    writer.batchInPlace((m) => {
      for (let i = 0; i < 100; i += 2) m.upsert(podOnNode('a', `p${i}`, 'n3', '3'));
      m.deleteByKey('a/p1');
    });
    writer.batchInPlace((m) => void m.upsert(podOnNode('a', 'p3', 'n4', '4')));
    expect(contents(kept)).toEqual(before);
    expect(contents(writer.current)).not.toEqual(before);
  });

  it('a snapshot taken by a subscriber that unsubscribes on receiving it (take) never changes', () => {
    const writer = storeWriter<Pod>({ indexers: { byNode } });
    writer.batchInPlace((m) => {
      for (let i = 0; i < 50; i++) m.upsert(podOnNode('a', `p${i}`, 'n1', '1'));
    });
    let taken: Store<Pod> | undefined;
    writer.store$.pipe(skip(1), take(1)).subscribe((s) => (taken = s));
    writer.batchInPlace((m) => void m.upsert(podOnNode('a', 'p1', 'n1', '2')));
    const before = contents(taken!);
    writer.batchInPlace((m) => void m.upsert(podOnNode('a', 'p1', 'n1', '3')));
    writer.batchInPlace((m) => void m.upsert(podOnNode('a', 'p2', 'n1', '4')));
    expect(contents(taken!)).toEqual(before);
    expect(taken!.getByKey('a/p1')?.metadata?.resourceVersion).toBe('2');
  });

  it('peek() hands out the unseen snapshot, which the next batch may edit in place', () => {
    // The point of batchInPlace: a snapshot nobody was handed is not copied again. peek() is the
    // internal read that takes no reference; its object is not to be kept.
    const writer = storeWriter<Pod>();
    writer.batchInPlace((m) => {
      for (let i = 0; i < 100; i++) m.upsert(podOnNode('a', `p${i}`, 'n1', '1'));
    });
    writer.batchInPlace((m) => void m.upsert(podOnNode('a', 'p1', 'n1', '2')));
    const peeked = writer.peek();
    writer.batchInPlace((m) => void m.upsert(podOnNode('a', 'p1', 'n1', '3')));
    // A store with only the namespace index is written as a working set: the next snapshot is
    // built when asked for, from the peeked one, in place.
    writer.peek();
    expect(peeked.getByKey('a/p1')?.metadata?.resourceVersion).toBe('3');
    expect(writer.current.getByKey('a/p1')?.metadata?.resourceVersion).toBe('3');
  });

  it('a write of its own (batch, add) in between hands nothing unseen to the next batchInPlace', () => {
    const writer = storeWriter<Pod>({ indexers: { byNode } });
    writer.batchInPlace((m) => {
      for (let i = 0; i < 50; i++) m.upsert(podOnNode('a', `p${i}`, 'n1', '1'));
    });
    const seen: Store<Pod>[] = [];
    const sub = writer.store$.subscribe((s) => seen.push(s));
    sub.unsubscribe();
    writer.batch((m) => void m.upsert(podOnNode('a', 'p0', 'n1', '2')));
    const afterBatch = writer.current;
    const before = contents(afterBatch);
    writer.batchInPlace((m) => void m.upsert(podOnNode('a', 'p1', 'n1', '3')));
    writer.batchInPlace((m) => void m.upsert(podOnNode('a', 'p2', 'n1', '4')));
    expect(contents(afterBatch)).toEqual(before);
    expect(contents(seen[0]!)).not.toEqual(contents(writer.current));
  });

  it('if the batch throws, the writes before the throw are kept and published, then the error goes on', () => {
    const writer = storeWriter<Pod>();
    writer.batchInPlace((m) => void m.upsert(podOnNode('a', 'x', 'n1', '1')));
    const seen: number[] = [];
    const sub = writer.store$.subscribe((s) => seen.push(s.size));
    const boom = new Error('boom');
    expect(() =>
      writer.batchInPlace((m) => {
        m.upsert(podOnNode('a', 'y', 'n1', '2'));
        throw boom;
      }),
    ).toThrow(boom);
    expect(seen).toEqual([1, 2]);
    expect(writer.current.getByKey('a/y')?.metadata?.resourceVersion).toBe('2');
    // The writer is usable afterwards.
    writer.batchInPlace((m) => void m.upsert(podOnNode('a', 'z', 'n1', '3')));
    expect(writer.current.size).toBe(3);
    sub.unsubscribe();
  });

  it.each([
    ['an index of its own (snapshot batches)', { indexers: { byNode } }],
    ['only the namespace index (a working set)', {}],
  ])('every snapshot handed out keeps what it held, over random batches and random readers (20 seeds), with %s', (_name, options) => {
    for (let seed = 1; seed <= 20; seed++) {
      const rnd = seededRandom(seed).next; // replayable: a failing seed fails again
      const writer = storeWriter<Pod>(options);
      const readers = new SnapshotReaders(writer, contents);
      for (let rv = 1; rv <= 40; rv++) {
        randomBatch(writer, rnd, rv);
        const r = rnd();
        if (r < 0.15) readers.takeCurrent();
        else if (r < 0.25 && !readers.subscribed) readers.subscribe();
        else if (r < 0.35 && readers.subscribed) readers.leave();
        else if (r < 0.45) readers.takeNext();
        else if (r < 0.6) writer.peek().list(); // a read that keeps nothing
      }
      readers.expectUnchanged();
      expect(readers.count).toBeGreaterThan(0);
    }
  });
});
