import { ConfigError } from '../configError.js';
import type { ListWatch } from '../listwatch/listWatch.js';
import type { KubeObjectLike } from '../meta/kubeObject.js';
import { missingMethods } from '../meta/missingMethods.js';
import type { Informer } from './informerInterface.js';
import type { InformerOptions } from './informerOptions.js';
import { SharedIndexInformer } from './sharedIndexInformer.js';

export type { Informer } from './informerInterface.js';
export type { InformerOptions } from './informerOptions.js';


/**
 * Creates the informer of one resource: `informer(listWatch, options)`. This is the entry point the
 * shared informer factory calls (one per resource and namespace); it can be used on its own too.
 *
 * Pipeline: reflector bursts -> `deltaFifoBatch` (a pure reducer of each burst; it reads no store) ->
 * each batch applied to the store in one write (which finds a relist's deletions, where the old
 * state is) -> its notifications on a shared stream every handler's buffer subscribes to. A
 * handler's periodic resync is its own replay of the store, on its own timer.
 *
 * ```text
 * reflector:  --R[a,b]-------u(a2)---------R[a2]--
 * store$:     S0-S1-----------S2--------------S3--  one snapshot per batch, before anyone hears
 * H's timer:  ------------------------t-----------  t: handler H is due
 * handler H:  ---A(a)B(b)-----U(a,a2)-U(a2,a2)U(b,b)-U(a2,a2)  U(x,x) from a relist: only to handlers due
 * ```
 *
 * @example
 * ```ts
 * const lw = listWatch<V1Pod>(kubeConfig, { group: '', version: 'v1', plural: 'pods', namespaced: true });
 * const pods = informer(lw, { resyncPeriod: 30_000, transform: stripManagedFields });
 * const reg = pods.addEventHandler({
 *   add: (pod) => console.log('added', pod.metadata?.name),
 *   update: (oldPod, pod) => console.log('updated', pod.metadata?.name),
 *   delete: (obj) => console.log('deleted', obj instanceof DeletedFinalStateUnknown ? obj.key : obj.metadata?.name),
 * });
 * pods.start();
 * await pods.waitForCacheSync();
 * // ...
 * await pods.stop();
 * ```
 */
export function informer<T extends KubeObjectLike>(
  listWatch: ListWatch<T>,
  options: InformerOptions<T> = {},
): Informer<T> {
  const lw = listWatch as Partial<Record<'list' | 'watch', unknown>> | null | undefined;
  if (missingMethods(lw, ['list', 'watch']).length > 0) {
    throw new ConfigError(
      'listWatch',
      `informer(listWatch): listWatch must have list and watch functions (make one with listWatch(kubeConfig, resource)), got ${lw === null || typeof lw !== 'object' ? String(lw) : `an object with ${Object.keys(lw).join(', ') || 'no keys'}`}`,
      { value: listWatch },
    );
  }
  return new SharedIndexInformer<T>(listWatch, options);
}
