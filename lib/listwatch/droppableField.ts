/**
 * A field that a ListWatch can cut from the bytes of each object before they are parsed, for a
 * transform that would drop it anyway: `metadata.managedFields` (server-side apply bookkeeping,
 * about 40% of a realistic pod's JSON). Only the object's own `metadata` is meant, never a nested
 * one (a pod template's `metadata` keeps its fields).
 *
 * @example
 * ```ts
 * const drop: ReadonlyArray<DroppableField> = ['metadata.managedFields'];
 * listWatch(kubeConfig, pods, { drop });
 * ```
 */
export type DroppableField = 'metadata.managedFields';

/**
 * Whether `fields` holds `metadata.managedFields`, the field this version knows how to cut.
 *
 * @example
 * ```ts
 * dropsManagedFields(stripManagedFields.drops); // true
 * ```
 */
export function dropsManagedFields(fields: ReadonlyArray<DroppableField> | undefined): boolean {
  return fields !== undefined && fields.includes('metadata.managedFields');
}
