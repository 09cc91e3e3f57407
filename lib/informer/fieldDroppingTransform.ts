import type { DroppableField } from '../listwatch/droppableField.js';

/**
 * A transform that declares the fields it drops, so that an informer can have them cut from the
 * bytes before parsing (see `ListWatch.dropping`): the objects reach the transform without them
 * and it must give the same result either way. {@link stripManagedFields} is one.
 *
 * @example
 * ```ts
 * const t: FieldDroppingTransform<V1Pod> = dropsFields((p: V1Pod) => stripManagedFields(p), ['metadata.managedFields']);
 * ```
 */
export interface FieldDroppingTransform<T> {
  (obj: T): T;
  /** The fields the transform drops: its result never has them, whatever its input had. */
  readonly drops: ReadonlyArray<DroppableField>;
}

/**
 * Declares that `transform` drops `fields` (it never returns an object with them), so that the
 * informer it is given to has them cut before parsing: JSON.parse then never builds them. Declare
 * only what the transform really drops: the objects it is handed will lack those fields.
 *
 * @example
 * ```ts
 * const slim = dropsFields((pod: V1Pod) => {
 *   const { managedFields: _m, annotations: _a, ...metadata } = pod.metadata ?? {};
 *   return { ...pod, metadata };
 * }, ['metadata.managedFields']);
 * informer(lw, { transform: slim });
 * ```
 */
export function dropsFields<T>(transform: (obj: T) => T, fields: ReadonlyArray<DroppableField>): FieldDroppingTransform<T> {
  const declared = (obj: T): T => transform(obj);
  return Object.assign(declared, { drops: Object.freeze([...fields]) });
}

/**
 * The fields `transform` declares it drops (none unless made with {@link dropsFields} or carrying
 * a `drops` array as {@link stripManagedFields} does).
 *
 * @example
 * ```ts
 * droppedFields(stripManagedFields); // ['metadata.managedFields']
 * ```
 */
export function droppedFields(transform: unknown): ReadonlyArray<DroppableField> {
  const drops = (transform as Partial<FieldDroppingTransform<unknown>> | undefined)?.drops;
  return Array.isArray(drops) ? (drops as ReadonlyArray<DroppableField>) : [];
}
