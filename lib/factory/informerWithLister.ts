import type { Informer } from '../informer/informer.js';
import type { KubeObjectLike } from '../meta/kubeObject.js';

/**
 * What the shared informer factory hands out: now simply an {@link Informer}, which has `lister()`
 * itself.
 *
 * @deprecated Use {@link Informer}: one name for the informer. `pods.informer` (the informer without
 * its lister) is gone: use `pods`.
 * @example
 * ```ts
 * const pods: Informer<V1Pod> = factory.pods();
 * pods.lister().byNamespace('default').list('app=web');
 * ```
 */
export type SharedInformer<T> = Informer<T>;

/**
 * Returns `inner`: every informer has `lister()` now.
 *
 * @deprecated Call `lister()` on the informer itself.
 * @example
 * ```ts
 * const pods = informer(listWatch<V1Pod>(kc, builtInResources.pods));
 * pods.lister().list('app=web');
 * ```
 */
export function withLister<T extends KubeObjectLike>(inner: Informer<T>): Informer<T> {
  return inner;
}
