import type { Observable, Observer } from 'rxjs';
import type { DeletedFinalStateUnknown } from '../meta/deletedFinalStateUnknown.js';
import { ConfigError } from '../configError.js';
import type { Notification } from './notification.js';

/**
 * What a handler callback may return. `void` means done; a Promise (or any thenable) or an
 * Observable means "done when it settles / completes": the handler is told of nothing else until
 * then. A rejection or an Observable error is reported like a throw.
 *
 * Returning an Observable (e.g. `timer(50)`) lets marble tests drive a slow handler on virtual time.
 *
 * @example
 * ```ts
 * const slow: ResourceEventHandler<V1Pod> = { update: (_old, pod): HandlerResult => timer(50) };
 * ```
 */
export type HandlerResult = void | PromiseLike<unknown> | Observable<unknown>;

/**
 * client-go's `ResourceEventHandlerFuncs`: an object of optional callbacks. Each is called one
 * notification at a time, in order; a callback that returns a Promise or an Observable is awaited
 * before the next notification. Objects are deeply frozen: change a copy (immer's `produce`).
 *
 * @example
 * ```ts
 * const handler: ResourceEventHandler<V1Pod> = {
 *   add: (pod, isInInitialList) => queue.add(pod.metadata!.name!),
 *   update: async (oldPod, newPod) => { await reconcile(newPod); },
 *   delete: (obj) => queue.add(obj instanceof DeletedFinalStateUnknown ? obj.key : obj.metadata!.name!),
 * };
 * ```
 */
export interface ResourceEventHandler<T> {
  add?(object: T, isInInitialList: boolean): HandlerResult;
  update?(oldObject: T, newObject: T): HandlerResult;
  delete?(object: T | DeletedFinalStateUnknown<T>): HandlerResult;
}

/**
 * A handler: an object of callbacks, or an RxJS Observer of {@link Notification}s (an object with
 * a `next` method; its `next` may return a Promise or Observable to be awaited, its `complete` is
 * called when the handler is removed or the informer stops, its `error` if an `'error'` overflow
 * policy removes it).
 *
 * @example
 * ```ts
 * informer.addEventHandler({ next: (n) => console.log(n.type) });
 * informer.addEventHandler({ add: (pod) => console.log('added', pod.metadata?.name) });
 * ```
 */
export type EventHandler<T> = ResourceEventHandler<T> | NotificationObserver<T>;

/**
 * An RxJS `Observer` of notifications, whose `next` may also return a Promise or Observable to be
 * awaited before the next notification.
 *
 * @example
 * ```ts
 * const seen: Notification<V1Pod>[] = [];
 * const observer: NotificationObserver<V1Pod> = { next: (n) => { seen.push(n); } };
 * ```
 */
export interface NotificationObserver<T> extends Partial<Omit<Observer<Notification<T>>, 'next'>> {
  next(notification: Notification<T>): HandlerResult;
}

/**
 * Throws a {@link ConfigError} (option `handler`, or `handler.add`...) unless `handler` is an object whose `add`, `update`,
 * `delete` (or Observer `next`, `error`, `complete`) are functions where present: a handler that
 * could never be called is refused when added, not found out at the first notification.
 *
 * @internal
 * @example
 * ```ts
 * checkEventHandler({ add: (pod) => console.log(pod) }); // fine
 * ```
 */
export function checkEventHandler(handler: unknown): void {
  const hint = 'pass { add, update, delete } callbacks (each optional) or an Observer with next';
  if (typeof handler === 'function') throw new ConfigError('handler', `addEventHandler: got a function; ${hint}`, { value: handler });
  if (typeof handler !== 'object' || handler === null) throw new ConfigError('handler', `addEventHandler: got ${String(handler)}; ${hint}`, { value: handler });
  for (const method of ['add', 'update', 'delete', 'next', 'error', 'complete']) {
    const value = (handler as Record<string, unknown>)[method];
    if (value !== undefined && typeof value !== 'function') {
      throw new ConfigError(`handler.${method}`, `addEventHandler: handler.${method} is a ${typeof value}, not a function; ${hint}`, { value });
    }
  }
}

/**
 * Whether a handler is an Observer (has `next`) rather than an object of callbacks.
 *
 * @example
 * ```ts
 * isNotificationObserver({ next: () => {} }); // true
 * ```
 */
export function isNotificationObserver<T>(handler: EventHandler<T>): handler is NotificationObserver<T> {
  return typeof (handler as Partial<NotificationObserver<T>>).next === 'function';
}

/**
 * An Observer handler that also takes the key the informer stores the object under, as a second
 * argument of `next` (rxkube's own controller sources: the informer's key string is already hashed
 * by its store's maps, so the work queue's lookups of it cost less than a key made again from the
 * object). Any Observer is given it; one that takes one argument ignores it.
 *
 * @internal
 * @example
 * ```ts
 * const observer: KeyedNotificationObserver<V1Pod> = { next: (n, key) => console.log(n.type, key) };
 * ```
 */
export interface KeyedNotificationObserver<T> {
  next(notification: Notification<T>, key?: string): HandlerResult;
}

/**
 * Calls the handler's method for one notification (`next` for an Observer, with the object's key
 * when the caller knows it; `add` / `update` / `delete` otherwise, a missing one doing nothing)
 * and returns what it returned.
 *
 * @internal
 * @example
 * ```ts
 * callHandler({ add: (pod) => console.log(pod.metadata?.name) }, addNotification(pod, true));
 * ```
 */
export function callHandler<T>(handler: EventHandler<T>, n: Notification<T>, key?: string): HandlerResult {
  if (isNotificationObserver(handler)) return (handler as KeyedNotificationObserver<T>).next(n, key);
  switch (n.type) {
    case 'add':
      return handler.add?.(n.object, n.isInInitialList);
    case 'update':
      return handler.update?.(n.oldObject, n.newObject);
    case 'delete':
      return handler.delete?.(n.object);
  }
}
