import type { JsonObject } from '../resources.js';
import { mapValueSchema, type StructuralSchema } from './structuralSchema.js';

// apiextensions-apiserver's structural defaulting (pkg/apiserver/schema/defaulting/algorithm.go):
// a missing field with a `default` gets it, and so does a `null` in a field that is not nullable;
// defaults are applied top down, so a defaulted object gets the defaults of its own fields too.

const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);
const clone = (v: unknown): unknown => (v === undefined ? v : JSON.parse(JSON.stringify(v)));

const needsDefault = (v: unknown, s: StructuralSchema): boolean => s.hasDefault && (v === undefined || (v === null && !s.nullable));

function defaultNode(v: unknown, s: StructuralSchema, isResource: boolean): void {
  if (Array.isArray(v)) {
    const items = s.items;
    if (!items) return;
    v.forEach((x, i) => {
      if (needsDefault(x, items)) v[i] = clone(items.default);
      defaultNode(v[i], items, items.embeddedResource);
    });
    return;
  }
  if (!isObject(v)) return;
  for (const [k, ps] of Object.entries(s.properties ?? {})) {
    if (isResource && k === 'metadata') continue;
    if (needsDefault(v[k], ps)) v[k] = clone(ps.default);
    if (v[k] !== undefined) defaultNode(v[k], ps, ps.embeddedResource);
  }
  const values = mapValueSchema(s);
  if (values) {
    for (const k of Object.keys(v)) {
      if (s.properties?.[k]) continue;
      if (needsDefault(v[k], values)) v[k] = clone(values.default);
      defaultNode(v[k], values, values.embeddedResource);
    }
  }
}

/**
 * Applies the schema's defaults to `obj` in place, as the API server does when it decodes a
 * custom resource (on every write, and on reads of what was stored before a default was added).
 *
 * @example
 * ```ts
 * const obj = { spec: {} };
 * applyDefaults(obj, schema); // obj.spec.replicas is 1 when the schema says `default: 1`
 * ```
 */
export function applyDefaults(obj: JsonObject, schema: StructuralSchema): void {
  defaultNode(obj, schema, true);
}
