import { describe, expect, it } from '@jest/globals';
import { KubeConfig } from '@kubernetes/client-node';
import { DeletedFinalStateUnknown } from '../../lib/meta/deletedFinalStateUnknown.js';
import { deletionHandlingMetaNamespaceKeyFunc, metaNamespaceKeyFunc, splitMetaNamespaceKey } from '../../lib/meta/keys.js';
import { KeyError } from '../../lib/errors.js';

describe('key functions', () => {
  it('keys namespaced objects as namespace/name and cluster-scoped ones as name', () => {
    expect(metaNamespaceKeyFunc({ metadata: { namespace: 'ns', name: 'a' } })).toBe('ns/a');
    expect(metaNamespaceKeyFunc({ metadata: { name: 'node-1' } })).toBe('node-1');
  });

  it('throws a KeyError for an object without metadata or name', () => {
    expect(() => metaNamespaceKeyFunc({})).toThrow(KeyError);
    expect(() => metaNamespaceKeyFunc({ metadata: { namespace: 'ns' } })).toThrow(/metadata.name/);
  });

  it('throws a KeyError for a name or namespace that is not a string (a number would be a key no lookup finds)', () => {
    const loose = (metadata: object) => ({ metadata }) as unknown as Parameters<typeof metaNamespaceKeyFunc>[0];
    expect(() => metaNamespaceKeyFunc(loose({ name: 5 }))).toThrow(/metadata.name is a number, not a string/);
    expect(() => metaNamespaceKeyFunc(loose({ name: {} }))).toThrow(KeyError);
    expect(() => metaNamespaceKeyFunc(loose({ name: 'a', namespace: 7 }))).toThrow(/metadata.namespace is a number/);
  });

  it('keys a tombstone by the key it carries', () => {
    const tomb = new DeletedFinalStateUnknown('ns/gone', { metadata: { namespace: 'other', name: 'x' } });
    expect(deletionHandlingMetaNamespaceKeyFunc(tomb)).toBe('ns/gone');
  });

  it('splits keys and rejects malformed ones', () => {
    expect(splitMetaNamespaceKey('ns/a')).toEqual({ namespace: 'ns', name: 'a' });
    expect(splitMetaNamespaceKey('node-1')).toEqual({ namespace: '', name: 'node-1' });
    expect(() => splitMetaNamespaceKey('a/b/c')).toThrow(KeyError);
    expect(() => splitMetaNamespaceKey(undefined as unknown as string)).toThrow(/a key is a string, got undefined/);
  });

  it('loads alongside @kubernetes/client-node in ESM mode', () => {
    expect(typeof new KubeConfig().loadFromOptions).toBe('function');
  });
});
