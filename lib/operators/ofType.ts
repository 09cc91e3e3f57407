import { filter, type OperatorFunction } from 'rxjs';
import type { Notification } from '../informer/notification.js';

/**
 * The notification types: `'add' | 'update' | 'delete'`.
 *
 * @example
 * ```ts
 * const wanted: NotificationType[] = ['add', 'delete'];
 * ```
 */
export type NotificationType = Notification<unknown>['type'];

/**
 * The notifications of `T` whose type is one of `K`.
 *
 * @example
 * ```ts
 * const onUpdate = (n: NotificationOfType<V1Pod, 'update'>) => diff(n.oldObject, n.newObject);
 * ```
 */
export type NotificationOfType<T, K extends NotificationType> = Extract<
  Notification<T>,
  { readonly type: K }
>;

/**
 * Keeps the notifications of the given types, narrowing their type.
 *
 * ```
 * source:               -a-u-d-a-|     (a = add, u = update, d = delete)
 * ofType('add', 'delete'): -a---d-a-|
 * ```
 *
 * @example
 * ```ts
 * informer.events$.pipe(ofType('update')).subscribe((n) => diff(n.oldObject, n.newObject));
 * ```
 */
export function ofType<T, K extends NotificationType>(
  ...types: [K, ...K[]]
): OperatorFunction<Notification<T>, NotificationOfType<T, K>> {
  const wanted: ReadonlySet<string> = new Set(types);
  return filter((n): n is NotificationOfType<T, K> => wanted.has(n.type));
}
