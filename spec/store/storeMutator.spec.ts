import { describe, expect, it } from '@jest/globals';
import type { KubeObject } from '../../lib/meta/kubeObject.js';
import { NamespaceIndex, metaNamespaceIndexFunc } from '../../lib/store/indexers.js';
import { createStore } from '../../lib/store/store.js';

const pod = (ns: string, name: string, rv: string): KubeObject => ({
  metadata: { namespace: ns, name, resourceVersion: rv },
});

describe('StoreMutator.upsertByKey', () => {
  it('stores under the key given, returns the object replaced and keeps the indexes', () => {
    const s0 = createStore<KubeObject>({ indexers: { [NamespaceIndex]: metaNamespaceIndexFunc } }).add(
      pod('a', 'x', '1'),
    );
    const replaced: Array<string | undefined> = [];
    const s1 = s0.withMutations((m) => {
      replaced.push(m.upsertByKey('a/x', pod('a', 'x', '2'))?.metadata?.resourceVersion);
      replaced.push(m.upsertByKey('b/y', pod('b', 'y', '3'))?.metadata?.resourceVersion);
    });
    expect(replaced).toEqual(['1', undefined]);
    expect(s1.getByKey('a/x')?.metadata?.resourceVersion).toBe('2');
    expect(s1.indexKeys(NamespaceIndex, 'b')).toEqual(['b/y']);
    expect(s0.getByKey('a/x')?.metadata?.resourceVersion).toBe('1');
  });
});
