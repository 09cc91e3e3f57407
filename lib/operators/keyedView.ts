import { map, type OperatorFunction } from 'rxjs';

/**
 * Anything with the store's `list()`: a store snapshot as `store$` emits it.
 *
 * @example
 * ```ts
 * const snapshot: ListableSnapshot<V1Pod> = informer.getStore();
 * ```
 */
export interface ListableSnapshot<T> {
  list(): ReadonlyArray<T>;
}

/**
 * Turns each store snapshot into a keyed view: the objects grouped by `keyOf` (a namespace, a
 * phase, an owner's uid, a node name...), each group in store order. Objects for which `keyOf`
 * returns `undefined` are left out. Every emission is a new frozen map; earlier ones never change.
 *
 * ```
 * store$:                  -s1----s2----|    (s2 = s1 plus a pod on node b)
 * keyedView(nodeName):     -m1----m2----|    (m1 = {a: [p1]}, m2 = {a: [p1], b: [p2]})
 * ```
 *
 * @example
 * ```ts
 * pods.store$.pipe(
 *   auditTime(1000),
 *   keyedView((pod) => pod.status?.phase),
 * ).subscribe((byPhase) => console.log(byPhase.get('Running')?.length ?? 0, 'running'));
 * ```
 */
export function keyedView<T, K = string>(
  keyOf: (obj: T) => K | undefined,
): OperatorFunction<ListableSnapshot<T>, ReadonlyMap<K, ReadonlyArray<T>>> {
  return map((snapshot) => {
    const groups = new Map<K, T[]>();
    for (const obj of snapshot.list()) {
      const key = keyOf(obj);
      if (key === undefined) continue;
      const group = groups.get(key);
      if (group) group.push(obj);
      else groups.set(key, [obj]);
    }
    for (const group of groups.values()) Object.freeze(group);
    return groups as ReadonlyMap<K, ReadonlyArray<T>>;
  });
}
