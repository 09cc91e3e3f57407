import { distinctUntilChanged, map, type OperatorFunction } from 'rxjs';
import type { KubeObjectLike } from '../meta/kubeObject.js';
import type { LabelSelectorInput } from '../labels/parseLabelSelector.js';
import { toLabelSelector } from '../labels/parseLabelSelector.js';
import { lister, type ListerSource } from '../lister/lister.js';

function sameItems<T>(a: ReadonlyArray<T>, b: ReadonlyArray<T>): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/**
 * A lister's result as a stream: for each store snapshot, the objects matching a label selector
 * (in one namespace if given), emitted only when that result changes (the same objects in the same
 * order count as unchanged: objects are immutable, so identity is equality). Feed it to Angular's
 * `toSignal` or a UI.
 *
 * ```
 * store$:          -s1-s2-s3-|    (s2 changes a pod outside the selector)
 * listed('app=web'): -r1----r3-|
 * ```
 *
 * @example
 * ```ts
 * const webPods$ = pods.store$.pipe(listed('app=web', { namespace: 'shop' }));
 * ```
 */
export function listed<T extends KubeObjectLike>(
  selector?: LabelSelectorInput,
  options: { namespace?: string } = {},
): OperatorFunction<ListerSource<T>, ReadonlyArray<T>> {
  const sel = toLabelSelector(selector); // parse once, fail at the call site
  const { namespace } = options;
  return (source) =>
    source.pipe(
      map((snapshot) => {
        const l = lister(snapshot);
        return namespace === undefined ? l.list(sel) : l.byNamespace(namespace).list(sel);
      }),
      distinctUntilChanged(sameItems),
    );
}
