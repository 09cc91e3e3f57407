import { defer, filter, type Observable } from 'rxjs';
import type { KubeObjectLike } from '../meta/kubeObject.js';
import { metaNamespaceKeyFunc, type KeyFunc } from '../meta/keys.js';

/**
 * What a predicate extracts from an object to decide whether it changed (kube-rs's `Predicate`):
 * two states with the same value are the same for the controller. `undefined` means "always pass".
 *
 * @example
 * ```ts
 * const labelsPredicate: Predicate<KubeObjectLike> = (obj) => JSON.stringify(obj.metadata?.labels ?? {});
 * ```
 */
export type Predicate<T> = (obj: T) => string | number | undefined;

/**
 * `metadata.generation`: changes on spec changes only, not on status updates (kube-rs's
 * `predicates::generation`). Objects without a generation always pass.
 *
 * @example
 * ```ts
 * deployments.events$.pipe(applied(), predicateFilter(generationPredicate));
 * ```
 */
export const generationPredicate: Predicate<KubeObjectLike> = (obj) =>
  (obj.metadata as { generation?: number } | undefined)?.generation;

/**
 * `metadata.resourceVersion`: drops repeats of the same state (resyncs, relists of unchanged objects).
 *
 * @example
 * ```ts
 * pods.events$.pipe(applied(), predicateFilter(resourceVersionPredicate));
 * ```
 */
export const resourceVersionPredicate: Predicate<KubeObjectLike> = (obj) => obj.metadata?.resourceVersion;

/**
 * Passes an object only when the predicate's value differs from the value last passed for the same
 * key (kube-rs's `predicate_filter`): e.g. only spec changes with {@link generationPredicate}.
 * Remembers one value per key, together with the object's `uid`, so that an object deleted and
 * re-created under the same name passes again.
 *
 * ```
 * source:                               -a1-a1-a2-b1-a2-|   (name + generation)
 * predicateFilter(generationPredicate): -a1----a2-b1----|
 * ```
 *
 * @example
 * ```ts
 * deployments.events$.pipe(applied(), predicateFilter(generationPredicate)).subscribe(reconcile);
 * ```
 */
export function predicateFilter<P extends KubeObjectLike>(
  predicate: Predicate<P>,
  options: { keyFunc?: KeyFunc<P> } = {},
): <T extends P>(source: Observable<T>) => Observable<T> {
  const keyOf = options.keyFunc ?? metaNamespaceKeyFunc;
  // Generic in the element type T (not only the predicate's P), so that a predicate written for
  // KubeObjectLike keeps a V1Deployment stream a V1Deployment stream.
  // A fresh memory per subscription (defer): the operator is cold like every RxJS operator.
  return <T extends P>(source: Observable<T>): Observable<T> =>
    defer(() => {
      const seen = new Map<string, string>();
      return source.pipe(
        filter((obj) => {
          const value = predicate(obj);
          if (value === undefined) return true;
          const key = keyOf(obj);
          const stamp = `${obj.metadata?.uid ?? ''}\u0000${typeof value}:${value}`;
          if (seen.get(key) === stamp) return false;
          seen.set(key, stamp);
          return true;
        }),
      );
    });
}
