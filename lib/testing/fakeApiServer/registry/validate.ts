import type { JsonObject } from '../resources.js';
import { invalid, type FieldError, type StatusError } from '../status.js';
import { newFinalizerErrors } from './deletion.js';
import { objectMetaErrors } from './objectMeta.js';
import { ownerReferenceErrors } from './ownerReferences.js';
import type { Strategy } from './strategy.js';

// The validation stage of a write (kube's `rest.BeforeCreate` / `BeforeUpdate`: ObjectMeta, the
// type's `Validate` / `ValidateUpdate`, the CRD schema with CEL and ratcheting): every cause is
// gathered, and one 422 lists them all.

type Meta = { name?: string; generateName?: string; labels?: unknown; annotations?: unknown; ownerReferences?: unknown; finalizers?: string[] };

const metaOf = (obj: JsonObject): Meta => obj.metadata as Meta;

/**
 * The causes of a create's 422: metadata (`generated`: the name came from generateName, whose
 * prefix is then what is named), owner references, the type's rules and its schema.
 *
 * @example
 * ```ts
 * const errors = createErrors(strategy, obj, false); // [] when valid
 * ```
 */
export function createErrors(strategy: Strategy, obj: JsonObject, generated: boolean): FieldError[] {
  const meta = metaOf(obj);
  const name: FieldError[] = meta.name
    ? objectMetaErrors(strategy.nameRule, meta.name, meta, generated)
    : [{ field: 'metadata.name', type: 'FieldValueRequired', body: 'Required value: name or generateName is required' }, ...objectMetaErrors(strategy.nameRule, '', meta, false, false)];
  return [
    ...name,
    ...ownerReferenceErrors(meta.ownerReferences),
    ...(strategy.rules.validateCreate?.(obj) ?? []),
    ...(strategy.schema?.validate(obj, undefined) ?? []),
  ];
}

/**
 * The causes of an update's 422: metadata, owner references, no finalizer added while the object
 * is being deleted, the type's update rules (main resource only: a subresource write changes no
 * field they look at, but one with an object of its own such as Scale does), and the schema (with ratcheting against `prev`).
 *
 * @example
 * ```ts
 * const errors = updateErrors(strategy, next, prev, undefined);
 * ```
 */
export function updateErrors(strategy: Strategy, next: JsonObject, prev: JsonObject, subresource: string | undefined): FieldError[] {
  const meta = metaOf(next);
  const deleting = (prev.metadata as { deletionTimestamp?: unknown }).deletionTimestamp !== undefined;
  return [
    ...objectMetaErrors(strategy.nameRule, meta.name ?? '', meta, false, false),
    ...ownerReferenceErrors(meta.ownerReferences),
    ...(deleting ? newFinalizerErrors(metaOf(prev).finalizers, meta.finalizers) : []),
    ...(subresource && !strategy.subresources[subresource]?.form ? [] : (strategy.rules.validateUpdate?.(next, prev) ?? [])),
    ...(strategy.schema?.validate(next, prev) ?? []),
  ];
}

/**
 * The 422 for `errors` (kube's `NewInvalid`), or undefined when there are none.
 *
 * @example
 * ```ts
 * const e = invalidObject(strategy, 'web', errors); if (e) throw e;
 * ```
 */
export function invalidObject(strategy: Strategy, name: string, errors: ReadonlyArray<FieldError>): StatusError | undefined {
  return errors.length === 0 ? undefined : invalid(strategy.type.kind, strategy.type.group, name, errors);
}
