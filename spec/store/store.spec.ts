import { describe, expect, it } from '@jest/globals';
import { DeletedFinalStateUnknown } from '../../lib/meta/deletedFinalStateUnknown.js';
import type { KubeObject } from '../../lib/meta/kubeObject.js';
import { IndexConflictError, IndexNotFoundError, StoreWriteError } from '../../lib/store/indexErrors.js';
import { NamespaceIndex } from '../../lib/store/indexers.js';
import type { Indexers } from '../../lib/store/indexers.js';
import { createStore, type Store, type StoreMutator } from '../../lib/store/store.js';

interface Pod extends KubeObject {
  spec?: { nodeName?: string };
}

function pod(
  namespace: string,
  name: string,
  labels: Record<string, string> = {},
  nodeName?: string,
  rv = '1',
): Pod {
  return { metadata: { namespace, name, labels, resourceVersion: rv }, spec: nodeName ? { nodeName } : {} };
}

/** client-go's test indexer: every label value is an index value (several per object). */
const byLabelValue = (p: Pod): string[] => Object.values(p.metadata?.labels ?? {});
const byNode = (p: Pod): string[] => (p.spec?.nodeName ? [p.spec.nodeName] : []);
const indexers: Indexers<Pod> = { byLabelValue, byNode };

const names = (objs: ReadonlyArray<Pod>): string[] => objs.map((o) => o.metadata!.name!).sort();
const sortedStrings = (xs: ReadonlyArray<string>): string[] => [...xs].sort();

describe('Store', () => {
  it('S1: byIndex, indexKeys, listIndexFuncValues and index(name, obj) answer from the indexes', () => {
    const a = pod('ns1', 'a', { app: 'web', tier: 'front' }, 'node-1');
    const b = pod('ns1', 'b', { app: 'web', tier: 'back' }, 'node-2');
    const c = pod('ns2', 'c', { app: 'db' }, 'node-1');
    const s = createStore<Pod>({ indexers }).add(a).add(b).add(c);

    expect(names(s.byIndex(NamespaceIndex, 'ns1'))).toEqual(['a', 'b']);
    expect(names(s.byIndex('byNode', 'node-1'))).toEqual(['a', 'c']);
    expect(s.byIndex('byNode', 'node-9')).toEqual([]);
    expect(sortedStrings(s.indexKeys('byLabelValue', 'web'))).toEqual(['ns1/a', 'ns1/b']);
    expect(s.indexKeys('byLabelValue', 'nothing')).toEqual([]);
    expect(sortedStrings(s.listIndexFuncValues('byLabelValue'))).toEqual(['back', 'db', 'front', 'web']);
    expect(sortedStrings(s.listIndexFuncValues(NamespaceIndex))).toEqual(['ns1', 'ns2']);
    // index(): the union over the probe's values, each object once.
    const probe = pod('x', 'probe', { one: 'front', two: 'db', three: 'web' });
    expect(names(s.index('byLabelValue', probe))).toEqual(['a', 'b', 'c']);
    expect(names(s.index('byLabelValue', pod('x', 'p', { only: 'back' })))).toEqual(['b']);
    expect(s.index('byLabelValue', pod('x', 'p', {}))).toEqual([]);
  });

  it('S2: an index function returning several values stays right through add, update and delete', () => {
    let s = createStore<Pod>({ indexers });
    s = s.add(pod('ns', 'a', { x: 'red', y: 'green' }));
    s = s.add(pod('ns', 'b', { x: 'green' }));
    expect(sortedStrings(s.indexKeys('byLabelValue', 'green'))).toEqual(['ns/a', 'ns/b']);
    expect(s.indexKeys('byLabelValue', 'red')).toEqual(['ns/a']);

    s = s.update(pod('ns', 'a', { x: 'blue', y: 'green', z: 'yellow' }));
    expect(s.indexKeys('byLabelValue', 'red')).toEqual([]);
    expect(s.indexKeys('byLabelValue', 'blue')).toEqual(['ns/a']);
    expect(s.indexKeys('byLabelValue', 'yellow')).toEqual(['ns/a']);
    expect(sortedStrings(s.indexKeys('byLabelValue', 'green'))).toEqual(['ns/a', 'ns/b']);

    s = s.delete(pod('ns', 'a'));
    expect(s.indexKeys('byLabelValue', 'green')).toEqual(['ns/b']);
    expect(s.indexKeys('byLabelValue', 'blue')).toEqual([]);
    expect(sortedStrings(s.listIndexFuncValues('byLabelValue'))).toEqual(['green']);
  });

  it('S2: duplicate values from one index function file the key once', () => {
    const s = createStore<Pod>({ indexers }).add(pod('ns', 'a', { x: 'same', y: 'same' }));
    expect(s.indexKeys('byLabelValue', 'same')).toEqual(['ns/a']);
    expect(s.delete(pod('ns', 'a')).listIndexFuncValues('byLabelValue')).toEqual([]);
  });

  it('S3: an index value whose last key is removed disappears (no empty sets left behind)', () => {
    let s = createStore<Pod>({ indexers });
    s = s.add(pod('ns1', 'a', { app: 'web' }, 'node-1')).add(pod('ns2', 'b', { app: 'web' }, 'node-2'));
    s = s.update(pod('ns1', 'a', { app: 'api' }, 'node-3'));
    expect(sortedStrings(s.listIndexFuncValues('byNode'))).toEqual(['node-2', 'node-3']);
    expect(sortedStrings(s.listIndexFuncValues('byLabelValue'))).toEqual(['api', 'web']);
    s = s.delete(pod('ns2', 'b'));
    expect(s.listIndexFuncValues('byNode')).toEqual(['node-3']);
    expect(s.listIndexFuncValues('byLabelValue')).toEqual(['api']);
    expect(s.listIndexFuncValues(NamespaceIndex)).toEqual(['ns1']);
    s = s.deleteByKey('ns1/a');
    expect(s.size).toBe(0);
    for (const name of s.indexNames()) expect(s.listIndexFuncValues(name)).toEqual([]);
  });

  it('S4: addIndexers after items exist indexes them, and later changes keep the new index right', () => {
    let s = createStore<Pod>().replace(
      [pod('a', 'p1', {}, 'n1'), pod('a', 'p2', {}, 'n2'), pod('b', 'p3', {}, 'n1')],
      '5',
    );
    const before = s;
    s = s.addIndexers({ byNode });
    expect(names(s.byIndex('byNode', 'n1'))).toEqual(['p1', 'p3']);
    expect(s.indexNames()).toEqual([NamespaceIndex, 'byNode']);
    expect(s.resourceVersion).toBe('5');
    s = s.update(pod('a', 'p1', {}, 'n2')).add(pod('c', 'p4', {}, 'n3'));
    expect(names(s.byIndex('byNode', 'n2'))).toEqual(['p1', 'p2']);
    expect(names(s.byIndex('byNode', 'n1'))).toEqual(['p3']);
    expect(names(s.byIndex('byNode', 'n3'))).toEqual(['p4']);
    // The snapshot taken before addIndexers does not have the index.
    expect(() => before.byIndex('byNode', 'n1')).toThrow(IndexNotFoundError);
  });

  it('S4: a name clash in addIndexers is an IndexConflictError and adds nothing', () => {
    const s = createStore<Pod>({ indexers: { byNode } }).add(pod('a', 'p1', {}, 'n1'));
    let error: unknown;
    try {
      s.addIndexers({ byNode, extra: byLabelValue });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(IndexConflictError);
    expect((error as IndexConflictError).indexNames).toEqual(['byNode']);
    expect(() => s.addIndexers({ namespace: byNode })).toThrow(IndexConflictError);
    expect(s.indexNames()).toEqual([NamespaceIndex, 'byNode']);
  });

  it('S4: an unknown index name is an IndexNotFoundError in every index read', () => {
    const s = createStore<Pod>().add(pod('a', 'p1'));
    expect(() => s.byIndex('nope', 'x')).toThrow(IndexNotFoundError);
    expect(() => s.indexKeys('nope', 'x')).toThrow(IndexNotFoundError);
    expect(() => s.listIndexFuncValues('nope')).toThrow(IndexNotFoundError);
    expect(() => s.index('nope', pod('a', 'p1'))).toThrow(/index with name "nope" does not exist/);
    try {
      s.byIndex('nope', 'x');
    } catch (e) {
      expect((e as IndexNotFoundError).indexName).toBe('nope');
      expect((e as IndexNotFoundError).code).toBe('IndexNotFoundError');
    }
  });

  it('S5: replace rebuilds every index and sets the resource version', () => {
    let s = createStore<Pod>({ indexers });
    s = s
      .add(pod('old', 'gone', { app: 'legacy' }, 'node-x'))
      .add(pod('ns', 'kept', { app: 'web' }, 'node-1'));
    s = s.replace(
      [pod('ns', 'kept', { app: 'api' }, 'node-2'), pod('ns2', 'new', { app: 'web' }, 'node-1')],
      '100',
    );
    expect(s.resourceVersion).toBe('100');
    expect(sortedStrings(s.listKeys())).toEqual(['ns/kept', 'ns2/new']);
    expect(sortedStrings(s.listIndexFuncValues(NamespaceIndex))).toEqual(['ns', 'ns2']);
    expect(sortedStrings(s.listIndexFuncValues('byLabelValue'))).toEqual(['api', 'web']);
    expect(sortedStrings(s.listIndexFuncValues('byNode'))).toEqual(['node-1', 'node-2']);
    expect(s.indexKeys('byNode', 'node-1')).toEqual(['ns2/new']);
    expect(s.indexKeys('byLabelValue', 'api')).toEqual(['ns/kept']);
  });

  it('S5: replace with a duplicate key keeps the later object, indexed once', () => {
    const s = createStore<Pod>({ indexers }).replace(
      [pod('ns', 'a', { v: 'first' }), pod('ns', 'a', { v: 'second' })],
      '7',
    );
    expect(s.size).toBe(1);
    expect(s.getByKey('ns/a')!.metadata!.labels).toEqual({ v: 'second' });
    expect(s.listIndexFuncValues('byLabelValue')).toEqual(['second']);
  });

  it('S5: snapshots taken before a change never change (add, update, delete, replace, batch, addIndexers)', () => {
    const s0 = createStore<Pod>({ indexers }).replace(
      Array.from({ length: 300 }, (_, i) =>
        pod(`ns-${i % 5}`, `p${i}`, { app: `a${i % 7}` }, `node-${i % 3}`),
      ),
      '10',
    );
    const view = (s: Store<Pod>) => ({
      size: s.size,
      rv: s.resourceVersion,
      keys: sortedStrings(s.listKeys()),
      objects: s
        .list()
        .map((o) => `${o.metadata!.name}@${o.metadata!.resourceVersion}`)
        .sort(),
      ns: sortedStrings(s.listIndexFuncValues(NamespaceIndex)).map(
        (v) => `${v}:${sortedStrings(s.indexKeys(NamespaceIndex, v)).join(',')}`,
      ),
      apps: sortedStrings(s.listIndexFuncValues('byLabelValue')).map(
        (v) => `${v}:${s.indexKeys('byLabelValue', v).length}`,
      ),
      nodes: sortedStrings(s.listIndexFuncValues('byNode')).map(
        (v) => `${v}:${s.indexKeys('byNode', v).length}`,
      ),
    });
    const fresh0 = view(s0);
    const s1 = s0
      .update(pod('ns-0', 'p0', { app: 'moved' }, 'node-9', '11'))
      .add(pod('ns-new', 'q', {}, 'node-0'));
    const fresh1 = view(s1);
    const s2 = s1.delete(pod('ns-1', 'p1')).withMutations((m) => {
      for (let i = 2; i < 100; i++) m.upsert(pod(`ns-${i % 5}`, `p${i}`, { app: 'batched' }, 'node-7', '12'));
      for (let i = 100; i < 150; i++) m.deleteByKey(`ns-${i % 5}/p${i}`);
      m.setResourceVersion('12');
    });
    const s3 = s2.replace([pod('solo', 'only')], '20').addIndexers({ extra: byNode });

    expect(view(s0)).toEqual(fresh0);
    expect(view(s1)).toEqual(fresh1);
    expect(s0.getByKey('ns-0/p0')!.metadata!.resourceVersion).toBe('1');
    expect(s1.getByKey('ns-0/p0')!.metadata!.resourceVersion).toBe('11');
    expect(s2.size).toBe(301 - 1 - 50);
    expect(s2.indexKeys('byLabelValue', 'batched')).toHaveLength(98);
    expect(s2.resourceVersion).toBe('12');
    expect(s3.size).toBe(1);
    expect(s0.size).toBe(300);
    expect(s1.resourceVersion).toBe('10');
  });

  it('S6: by default objects are stored as given, not frozen (speed)', () => {
    const p = pod('ns', 'a', { app: 'web' }, 'node-1');
    const s = createStore<Pod>().add(p);
    expect(s.getByKey('ns/a')).toBe(p);
    expect(Object.isFrozen(p)).toBe(false);
    expect(Object.isFrozen(p.metadata)).toBe(false);
    const items = [pod('ns', 'r', { a: 'b' })];
    createStore<Pod>().replace(items);
    expect(Object.isFrozen(items[0])).toBe(false);
    createStore<Pod>().withMutations((m) => m.upsert(items[0]));
    expect(Object.isFrozen(items[0])).toBe(false);
  });

  it('S6: with freeze: true objects are deeply frozen on the way in; mutating one throws', () => {
    const p = pod('ns', 'a', { app: 'web' }, 'node-1');
    const s = createStore<Pod>({ freeze: true }).add(p);
    const stored = s.getByKey('ns/a')!;
    expect(stored).toBe(p);
    expect(Object.isFrozen(stored)).toBe(true);
    expect(Object.isFrozen(stored.metadata)).toBe(true);
    expect(Object.isFrozen(stored.metadata!.labels)).toBe(true);
    expect(() => {
      (stored.metadata!.labels as Record<string, string>).app = 'db';
    }).toThrow(TypeError);
    expect(() => {
      (stored.spec as { nodeName?: string }).nodeName = 'other';
    }).toThrow(TypeError);
    const replaced = createStore<Pod>({ freeze: true }).replace([pod('ns', 'r', { a: 'b' })]);
    expect(() => {
      (replaced.list()[0].metadata as { name?: string }).name = 'x';
    }).toThrow(TypeError);
    expect(() => {
      (s.list() as Pod[]).push(p);
    }).toThrow(TypeError);
  });

  it('get, getByKey, list, listKeys and size read the snapshot; get and delete accept a tombstone', () => {
    const a = pod('ns', 'a');
    const s = createStore<Pod>().add(a).add(pod('', 'cluster-scoped'));
    expect(s.size).toBe(2);
    expect(s.get(pod('ns', 'a', { newer: 'version' }))).toBe(a);
    expect(s.get(new DeletedFinalStateUnknown('ns/a', a))).toBe(a);
    expect(s.getByKey('cluster-scoped')!.metadata!.name).toBe('cluster-scoped');
    expect(s.byIndex(NamespaceIndex, '')).toHaveLength(1);
    expect(names(s.list())).toEqual(['a', 'cluster-scoped']);
    expect(s.list()).toBe(s.list());
    const after = s.delete(new DeletedFinalStateUnknown('ns/a', a));
    expect(after.get(a)).toBeUndefined();
    expect(after.listKeys()).toEqual(['cluster-scoped']);
    expect(after.delete(a)).toBe(after);
  });

  it('a custom keyFunc, no namespace index, and a user indexer named namespace replaces the default', () => {
    const byUid = createStore<Pod>({ keyFunc: (p) => p.metadata!.uid!, namespaceIndex: false });
    const s = byUid.add({ metadata: { uid: 'u-1', name: 'a', namespace: 'n' } });
    expect(s.getByKey('u-1')!.metadata!.name).toBe('a');
    expect(s.indexNames()).toEqual([]);
    const custom = createStore<Pod>({ indexers: { namespace: (p) => [`ns:${p.metadata!.namespace}`] } }).add(
      pod('x', 'a'),
    );
    expect(custom.listIndexFuncValues(NamespaceIndex)).toEqual(['ns:x']);
    expect(Object.keys(custom.getIndexers())).toEqual([NamespaceIndex]);
  });

  it('batch mode: many changes make one snapshot; the mutator reads its own writes and reports what it replaced', () => {
    const s0 = createStore<Pod>({ indexers }).add(pod('ns', 'a', { app: 'web' }));
    const seen: Array<string | undefined> = [];
    let kept: StoreMutator<Pod> | undefined;
    const s1 = s0.withMutations((m) => {
      kept = m;
      seen.push(m.upsert(pod('ns', 'a', { app: 'api' }, undefined, '2'))?.metadata?.resourceVersion);
      seen.push(m.upsert(pod('ns', 'b', { app: 'web' }))?.metadata?.resourceVersion);
      seen.push(m.getByKey('ns/b')?.metadata?.name);
      seen.push(m.delete(pod('ns', 'b'))?.metadata?.name);
      seen.push(m.deleteByKey('ns/absent')?.metadata?.name);
      m.apply({ type: 'add', object: pod('ns', 'c', { app: 'web' }) });
      m.apply({ type: 'resourceVersion', resourceVersion: '9' });
      seen.push(String(m.size));
    });
    expect(seen).toEqual(['1', undefined, 'b', 'b', undefined, '2']);
    expect(sortedStrings(s1.listKeys())).toEqual(['ns/a', 'ns/c']);
    expect(s1.indexKeys('byLabelValue', 'web')).toEqual(['ns/c']);
    expect(s1.indexKeys('byLabelValue', 'api')).toEqual(['ns/a']);
    expect(s1.resourceVersion).toBe('9');
    expect(s0.indexKeys('byLabelValue', 'web')).toEqual(['ns/a']);
    // The mutator is dead once its batch has ended.
    expect(() => kept!.upsert(pod('ns', 'late'))).toThrow(StoreWriteError);
    expect(s1.getByKey('ns/late')).toBeUndefined();
  });

  it('batch mode: a batch that changes nothing returns the same snapshot; one that throws produces none', () => {
    const s0 = createStore<Pod>({ indexers }).add(pod('ns', 'a'));
    const a = s0.getByKey('ns/a')!;
    expect(s0.withMutations((m) => m.upsert(a))).toBe(s0);
    expect(s0.withMutations((m) => m.deleteByKey('nope'))).toBe(s0);
    expect(() =>
      s0.withMutations((m) => {
        m.upsert(pod('ns', 'b'));
        throw new Error('boom');
      }),
    ).toThrow('boom');
    expect(s0.size).toBe(1);
  });

  it('a write whose key or index function throws changes nothing, even inside a batch', () => {
    const fussy: Indexers<Pod> = {
      fussy: (p) => {
        if (p.metadata?.labels?.bad) throw new Error('index function failed');
        return ['ok'];
      },
    };
    const s0 = createStore<Pod>({ indexers: fussy }).add(pod('ns', 'a'));
    const s1 = s0.withMutations((m) => {
      expect(() => m.upsert(pod('ns', 'b', { bad: 'yes' }))).toThrow('index function failed');
      expect(() => m.upsert({ metadata: { namespace: 'ns' } })).toThrow(/metadata.name/);
      expect(() => m.replace([pod('ns', 'c'), pod('ns', 'd', { bad: 'yes' })])).toThrow(
        'index function failed',
      );
      m.upsert(pod('ns', 'e'));
    });
    expect(sortedStrings(s1.listKeys())).toEqual(['ns/a', 'ns/e']);
    expect(sortedStrings(s1.indexKeys('fussy', 'ok'))).toEqual(['ns/a', 'ns/e']);
  });

  it('an index function that throws on the stored version leaves that object, its indexes and the batch as they were', () => {
    // The old version's values are computed after the new version is stored (one walk down the
    // trie): a throw there must put the old version back, even where the batch edits in place.
    let broken = false;
    const flaky = (p: Pod): string[] => {
      if (broken && p.metadata?.labels?.old === 'yes') throw new Error('flaky index failed');
      return [p.metadata?.labels?.old ?? 'none'];
    };
    const s0 = createStore<Pod>({ indexers: { byNode, flaky } }).add(pod('ns', 'a', { old: 'yes' }, 'n1'));
    broken = true;
    const s1 = s0.withMutations((m) => {
      m.upsert(pod('ns', 'b', {}, 'n2'));
      expect(() => m.upsert(pod('ns', 'a', {}, 'n3'))).toThrow('flaky index failed');
      m.upsert(pod('ns', 'c', {}, 'n1'));
    });
    expect(s1.getByKey('ns/a')).toBe(s0.getByKey('ns/a'));
    expect(sortedStrings(s1.listKeys())).toEqual(['ns/a', 'ns/b', 'ns/c']);
    expect(names(s1.byIndex('byNode', 'n1'))).toEqual(['a', 'c']);
    expect(s1.byIndex('byNode', 'n3')).toEqual([]);
    expect(names(s1.byIndex('flaky', 'yes'))).toEqual(['a']);
    expect(names(s1.byIndex('flaky', 'none'))).toEqual(['b', 'c']);
    expect(() => s1.update(pod('ns', 'a', {}, 'n3'))).toThrow('flaky index failed');
  });

  it('keeps the store and its indexes equal to a rebuilt store over 3,000 seeded random changes', () => {
    let seed = 12345;
    const rand = () => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed / 4294967296;
    };
    let s = createStore<Pod>({ indexers });
    const model = new Map<string, Pod>();
    for (let i = 0; i < 3000; i++) {
      const name = `p${Math.floor(rand() * 200)}`;
      const ns = `ns${Math.floor(rand() * 4)}`;
      if (rand() < 0.7) {
        const labels: Record<string, string> = {};
        for (let l = 0; l < Math.floor(rand() * 4); l++) labels[`l${l}`] = `v${Math.floor(rand() * 6)}`;
        const p = pod(
          ns,
          name,
          labels,
          rand() < 0.8 ? `node-${Math.floor(rand() * 5)}` : undefined,
          String(i),
        );
        s = i % 3 === 0 ? s.withMutations((m) => m.upsert(p)) : s.add(p);
        model.set(`${ns}/${name}`, p);
      } else {
        s = s.deleteByKey(`${ns}/${name}`);
        model.delete(`${ns}/${name}`);
      }
    }
    const rebuilt = createStore<Pod>({ indexers }).replace([...model.values()]);
    expect(sortedStrings(s.listKeys())).toEqual(sortedStrings([...model.keys()]));
    for (const name of s.indexNames()) {
      const values = sortedStrings(s.listIndexFuncValues(name));
      expect(values).toEqual(sortedStrings(rebuilt.listIndexFuncValues(name)));
      for (const v of values)
        expect(sortedStrings(s.indexKeys(name, v))).toEqual(sortedStrings(rebuilt.indexKeys(name, v)));
    }
  });
});
