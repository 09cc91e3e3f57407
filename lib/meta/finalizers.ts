import type { KubeObjectLike } from './kubeObject.js';

/**
 * Metadata with the fields finalizers need (client-node's `V1ObjectMeta` fits).
 *
 * @example
 * ```ts
 * const meta: FinalizerMeta = { finalizers: ['example.com/cleanup'], deletionTimestamp: '2026-01-01T00:00:00Z' };
 * ```
 */
export interface FinalizerMeta {
  finalizers?: string[];
  deletionTimestamp?: string | Date;
}

/**
 * An object whose metadata carries finalizers.
 *
 * @example
 * ```ts
 * const obj: Finalizable = { metadata: { name: 'a', finalizers: ['example.com/cleanup'] } };
 * ```
 */
export type Finalizable = KubeObjectLike & { metadata?: FinalizerMeta };

/**
 * Whether the object carries the finalizer (controller-runtime's `ContainsFinalizer`).
 *
 * @example
 * ```ts
 * if (hasFinalizer(obj, 'example.com/cleanup')) { ... }
 * ```
 */
export function hasFinalizer(obj: Finalizable, finalizer: string): boolean {
  const list: unknown = obj.metadata?.finalizers;
  // Not an array (a hand-made object): no finalizers, rather than a substring match on a string.
  return Array.isArray(list) && list.includes(finalizer);
}

/**
 * Whether the object is being deleted (`metadata.deletionTimestamp` is set): finalizers are
 * holding it until they are removed.
 *
 * @example
 * ```ts
 * if (isBeingDeleted(obj)) cleanUp(obj);
 * ```
 */
export function isBeingDeleted(obj: Finalizable): boolean {
  return obj.metadata?.deletionTimestamp != null;
}

/**
 * Adds the finalizer to a mutable object (an immer draft in a {@link jsonPatch} recipe); returns
 * whether it changed anything (controller-runtime's `AddFinalizer`).
 *
 * @example
 * ```ts
 * const body = jsonPatch(obj, (d) => { addFinalizer(d, 'example.com/cleanup'); });
 * ```
 */
export function addFinalizer(obj: Finalizable, finalizer: string): boolean {
  if (hasFinalizer(obj, finalizer)) return false;
  const meta = (obj.metadata ??= {});
  (meta.finalizers ??= []).push(finalizer);
  return true;
}

/**
 * Removes the finalizer from a mutable object (an immer draft in a {@link jsonPatch} recipe);
 * returns whether it changed anything (controller-runtime's `RemoveFinalizer`).
 *
 * @example
 * ```ts
 * const body = jsonPatch(obj, (d) => { removeFinalizer(d, 'example.com/cleanup'); });
 * ```
 */
export function removeFinalizer(obj: Finalizable, finalizer: string): boolean {
  const list: unknown = obj.metadata?.finalizers;
  if (!Array.isArray(list)) return false;
  // Every copy, as controller-runtime's RemoveFinalizer: a duplicate left behind would hold the
  // object (and run the cleanup again).
  let removed = false;
  for (let i = list.indexOf(finalizer); i >= 0; i = list.indexOf(finalizer, i)) {
    list.splice(i, 1);
    removed = true;
  }
  return removed;
}
