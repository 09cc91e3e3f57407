import { describe, expect, it } from '@jest/globals';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { KubeObject } from '../../lib/meta/kubeObject.js';
import type { Store } from '../../lib/store/store.js';
import { storeWriter, type StoreWriter } from '../../lib/store/storeWriter.js';
import { SnapshotReaders } from './snapshotReaders.js';
import { seededRandom } from '../../lib/testing/fakeApiServer/random.js';
import { expectEqual, expectSame } from '../support/expectEqual.js';
import { storedPod } from '../support/pods.js';

// A store whose only index is the namespace index (an informer's default) takes the informer's
// batches (`batchInPlace`) into a working set (a Map) and builds a snapshot only when one is asked
// for. These tests hold it to what the snapshot store promised: every read sees every write, every
// snapshot handed out stays as it was, all-or-nothing writes, and nothing replaced kept alive.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

type Pod = KubeObject & { spec?: { nodeName: string } };

/** Everything a reader can see of a snapshot, as plain data. */
function contents(s: Store<Pod>): unknown {
  const objects = [...s.listKeys()].sort().map((k) => [k, s.getByKey(k)?.metadata?.resourceVersion]);
  const namespaces = [...s.listIndexFuncValues('namespace')].sort().map((v) => [v, [...s.indexKeys('namespace', v)].sort()]);
  return { size: s.size, rv: s.resourceVersion, objects, namespaces };
}

/** What `contents` should give for a model of key -> object. */
function expected(model: Map<string, Pod>, rv: string | undefined): unknown {
  const keys = [...model.keys()].sort();
  const namespaces = [...new Set(keys.map((k) => k.split('/')[0]))].sort();
  return {
    size: model.size,
    rv,
    objects: keys.map((k) => [k, model.get(k)?.metadata?.resourceVersion]),
    namespaces: namespaces.map((ns) => [ns, keys.filter((k) => k.startsWith(`${ns}/`))]),
  };
}

const nextTask = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

function listed(writer: StoreWriter<Pod>, n: number, rv: string): void {
  writer.batchInPlace((m) => {
    for (let i = 0; i < n; i++) m.upsert(storedPod('a', `p${i}`, rv));
    m.setResourceVersion(rv);
  });
}

describe('storeWriter: the working set of a store with only the namespace index', () => {
  it('reads see every batch, and snapshots handed out stay as they were (random writes and readers, 30 seeds)', () => {
    for (let seed = 1; seed <= 30; seed++) {
      const rnd = seededRandom(seed).next; // replayable: a failing seed fails again
      const writer = storeWriter<Pod>();
      const model = new Map<string, Pod>();
      let rv: string | undefined;
      const readers = new SnapshotReaders(writer, contents);
      for (let step = 1; step <= 60; step++) {
        const r = rnd();
        if (r < 0.7) {
          writer.batchInPlace((m) => {
            const n = Math.floor(rnd() * 30);
            for (let i = 0; i < n; i++) {
              const key = `ns${Math.floor(rnd() * 3)}/p${Math.floor(rnd() * 40)}`;
              const [ns, name] = key.split('/');
              if (rnd() < 0.25) {
                expectSame(m.deleteByKey(key), model.get(key));
                model.delete(key);
              } else {
                const p = storedPod(ns!, name!, `${step}.${i}`);
                expectSame(m.upsert(p), model.get(key));
                model.set(key, p);
              }
              expectSame(m.size, model.size);
            }
            if (rnd() < 0.8) m.setResourceVersion((rv = String(step)));
          });
        } else if (r < 0.75) {
          const p = storedPod('ns9', `q${step}`, String(step)); // a write of another kind
          writer.add(p);
          model.set(`ns9/q${step}`, p);
        } else if (r < 0.8 && model.size > 0) {
          const key = [...model.keys()][Math.floor(rnd() * model.size)]!;
          writer.batch((m) => void m.deleteByKey(key));
          model.delete(key);
        } else if (r < 0.85) readers.takeCurrent();
        else if (r < 0.9 && !readers.subscribed) readers.subscribe();
        else if (r < 0.95 && readers.subscribed) readers.leave();
        else readers.takeNext();
        const probe = `ns${Math.floor(rnd() * 3)}/p${Math.floor(rnd() * 40)}`;
        expectSame(writer.peekByKey(probe), model.get(probe)); // read without a snapshot
        const [ns, name] = probe.split('/');
        expectSame(writer.peekByObject(storedPod(ns!, name!, '0')), model.get(probe)); // by the object's key
        expectEqual(contents(writer.peek()), expected(model, rv));
      }
      readers.expectUnchanged();
    }
  });

  it('a subscriber gets the current content first, then one snapshot per batch that changes something', () => {
    const writer = storeWriter<Pod>();
    listed(writer, 5, '1');
    const seen: unknown[] = [];
    const sub = writer.store$.subscribe((s) => seen.push([s.size, s.resourceVersion]));
    const p = storedPod('a', 'p9', '2');
    writer.batchInPlace((m) => void m.upsert(p));
    writer.batchInPlace((m) => void m.upsert(p)); // the same object: nothing changes
    writer.batchInPlace((m) => void m.setResourceVersion('3'));
    sub.unsubscribe();
    writer.batchInPlace((m) => void m.deleteByKey('a/p0'));
    expect(seen).toEqual([
      [5, '1'],
      [6, '1'],
      [6, '3'],
    ]);
    expect(contents(writer.current)).toMatchObject({ size: 5, rv: '3' });
  });

  it('a write that cannot be indexed changes nothing, and the batch goes on', () => {
    const writer = storeWriter<Pod>();
    listed(writer, 3, '1');
    const before = contents(writer.current);
    writer.batchInPlace((m) => {
      expect(() => m.upsertByKey('a/bad', null as unknown as Pod)).toThrow(TypeError);
      expect(() => m.replace([storedPod('a', 'x', '2'), {} as Pod])).toThrow(); // no name: no key
      m.upsert(storedPod('b', 'y', '2'));
    });
    expect(contents(writer.current)).toEqual({
      ...(before as object),
      size: 4,
      objects: [...(before as { objects: unknown[] }).objects, ['b/y', '2']],
      namespaces: [...(before as { namespaces: unknown[] }).namespaces, ['b', ['b/y']]],
    });
  });

  it('freezes objects as they are written, with freeze: true', () => {
    const writer = storeWriter<Pod>({ freeze: true });
    const p = storedPod('a', 'x', '1');
    writer.batchInPlace((m) => void m.upsert(p));
    expect(Object.isFrozen(p.metadata)).toBe(true);
  });

  it('indexes added later are built over what the working set holds, and kept up to date', () => {
    const writer = storeWriter<Pod>();
    writer.batchInPlace((m) => {
      m.upsert({ ...storedPod('a', 'x', '1'), spec: { nodeName: 'n1' } });
      m.upsert({ ...storedPod('a', 'y', '1'), spec: { nodeName: 'n2' } });
    });
    writer.addIndexers({ byNode: (p: Pod) => [p.spec?.nodeName ?? ''] });
    writer.batchInPlace((m) => void m.upsert({ ...storedPod('a', 'y', '2'), spec: { nodeName: 'n1' } }));
    expect(writer.current.indexKeys('byNode', 'n1').sort()).toEqual(['a/x', 'a/y']);
    expect(writer.current.indexKeys('byNode', 'n2')).toEqual([]);
  });

  it('objects replaced since the last snapshot are not kept alive by it once as many writes as objects came', async () => {
    const writer = storeWriter<Pod>();
    let refs: Array<WeakRef<Pod>> = [];
    writer.batchInPlace((m) => {
      for (let i = 0; i < 50; i++) {
        const p = storedPod('a', `p${i}`, '1');
        refs.push(new WeakRef(p));
        m.upsert(p);
      }
    });
    expect(writer.peek().size).toBe(50); // a snapshot of the listed objects was built
    for (let round = 2; round <= 3; round++) {
      writer.batchInPlace((m) => {
        for (let i = 0; i < 50; i++) m.upsert(storedPod('a', `p${i}`, String(round)));
      });
    }
    await nextTask();
    gc();
    await nextTask();
    const alive = refs.filter((r) => r.deref() !== undefined).length;
    refs = [];
    expect(alive).toBe(0);
    expect(writer.peek().list().every((p) => p.metadata?.resourceVersion === '3')).toBe(true);
  });

  it('a snapshot someone holds keeps its objects, however many writes follow', () => {
    const writer = storeWriter<Pod>();
    listed(writer, 20, '1');
    const held = writer.current;
    for (let round = 2; round <= 5; round++) listed(writer, 20, String(round));
    expect(held.list().every((p) => p.metadata?.resourceVersion === '1')).toBe(true);
    expect(writer.current.list().every((p) => p.metadata?.resourceVersion === '5')).toBe(true);
  });
});
