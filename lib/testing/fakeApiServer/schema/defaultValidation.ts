import type { FieldError } from '../status.js';
import { evaluateCelRulesAt, type CelRules } from './celRules.js';
import { forbidden, index, invalidValue } from './fieldErrors.js';
import { prune } from './pruning.js';
import { jsonEqual, validateNode } from './schemaValidation.js';
import { mapValueSchema, type StructuralSchema } from './structuralSchema.js';

// What a CRD write checks of the `default` values in its schema (apiextensions' defaulting
// validation): a default must be what pruning leaves of it (`must not have unknown fields`), valid
// against its own node's schema and pass its CEL rules; top-level metadata takes no default at all.

function defaultErrors(s: StructuralSchema, path: string, rules: CelRules | undefined, errors: FieldError[]): void {
  if (!s.hasDefault) return;
  const at = `${path}.default`;
  const value = s.default;
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const pruned = JSON.parse(JSON.stringify(value)) as { [k: string]: unknown };
    prune(pruned, { ...s, embeddedResource: s.embeddedResource });
    if (!jsonEqual(pruned, value)) {
      errors.push(invalidValue(at, value, 'must not have unknown fields'));
      return;
    }
  }
  const found: FieldError[] = [];
  validateNode(value, s, undefined, '', found);
  for (const e of found) errors.push({ ...e, field: e.field ? `${at}.${e.field}` : at });
  if (found.length === 0 && rules) errors.push(...evaluateCelRulesAt(value, s, rules, at));
}

function walk(s: StructuralSchema, path: string, isRoot: boolean, rules: CelRules | undefined, errors: FieldError[]): void {
  defaultErrors(s, path, rules, errors);
  for (const [k, p] of Object.entries(s.properties ?? {})) {
    const at = index(`${path}.properties`, k);
    if (isRoot && k === 'metadata') {
      if (p.hasDefault) errors.push(forbidden(`${at}.default`, 'must not be set in top-level metadata'));
      for (const [m, mp] of Object.entries(p.properties ?? {})) {
        if (mp.hasDefault) errors.push(forbidden(`${index(`${at}.properties`, m)}.default`, 'must not be set in top-level metadata'));
      }
      continue;
    }
    walk(p, at, false, rules, errors);
  }
  if (s.items) walk(s.items, `${path}.items`, false, rules, errors);
  const values = mapValueSchema(s);
  if (values) walk(values, `${path}.additionalProperties`, false, rules, errors);
}

/**
 * The 422 causes for the `default` values of a structural schema at `schemaPath`.
 *
 * @example
 * ```ts
 * defaultValueErrors(toStructural({ type: 'object', properties: { spec: { type: 'object',
 *   properties: { n: { type: 'integer', default: 'x' } } } } }), 'spec.validation.openAPIV3Schema');
 * // [{ field: 'spec.validation.openAPIV3Schema.properties[spec].properties[n].default', type: 'FieldValueTypeInvalid', ... }]
 * ```
 */
export function defaultValueErrors(schema: StructuralSchema, schemaPath: string, rules?: CelRules): FieldError[] {
  const errors: FieldError[] = [];
  walk(schema, schemaPath, true, rules, errors);
  return errors;
}
