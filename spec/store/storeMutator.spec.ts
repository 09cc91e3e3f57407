import { describe, expect, it } from '@jest/globals';
import type { KubeObject } from '../../lib/meta/kubeObject.js';
import { NamespaceIndex, metaNamespaceIndexFunc } from '../../lib/store/indexers.js';
import { createStore } from '../../lib/store/store.js';
import { storedPod } from '../support/pods.js';

describe('StoreMutator.upsertByKey', () => {
  it('stores under the key given, returns the object replaced and keeps the indexes', () => {
    const s0 = createStore<KubeObject>({ indexers: { [NamespaceIndex]: metaNamespaceIndexFunc } }).add(
      storedPod('a', 'x', '1'),
    );
    const replaced: Array<string | undefined> = [];
    const s1 = s0.withMutations((m) => {
      replaced.push(m.upsertByKey('a/x', storedPod('a', 'x', '2'))?.metadata?.resourceVersion);
      replaced.push(m.upsertByKey('b/y', storedPod('b', 'y', '3'))?.metadata?.resourceVersion);
    });
    expect(replaced).toEqual(['1', undefined]);
    expect(s1.getByKey('a/x')?.metadata?.resourceVersion).toBe('2');
    expect(s1.indexKeys(NamespaceIndex, 'b')).toEqual(['b/y']);
    expect(s0.getByKey('a/x')?.metadata?.resourceVersion).toBe('1');
  });
});

describe('upsert with the namespace index alone (its own fast path)', () => {
  const store = () => createStore<KubeObject>({ indexers: { [NamespaceIndex]: metaNamespaceIndexFunc } });

  it('files new keys, keeps a key that stays in its namespace, and moves one that changes namespace', () => {
    const s1 = store().withMutations((m) => {
      m.upsert(storedPod('a', 'x', '1'));
      m.upsert(storedPod('a', 'y', '1'));
    });
    expect(s1.indexKeys(NamespaceIndex, 'a').sort()).toEqual(['a/x', 'a/y']);
    const s2 = s1.withMutations((m) => {
      m.upsertByKey('a/x', storedPod('a', 'x', '2')); // same namespace
      m.upsertByKey('a/y', { metadata: { namespace: 'b', name: 'y', resourceVersion: '2' } }); // moved (same key)
    });
    expect(s2.indexKeys(NamespaceIndex, 'a')).toEqual(['a/x']);
    expect(s2.indexKeys(NamespaceIndex, 'b')).toEqual(['a/y']);
    expect(s2.listIndexFuncValues(NamespaceIndex).sort()).toEqual(['a', 'b']);
    expect(s1.indexKeys(NamespaceIndex, 'a').sort()).toEqual(['a/x', 'a/y']);
  });

  it('an object the index function cannot read changes nothing', () => {
    const s1 = store().add(storedPod('a', 'x', '1'));
    expect(() => s1.withMutations((m) => m.upsertByKey('a/z', null as unknown as KubeObject))).toThrow();
    expect(s1.listKeys()).toEqual(['a/x']);
    expect(s1.indexKeys(NamespaceIndex, 'a')).toEqual(['a/x']);
  });
});
