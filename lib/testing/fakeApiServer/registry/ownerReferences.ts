import type { ResourceType } from '../resources.js';
import { invalid, type FieldError } from '../status.js';

interface OwnerRef {
  apiVersion?: unknown;
  kind?: unknown;
  name?: unknown;
  uid?: unknown;
  controller?: unknown;
}

const nonEmpty = (v: unknown): boolean => typeof v === 'string' && v !== '';

/**
 * apimachinery's `ValidateOwnerReferences` (422 Invalid): every reference names apiVersion, kind,
 * name and uid, and at most one is the controller.
 */
export function validateOwnerReferences(type: ResourceType, name: string, refs: unknown): void {
  if (refs === undefined || refs === null) return;
  const field = 'metadata.ownerReferences';
  if (!Array.isArray(refs)) {
    throw invalid(type.kind, type.group, name, [{ field, type: 'FieldValueInvalid', body: 'Invalid value: must be a list' }]);
  }
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
  if (errors.length) throw invalid(type.kind, type.group, name, errors);
}
