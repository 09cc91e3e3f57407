import type { Notification } from '../informer/notification.js';
import type { KubeObjectLike } from '../meta/kubeObject.js';
import { DeletedFinalStateUnknown } from '../meta/deletedFinalStateUnknown.js';

/**
 * Decides whether a change should trigger a reconcile (controller-runtime's `predicate.Predicate`,
 * on rxkube's {@link Notification}s). Built-ins are generic, so they keep the element type: a
 * `ChangePredicate<V1Deployment>` stays one after {@link and}, {@link or} and {@link not}.
 *
 * @example
 * ```ts
 * const replicasChanged: ChangePredicate<V1Deployment> = (n) =>
 *   n.type !== 'update' || n.oldObject.spec?.replicas !== n.newObject.spec?.replicas;
 * ```
 */
export type ChangePredicate<T> = (change: Notification<T>) => boolean;

// An update passes when `value` differs between the old and the new object; adds and deletes pass.
const updatedWhere =
  (value: (obj: KubeObjectLike) => unknown) =>
  <T extends KubeObjectLike>(change: Notification<T>): boolean =>
    change.type !== 'update' || !sameValue(value(change.oldObject), value(change.newObject));

const sameValue = (a: unknown, b: unknown): boolean =>
  a === b || (typeof a === 'object' && typeof b === 'object' && JSON.stringify(a) === JSON.stringify(b));

/**
 * Passes updates that change `metadata.generation` (spec changes, not status), and every add and
 * delete (controller-runtime's `GenerationChangedPredicate`).
 *
 * @example
 * ```ts
 * controller({ for: deployments, predicates: [generationChanged], reconcile });
 * ```
 */
export const generationChanged = updatedWhere((o) => (o.metadata as { generation?: number } | undefined)?.generation);

/**
 * Passes updates that change `metadata.resourceVersion` (drops resyncs), and every add and delete
 * (controller-runtime's `ResourceVersionChangedPredicate`).
 *
 * @example
 * ```ts
 * controller({ for: pods, predicates: [resourceVersionChanged], reconcile });
 * ```
 */
export const resourceVersionChanged = updatedWhere((o) => o.metadata?.resourceVersion);

/**
 * Passes updates that change `metadata.labels`, and every add and delete (`LabelChangedPredicate`).
 *
 * @example
 * ```ts
 * controller({ for: pods, predicates: [or(generationChanged, labelsChanged)], reconcile });
 * ```
 */
export const labelsChanged = updatedWhere((o) => o.metadata?.labels ?? {});

/**
 * Passes updates that change `metadata.annotations`, and every add and delete (`AnnotationChangedPredicate`).
 *
 * @example
 * ```ts
 * controller({ for: services, predicates: [annotationsChanged], reconcile });
 * ```
 */
export const annotationsChanged = updatedWhere((o) => o.metadata?.annotations ?? {});

/**
 * Passes when every predicate passes (none given: always).
 *
 * @example
 * ```ts
 * const specOrLabels = and(resourceVersionChanged, or(generationChanged, labelsChanged));
 * ```
 */
export function and<T>(...predicates: ReadonlyArray<ChangePredicate<T>>): ChangePredicate<T> {
  return (change) => predicates.every((p) => p(change));
}

/**
 * Passes when any predicate passes (none given: never).
 *
 * @example
 * ```ts
 * const interesting = or(generationChanged, annotationsChanged);
 * ```
 */
export function or<T>(...predicates: ReadonlyArray<ChangePredicate<T>>): ChangePredicate<T> {
  return (change) => predicates.some((p) => p(change));
}

/**
 * Passes when the predicate does not.
 *
 * @example
 * ```ts
 * const onlyDeletes = not<V1Pod>((n) => n.type !== 'delete');
 * ```
 */
export function not<T>(predicate: ChangePredicate<T>): ChangePredicate<T> {
  return (change) => !predicate(change);
}

/**
 * The object a change is about: the new object of an update, the last state of a delete (also
 * inside a `DeletedFinalStateUnknown` tombstone).
 *
 * @example
 * ```ts
 * informer.events$.subscribe((n) => console.log(changedObject(n).metadata?.name));
 * ```
 */
export function changedObject<T>(change: Notification<T>): T {
  if (change.type === 'update') return change.newObject;
  if (change.type === 'add') return change.object;
  return change.object instanceof DeletedFinalStateUnknown ? change.object.obj : change.object;
}
