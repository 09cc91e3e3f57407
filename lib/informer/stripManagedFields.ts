import type { KubeObjectLike } from '../meta/kubeObject.js';

/**
 * A ready-made informer transform: drops `metadata.managedFields` (server-side apply bookkeeping,
 * often a third of an object's size) before the object is stored. Returns a shallow copy with new
 * `metadata` when there is something to drop, the same object otherwise; the input is not changed.
 *
 * @example
 * ```ts
 * const pods = informer(lw, { transform: stripManagedFields });
 * // or, before start:
 * pods.setTransform(stripManagedFields);
 * ```
 */
export function stripManagedFields<T extends KubeObjectLike>(obj: T): T {
  const meta = obj?.metadata as (KubeObjectLike['metadata'] & { managedFields?: unknown }) | undefined;
  if (meta == null || !('managedFields' in meta)) return obj;
  const { managedFields: _dropped, ...rest } = meta;
  return { ...obj, metadata: rest };
}
