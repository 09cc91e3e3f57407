import type { JsonObject } from '../resources.js';
import type { FieldError } from '../status.js';
import { child, duplicate, index, invalidValue, notSupported, required, tooLong, tooMany, typeInvalid } from './fieldErrors.js';
import { formatValid } from './formats.js';
import { mapValueSchema, type StructuralSchema, type ValueChecks } from './structuralSchema.js';

// The OpenAPI validation kube-apiserver runs on every write of a custom resource (kube-openapi's
// SchemaValidator through apiextensions' kubeOpenAPIResultToFieldErrors), worded as it words it,
// with CRDValidationRatcheting: on an update, a value equal to the stored one is not checked again.

const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The JSON type of a value as go-openapi names it. */
export function jsonTypeOf(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v === 'object' ? 'object' : typeof v;
}

/** Deep equality of JSON values (key order ignored). */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((x, i) => jsonEqual(x, b[i]));
  if (Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return ka.length === kb.length && ka.every((k) => Object.hasOwn(b, k) && jsonEqual((a as JsonObject)[k], (b as JsonObject)[k]));
}

function typeMatches(s: StructuralSchema, v: unknown): boolean {
  const t = jsonTypeOf(v);
  if (s.intOrString) return t === 'integer' || t === 'string';
  if (!s.type) return true;
  return t === s.type || (s.type === 'number' && t === 'integer');
}

const runes = (s: string): number => {
  let n = 0;
  for (const _ of s) n++;
  return n;
};

function stringChecks(v: string, c: ValueChecks, path: string, errors: FieldError[]): void {
  const len = c.maxLength !== undefined || c.minLength !== undefined ? runes(v) : 0;
  if (c.maxLength !== undefined && len > c.maxLength) errors.push(tooLong(path, c.maxLength));
  if (c.minLength !== undefined && len < c.minLength) errors.push(invalidValue(path, v, `${path} in body should be at least ${c.minLength} chars long`));
  if (c.pattern !== undefined && !safeRegExp(c.pattern)?.test(v)) errors.push(invalidValue(path, v, `${path} in body should match '${c.pattern}'`));
  if (c.format !== undefined && !formatValid(c.format, v)) errors.push(typeInvalid(path, v, `${path} in body must be of type ${c.format}: ${JSON.stringify(v)}`));
}

const regexps = new Map<string, RegExp | undefined>();
function safeRegExp(p: string): RegExp | undefined {
  if (!regexps.has(p)) {
    let r: RegExp | undefined;
    try {
      r = new RegExp(p, 'u');
    } catch {
      r = undefined;
    }
    if (regexps.size > 1000) regexps.clear();
    regexps.set(p, r);
  }
  return regexps.get(p);
}

function numberChecks(v: number, c: ValueChecks, path: string, errors: FieldError[]): void {
  if (c.maximum !== undefined && (c.exclusiveMaximum ? v >= c.maximum : v > c.maximum)) {
    errors.push(invalidValue(path, v, `${path} in body should be less than ${c.exclusiveMaximum ? '' : 'or equal to '}${c.maximum}`));
  }
  if (c.minimum !== undefined && (c.exclusiveMinimum ? v <= c.minimum : v < c.minimum)) {
    errors.push(invalidValue(path, v, `${path} in body should be greater than ${c.exclusiveMinimum ? '' : 'or equal to '}${c.minimum}`));
  }
  if (c.multipleOf !== undefined && c.multipleOf > 0 && Math.abs(v / c.multipleOf - Math.round(v / c.multipleOf)) > 1e-9) {
    errors.push(invalidValue(path, v, `${path} in body should be a multiple of ${c.multipleOf}`));
  }
}

/** Whether `v` passes `c` (for anyOf/oneOf/not). */
const passes = (v: unknown, c: ValueChecks, path: string): boolean => {
  const scratch: FieldError[] = [];
  checkValue(v, c, path, scratch);
  return scratch.length === 0;
};

/** The value validations of one node (and of junctor branches, which may reach into children). */
export function checkValue(v: unknown, c: ValueChecks, path: string, errors: FieldError[]): void {
  if (c.enum !== undefined && !c.enum.some((e) => jsonEqual(e, v))) {
    errors.push(notSupported(path, v, c.enum.map((e) => (typeof e === 'string' ? e : JSON.stringify(e)))));
  }
  if (typeof v === 'string') stringChecks(v, c, path, errors);
  else if (typeof v === 'number') numberChecks(v, c, path, errors);
  else if (Array.isArray(v)) {
    if (c.maxItems !== undefined && v.length > c.maxItems) errors.push(tooMany(path, v.length, c.maxItems));
    if (c.minItems !== undefined && v.length < c.minItems) errors.push(invalidValue(path, v.length, `${path} in body should have at least ${c.minItems} items`));
    if (c.uniqueItems && v.some((x, i) => v.findIndex((y) => jsonEqual(x, y)) !== i)) errors.push(invalidValue(path, v, `${path} in body shouldn't contain duplicates`));
    if (c.items) v.forEach((x, i) => checkValue(x, c.items!, index(path, i), errors));
  } else if (isObject(v)) {
    const n = Object.keys(v).length;
    if (c.maxProperties !== undefined && n > c.maxProperties) errors.push(tooMany(path, n, c.maxProperties));
    if (c.minProperties !== undefined && n < c.minProperties) errors.push(invalidValue(path, n, `${path} in body should have at least ${c.minProperties} properties`));
    for (const r of c.properties ? (c.required ?? []) : []) if (!Object.hasOwn(v, r)) errors.push(required(child(path, r)));
    for (const [k, pc] of Object.entries(c.properties ?? {})) if (Object.hasOwn(v, k)) checkValue(v[k], pc, child(path, k), errors);
  }
  for (const b of c.allOf ?? []) checkValue(v, b, path, errors);
  if (c.anyOf && !c.anyOf.some((b) => passes(v, b, path))) errors.push(invalidValue(path, v, `${path} in body must validate at least one schema (anyOf)`));
  if (c.oneOf && c.oneOf.filter((b) => passes(v, b, path)).length !== 1) {
    errors.push(invalidValue(path, v, `${path} in body must validate one and only one schema (oneOf)`));
  }
  if (c.not && passes(v, c.not, path)) errors.push(invalidValue(path, v, `${path} in body must not validate the schema (not)`));
}

function listKey(item: unknown, keys: ReadonlyArray<string>): string {
  return JSON.stringify(keys.map((k) => (isObject(item) ? (item[k] ?? null) : null)));
}

function listErrors(v: unknown[], s: StructuralSchema, old: unknown, path: string, errors: FieldError[]): void {
  const oldByKey = new Map<string, unknown>();
  if (s.listType === 'map' && Array.isArray(old)) for (const o of old) oldByKey.set(listKey(o, s.listMapKeys), o);
  const seen = new Set<string>();
  v.forEach((item, i) => {
    const k = s.listType === 'map' ? listKey(item, s.listMapKeys) : s.listType === 'set' ? JSON.stringify(item) : undefined;
    if (k !== undefined) {
      if (seen.has(k)) {
        const shown = s.listType === 'map' && isObject(item) ? Object.fromEntries(s.listMapKeys.filter((m) => m in item).map((m) => [m, item[m]])) : item;
        errors.push(duplicate(index(path, i), shown));
      }
      seen.add(k);
    }
    if (s.items) validateNode(item, s.items, k !== undefined ? oldByKey.get(k) : undefined, index(path, i), errors);
  });
}

/** Validates `v` at `path` against node `s`; `old` is the stored value there (ratcheting). */
export function validateNode(v: unknown, s: StructuralSchema, old: unknown, path: string, errors: FieldError[]): void {
  if (old !== undefined && jsonEqual(v, old)) return;
  if (v === null) {
    if (!s.nullable && (s.type || s.intOrString)) {
      const t = s.intOrString ? 'integer,string' : s.type;
      errors.push(typeInvalid(path, 'null', `${path} in body must be of type ${t}: "null"`));
    }
    return;
  }
  if (!typeMatches(s, v)) {
    const t = s.intOrString ? 'integer,string' : s.type;
    errors.push(typeInvalid(path, jsonTypeOf(v), `${path} in body must be of type ${t}: ${JSON.stringify(jsonTypeOf(v))}`));
    return;
  }
  checkValue(v, s.checks, path, errors);
  if (Array.isArray(v)) listErrors(v, s, old, path, errors);
  else if (isObject(v)) objectErrors(v, s, isObject(old) ? old : undefined, path, errors);
}

/** An embedded resource names what it is (apiextensions' objectmeta validateEmbeddedResource). */
function embeddedErrors(v: JsonObject, path: string, errors: FieldError[]): void {
  for (const f of ['apiVersion', 'kind']) {
    const x = v[f];
    if (x === undefined) errors.push(required(child(path, f), 'must not be empty'));
    else if (typeof x !== 'string') errors.push(typeInvalid(child(path, f), x, 'must be a string'));
    else if (x === '') errors.push(invalidValue(child(path, f), x, 'must not be empty'));
  }
}

function objectErrors(v: JsonObject, s: StructuralSchema, old: JsonObject | undefined, path: string, errors: FieldError[]): void {
  if (s.embeddedResource && path !== '') embeddedErrors(v, path, errors);
  for (const r of s.checks.required ?? []) if (!Object.hasOwn(v, r)) errors.push(required(child(path, r)));
  const values = mapValueSchema(s);
  for (const [k, x] of Object.entries(v)) {
    const ps = s.properties?.[k] ?? values;
    if (ps === undefined) continue;
    if (path === '' && (k === 'apiVersion' || k === 'kind')) continue;
    if (k === 'metadata' && (path === '' || s.embeddedResource)) {
      if (isObject(x) && ps.properties) objectErrors(x, { ...ps, checks: {} }, undefined, child(path, k), errors);
      continue;
    }
    validateNode(x, ps, old?.[k], child(path, k), errors);
  }
}

/**
 * Validates a custom resource against its structural schema, as the API server does on create
 * (`old` undefined) and update (`old` the stored object: unchanged values are not re-checked).
 * Returns the errors in the order kube reports them; empty when valid.
 *
 * @example
 * ```ts
 * validateObject({ spec: { replicas: 200 } }, schema, undefined);
 * // [{ field: 'spec.replicas', type: 'FieldValueInvalid',
 * //    body: 'Invalid value: 200: spec.replicas in body should be less than or equal to 100' }]
 * ```
 */
export function validateObject(obj: JsonObject, schema: StructuralSchema, old: JsonObject | undefined): FieldError[] {
  const errors: FieldError[] = [];
  validateNode(obj, schema, old, '', errors);
  return errors;
}
