import { evaluateCelRules } from '../../testing/fakeApiServer/schema/celRules.js';
import type { CompiledSchema } from '../../testing/fakeApiServer/schema/crdSchemas.js';
import { invalidValue } from '../../testing/fakeApiServer/schema/fieldErrors.js';
import { validateObject } from '../../testing/fakeApiServer/schema/schemaValidation.js';
import type { JsonObject } from '../../testing/fakeApiServer/resources.js';
import type { ObjectProblem } from './definitionTypes.js';

// The checks the API server runs on a custom resource write (the fake server's own: OpenAPI
// validation, then the CEL rules unless a blocking error came first), without pruning or
// defaulting: what a 422 would list, before the object is sent.

const BLOCKING = new Set(['FieldValueNotSupported', 'FieldValueRequired', 'FieldValueTooLong', 'FieldValueTooMany', 'FieldValueTypeInvalid']);
const NOT_CHECKED = 'some validation rules were not checked because the object was invalid; correct the existing errors to complete validation';
const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The problems the API server would report for `object` against a compiled version schema; `old`
 * makes it an update (transition rules run, unchanged values ratchet).
 *
 * @example
 * ```ts
 * objectProblems(schema, { spec: {} }); // [{ field: 'spec.schedule', reason: 'FieldValueRequired', message: 'Required value' }]
 * ```
 */
export function objectProblems(schema: CompiledSchema, object: unknown, old?: unknown): ReadonlyArray<ObjectProblem> {
  if (!isObject(object)) return [{ field: '<nil>', reason: 'FieldValueTypeInvalid', message: `Invalid value: ${JSON.stringify(object) ?? 'undefined'}: must be an object` }];
  const copy = JSON.parse(JSON.stringify(object)) as JsonObject;
  const before = isObject(old) ? (JSON.parse(JSON.stringify(old)) as JsonObject) : undefined;
  const errors = validateObject(copy, schema.structural, before);
  if (schema.rules.any) {
    if (errors.some((e) => BLOCKING.has(e.type))) errors.push(invalidValue('<nil>', null, NOT_CHECKED));
    else errors.push(...evaluateCelRules(copy, before, schema.structural, schema.rules));
  }
  return errors.map((e) => ({ field: e.field, reason: e.type, message: e.body }));
}
