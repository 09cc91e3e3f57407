import type { KubeObjectLike } from '../meta/kubeObject.js';
import { toLabelSelector, type LabelSelectorInput } from '../labels/parseLabelSelector.js';
import { NamespaceIndex } from '../store/indexers.js';
import { IndexNotFoundError } from '../store/indexErrors.js';

/**
 * The read side of a store snapshot that a lister needs (client-go's `Indexer` reads). rxkube's
 * `Store` snapshots are these; `byIndex` throws `IndexNotFoundError` for an index it does not have.
 *
 * @example
 * ```ts
 * const source: ListerSource<V1Pod> = informer.getStore();
 * ```
 */
export interface ListerSource<T> {
  list(): ReadonlyArray<T>;
  getByKey(key: string): T | undefined;
  byIndex(indexName: string, indexedValue: string): ReadonlyArray<T>;
}

/**
 * Reads objects of one namespace (client-go's `<Kind>NamespaceLister`). The empty namespace `''` means
 * all namespaces for `list`, as in client-go (`Pods("").List`, `metav1.NamespaceAll`); `get` with `''`
 * reads a cluster-scoped object by name.
 *
 * @example
 * ```ts
 * const web = pods.lister().byNamespace('shop').list('app=web');
 * const one = pods.lister().byNamespace('shop').get('web-0');
 * ```
 */
export interface NamespaceLister<T> {
  /** Objects of the namespace whose labels match `selector` (every object when it is empty). */
  list(selector?: LabelSelectorInput): ReadonlyArray<T>;
  /** The object `name` of the namespace, or undefined. */
  get(name: string): T | undefined;
}

/**
 * Reads an informer's cache (client-go's `<Kind>Lister`): lists by label selector, gets by key, and
 * narrows to one namespace through the store's namespace index. Every call reads the store's
 * current snapshot; the objects are the store's own, deeply frozen.
 *
 * @example
 * ```ts
 * const l = pods.lister();
 * l.list('app=web,env notin (dev)').length;
 * l.get('kube-system/coredns-0');      // namespaced objects: 'namespace/name'
 * nodes.lister().get('node-1');        // cluster-scoped objects: the name
 * ```
 */
export interface Lister<T> {
  /** Every object whose labels match `selector` (all of them when it is empty or undefined). */
  list(selector?: LabelSelectorInput): ReadonlyArray<T>;
  /** The object with this store key: `namespace/name` for namespaced objects, `name` otherwise. */
  get(key: string): T | undefined;
  /** A lister of one namespace. */
  byNamespace(namespace: string): NamespaceLister<T>;
}

const labelsOf = (obj: KubeObjectLike) => obj.metadata?.labels;

function select<T extends KubeObjectLike>(
  items: ReadonlyArray<T>,
  selector: LabelSelectorInput,
): ReadonlyArray<T> {
  const sel = toLabelSelector(selector);
  if (sel.isEmpty) return Object.isFrozen(items) ? items : Object.freeze([...items]);
  return Object.freeze(items.filter((o) => sel.matches(labelsOf(o))));
}

function inNamespace<T extends KubeObjectLike>(source: ListerSource<T>, namespace: string): ReadonlyArray<T> {
  if (namespace === '') return source.list(); // metav1.NamespaceAll
  try {
    return source.byIndex(NamespaceIndex, namespace);
  } catch (e) {
    if (!(e instanceof IndexNotFoundError)) throw e;
    // No namespace index on this store: scan, as client-go's ListAllByNamespace falls back to.
    return source.list().filter((o) => (o.metadata?.namespace ?? '') === namespace);
  }
}

/**
 * Builds a {@link Lister} over a store. Pass a function returning the current snapshot to read a
 * live informer (what `informer.lister()` does), or a snapshot to read that
 * moment forever.
 *
 * @example
 * ```ts
 * const l = lister(() => informer.getStore());
 * const frozenInTime = lister(snapshot);
 * l.byNamespace('default').list('app in (web,api)');
 * ```
 */
export function lister<T extends KubeObjectLike>(source: ListerSource<T> | (() => ListerSource<T>)): Lister<T> {
  const current = typeof source === 'function' ? source : () => source;
  return Object.freeze({
    list: (selector?: LabelSelectorInput) => select(current().list(), selector),
    get: (key: string) => current().getByKey(key),
    byNamespace: (namespace: string): NamespaceLister<T> =>
      Object.freeze({
        list: (selector?: LabelSelectorInput) => select(inNamespace(current(), namespace), selector),
        get: (name: string) => current().getByKey(namespace === '' ? name : `${namespace}/${name}`),
      }),
  });
}
