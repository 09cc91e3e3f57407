import type { FieldError } from '../status.js';

interface OwnerRef {
  apiVersion?: unknown;
  kind?: unknown;
  name?: unknown;
  uid?: unknown;
  controller?: unknown;
}

const nonEmpty = (v: unknown): boolean => typeof v === 'string' && v !== '';

/**
 * apimachinery's `ValidateOwnerReferences`: every reference names apiVersion, kind, name and uid,
 * and at most one is the controller. The causes of a 422, if any.
 *
 * @example
 * ```ts
 * ownerReferenceErrors([{ kind: 'ReplicaSet', name: 'rs' }]); // apiVersion and uid must not be empty
 * ```
 */
export function ownerReferenceErrors(refs: unknown): FieldError[] {
  if (refs === undefined || refs === null) return [];
  const field = 'metadata.ownerReferences';
  if (!Array.isArray(refs)) return [{ field, type: 'FieldValueInvalid', body: 'Invalid value: must be a list' }];
  const errors: FieldError[] = [];
  const controllers: string[] = [];
  for (const r of refs as OwnerRef[]) {
    if (!nonEmpty(r?.apiVersion)) errors.push({ field: `${field}.apiVersion`, type: 'FieldValueInvalid', body: 'Invalid value: "": version must not be empty' });
    if (!nonEmpty(r?.kind)) errors.push({ field: `${field}.kind`, type: 'FieldValueInvalid', body: 'Invalid value: "": kind must not be empty' });
    if (!nonEmpty(r?.name)) errors.push({ field: `${field}.name`, type: 'FieldValueInvalid', body: 'Invalid value: "": name must not be empty' });
    if (!nonEmpty(r?.uid)) errors.push({ field: `${field}.uid`, type: 'FieldValueInvalid', body: 'Invalid value: "": uid must not be empty' });
    if (r?.controller === true) controllers.push(`${String(r.kind)}/${String(r.name)}`);
  }
  if (controllers.length > 1) {
    errors.push({
      field,
      type: 'FieldValueInvalid',
      body: `Invalid value: "": Only one reference can have Controller set to true. Found "true" in references for ${controllers.join(' and ')}`,
    });
  }
  return errors;
}
