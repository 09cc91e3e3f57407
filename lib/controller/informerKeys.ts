import type { Observable } from 'rxjs';
import type { Notification } from '../informer/notification.js';
import type { KubeObjectLike } from '../meta/kubeObject.js';
import type { ChangePredicate } from './changePredicate.js';
import { changeKeys, primaryKeysOf } from './changeKeys.js';
import type { InformerKeysOptions, KeysFailed, SOURCE_SYNCED, Trigger } from './keySource.js';
import type { OwnerKind, TriggerInformer, TriggerSource } from './triggerSource.js';

/**
 * The keys an informer's changes map to, as a source: subscribing adds a handler to the informer
 * (and starts it), unsubscribing removes it. Each change emits its keys as {@link Trigger}s at
 * {@link changePriority} (initial list and resyncs low); {@link SOURCE_SYNCED} follows the last
 * change of the initial list; a change whose mapping throws emits a {@link KeysFailed}.
 *
 * ```text
 * informer:  [list a b]----c'------
 * keys:      (a b S)-------c-------     (S: SOURCE_SYNCED)
 * ```
 *
 * @example
 * ```ts
 * const replicaSetsOfPods = informerKeys(pods, (n) => (n.type === 'delete' ? [] : [ownerKey(n)]));
 * ```
 */
export function informerKeys<T>(
  informer: TriggerInformer<T>,
  keysOf: (change: Notification<T>) => Iterable<string>,
  options: InformerKeysOptions<T> = {},
): Observable<Trigger | typeof SOURCE_SYNCED | KeysFailed> {
  return changeKeys(informer, keysOf, options, false) as Observable<Trigger | typeof SOURCE_SYNCED | KeysFailed>;
}

/**
 * The primary's own changes that pass every predicate (controller-runtime's `For`), as a source.
 *
 * @example
 * ```ts
 * const source = forKeys(deployments, [generationChanged]);
 * ```
 */
export function forKeys<T extends KubeObjectLike>(
  informer: TriggerInformer<T>,
  predicates: ReadonlyArray<ChangePredicate<T>> = [],
  options: InformerKeysOptions<T> = {},
): Observable<Trigger | typeof SOURCE_SYNCED | KeysFailed> {
  return changeKeys(informer, primaryKeysOf(predicates), options, false) as Observable<Trigger | typeof SOURCE_SYNCED | KeysFailed>;
}

/**
 * A {@link TriggerSource} (`owned(...)`, `watch(...)`) as a source of keys, for a primary of kind
 * `forKind` (needed by `owned`).
 *
 * @example
 * ```ts
 * ctl.addSource(triggerKeys(owned(pods), { apiVersion: 'apps/v1', kind: 'ReplicaSet' }));
 * ```
 */
export function triggerKeys(
  source: TriggerSource,
  forKind?: OwnerKind,
  options: InformerKeysOptions<never> = {},
): Observable<Trigger | typeof SOURCE_SYNCED | KeysFailed> {
  return changeKeys(source.informer, (n) => source.keysOf(n, forKind), options, false) as Observable<Trigger | typeof SOURCE_SYNCED | KeysFailed>;
}

