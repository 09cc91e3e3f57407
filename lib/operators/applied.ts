import { filter, map, pipe, type OperatorFunction } from 'rxjs';
import type { Notification } from '../informer/notification.js';

/**
 * The objects that were created or changed (kube-rs's `applied_objects`): the object of an `add`,
 * the new object of an `update`; deletions are dropped.
 *
 * ```
 * source:    -a-u-d-|    (a = add A, u = update A -> A', d = delete A')
 * applied(): -A-B---|    (B = A', the new state)
 * ```
 *
 * @example
 * ```ts
 * informer.events$.pipe(applied()).subscribe((pod) => reconcile(pod));
 * ```
 */
export function applied<T>(): OperatorFunction<Notification<T>, T> {
  return pipe(
    filter((n: Notification<T>) => n.type !== 'delete'),
    map((n) => (n.type === 'update' ? n.newObject : n.object)),
  );
}
