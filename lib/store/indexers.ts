import type { KubeObjectLike } from '../meta/kubeObject.js';

/**
 * client-go's `IndexFunc`: the values an object is indexed under (none, one or several). Called on
 * frozen objects; it must be pure (the store calls it again on the old object when it changes).
 *
 * @example
 * ```ts
 * const byNode: IndexFunc<V1Pod> = (pod) => (pod.spec?.nodeName ? [pod.spec.nodeName] : []);
 * ```
 */
export type IndexFunc<T> = (obj: T) => ReadonlyArray<string>;

/**
 * client-go's `Indexers`: index name -> index function.
 *
 * @example
 * ```ts
 * const indexers: Indexers<V1Pod> = {
 *   byNode: (pod) => (pod.spec?.nodeName ? [pod.spec.nodeName] : []),
 *   byLabelApp: (pod) => (pod.metadata?.labels?.app ? [pod.metadata.labels.app] : []),
 * };
 * ```
 */
export type Indexers<T> = Readonly<Record<string, IndexFunc<T>>>;

/**
 * The name of the index every store has by default (client-go's `NamespaceIndex`).
 *
 * @example
 * ```ts
 * store.byIndex(NamespaceIndex, 'kube-system');
 * ```
 */
export const NamespaceIndex = 'namespace';

/**
 * client-go's `MetaNamespaceIndexFunc`: indexes an object under its namespace (`''` for a
 * cluster-scoped object).
 *
 * @example
 * ```ts
 * metaNamespaceIndexFunc({ metadata: { namespace: 'ns', name: 'a' } }); // ['ns']
 * ```
 */
export function metaNamespaceIndexFunc(obj: KubeObjectLike): ReadonlyArray<string> {
  return [obj.metadata?.namespace ?? ''];
}
