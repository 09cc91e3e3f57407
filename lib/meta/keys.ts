import { KeyError } from '../errors.js';
import type { KubeObjectLike } from './kubeObject.js';
import { DeletedFinalStateUnknown } from './deletedFinalStateUnknown.js';

/** Computes the store key of an object. Throws {@link KeyError} when it cannot. */
export type KeyFunc<T = unknown> = (obj: T) => string;

/**
 * client-go's `MetaNamespaceKeyFunc`: `namespace/name`, or `name` for cluster-scoped objects.
 *
 * @example
 * ```ts
 * metaNamespaceKeyFunc({ metadata: { namespace: 'ns', name: 'a' } }); // 'ns/a'
 * metaNamespaceKeyFunc({ metadata: { name: 'node-1' } });             // 'node-1'
 * ```
 */
export function metaNamespaceKeyFunc(obj: KubeObjectLike): string {
  const meta = obj?.metadata;
  if (meta == null) throw new KeyError(obj, 'object has no metadata');
  const name: unknown = meta.name;
  if (name == null || name === '') throw new KeyError(obj, 'object has no metadata.name');
  // Not from a real server: a number would be a key no string lookup finds.
  if (typeof name !== 'string') throw new KeyError(obj, `metadata.name is a ${typeof name}, not a string`);
  const ns: unknown = meta.namespace;
  if (ns != null && typeof ns !== 'string') throw new KeyError(obj, `metadata.namespace is a ${typeof ns}, not a string`);
  return ns ? `${ns}/${name}` : name;
}

/**
 * client-go's `DeletionHandlingMetaNamespaceKeyFunc`: the key of a {@link DeletedFinalStateUnknown}
 * tombstone is the key it carries; any other object is keyed by {@link metaNamespaceKeyFunc}.
 *
 * @example
 * ```ts
 * deletionHandlingMetaNamespaceKeyFunc(new DeletedFinalStateUnknown('ns/a', pod)); // 'ns/a'
 * ```
 */
export function deletionHandlingMetaNamespaceKeyFunc(obj: KubeObjectLike | DeletedFinalStateUnknown<KubeObjectLike>): string {
  if (obj instanceof DeletedFinalStateUnknown) return obj.key;
  return metaNamespaceKeyFunc(obj);
}

/**
 * Splits a `namespace/name` key; a key without `/` is a cluster-scoped name.
 *
 * @example
 * ```ts
 * splitMetaNamespaceKey('ns/a'); // { namespace: 'ns', name: 'a' }
 * ```
 */
export function splitMetaNamespaceKey(key: string): { namespace: string; name: string } {
  if (typeof key !== 'string') throw new KeyError(key, `a key is a string, got ${key === null ? 'null' : typeof key}`);
  const parts = key.split('/');
  if (parts.length === 1) return { namespace: '', name: parts[0] };
  if (parts.length === 2) return { namespace: parts[0], name: parts[1] };
  throw new KeyError(key, `unexpected key format: ${JSON.stringify(key)}`);
}
