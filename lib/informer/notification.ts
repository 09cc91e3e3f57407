import type { DeletedFinalStateUnknown } from '../meta/deletedFinalStateUnknown.js';

/**
 * What a handler is told, one at a time and in order (client-go's add / update / delete
 * notifications).
 * - `add`: a new object; `isInInitialList` is true for the objects of the first list (and for the
 *   objects replayed to a handler added to a running informer).
 * - `update`: `oldObject` is what the store held before. When both have the same
 *   `metadata.resourceVersion` this is a resync (periodic, or an unchanged object seen on a relist).
 * - `delete`: the last state, or a {@link DeletedFinalStateUnknown} tombstone when the deletion was
 *   found on a relist.
 *
 * Notifications are readonly by type, not frozen at run time; the objects they carry are the store's
 * (deeply frozen only with the informer's `freeze: true`). Never mutate either.
 *
 * @example
 * ```ts
 * informer.events$.subscribe((n) => {
 *   if (n.type === 'update') console.log(n.oldObject.metadata?.resourceVersion, '->', n.newObject.metadata?.resourceVersion);
 * });
 * ```
 */
export type Notification<T> =
  | { readonly type: 'add'; readonly object: T; readonly isInInitialList: boolean }
  | { readonly type: 'update'; readonly oldObject: T; readonly newObject: T }
  | { readonly type: 'delete'; readonly object: T | DeletedFinalStateUnknown<T> };

// Notifications are made per event by classes rather than object literals (why: docs/PERFORMANCE.md,
// "Allocation-site pretenuring").
class AddNotification<T> {
  readonly type = 'add' as const;
  constructor(
    readonly object: T,
    readonly isInInitialList: boolean,
  ) {}
}

class UpdateNotification<T> {
  readonly type = 'update' as const;
  constructor(
    readonly oldObject: T,
    readonly newObject: T,
  ) {}
}

class DeleteNotification<T> {
  readonly type = 'delete' as const;
  constructor(readonly object: T | DeletedFinalStateUnknown<T>) {}
}

/**
 * Builds an `add` notification.
 *
 * @example
 * ```ts
 * addNotification(pod, true); // { type: 'add', object: pod, isInInitialList: true }
 * ```
 */
export function addNotification<T>(object: T, isInInitialList: boolean): Notification<T> {
  return new AddNotification(object, isInInitialList);
}

/**
 * Builds an `update` notification.
 *
 * @example
 * ```ts
 * updateNotification(oldPod, newPod); // { type: 'update', oldObject: oldPod, newObject: newPod }
 * ```
 */
export function updateNotification<T>(oldObject: T, newObject: T): Notification<T> {
  return new UpdateNotification(oldObject, newObject);
}

/**
 * Builds a `delete` notification.
 *
 * @example
 * ```ts
 * deleteNotification(new DeletedFinalStateUnknown('ns/a', pod)); // { type: 'delete', object: <tombstone> }
 * ```
 */
export function deleteNotification<T>(object: T | DeletedFinalStateUnknown<T>): Notification<T> {
  return new DeleteNotification(object);
}
