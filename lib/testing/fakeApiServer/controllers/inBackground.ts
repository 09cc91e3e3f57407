import { isPromise, type MaybePromise } from '../admission/attributes.js';

/**
 * A write a controller makes without waiting for it: an admission plugin may answer later, and
 * then the write lands later. Its failure (a 404 or 409: the object changed or went meanwhile) is
 * dropped, as the controllers drop synchronous ones: the change that caused it brings the work back.
 *
 * @example
 * ```ts
 * inBackground(registry.delete(type, ns, name));
 * ```
 */
export function inBackground(write: MaybePromise<unknown>): void {
  if (isPromise(write)) write.catch(() => undefined);
}
