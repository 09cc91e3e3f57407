import { map, type OperatorFunction } from 'rxjs';
import { DeletedFinalStateUnknown } from '../meta/deletedFinalStateUnknown.js';
import type { Notification } from '../informer/notification.js';

/**
 * Every object that was created, changed or deleted (kube-rs's `touched_objects`): the object of
 * an `add`, the new object of an `update`, the last known state of a `delete` (a
 * {@link DeletedFinalStateUnknown} tombstone is unwrapped to the object it carries). Fits
 * reconcilers that look the object up again anyway.
 *
 * ```
 * source:    -a-u-d-t-|    (t = delete found on a relist, a tombstone of C)
 * touched(): -A-B-B-C-|
 * ```
 *
 * @example
 * ```ts
 * informer.events$.pipe(touched(), map((pod) => pod.metadata!.name!)).subscribe(enqueue);
 * ```
 */
export function touched<T>(): OperatorFunction<Notification<T>, T> {
  return map((n: Notification<T>) => {
    if (n.type === 'update') return n.newObject;
    const obj = n.object;
    return obj instanceof DeletedFinalStateUnknown ? (obj as DeletedFinalStateUnknown<T>).obj : (obj as T);
  });
}
