/**
 * Whether `value` is a thenable (a Promise, or any object with a `then` function): what a handler,
 * a reconcile or a patch recipe returned when it was asynchronous.
 *
 * @internal
 * @example
 * ```ts
 * isPromiseLike(Promise.resolve(1)); // true
 * isPromiseLike({ requeueAfter: 5 }); // false
 * ```
 */
export function isPromiseLike<T = unknown>(value: unknown): value is PromiseLike<T> {
  return typeof (value as { then?: unknown } | null | undefined)?.then === 'function';
}
