import type { JsonObject } from '../resources.js';
import { child, index } from './fieldErrors.js';
import { mapValueSchema, type StructuralSchema } from './structuralSchema.js';

// apiextensions-apiserver's pruning (pkg/apiserver/schema/pruning/algorithm.go): a field the schema
// does not specify is dropped when a custom resource is decoded, unless a node on its way says
// `x-kubernetes-preserve-unknown-fields: true` or `additionalProperties: true`. apiVersion and kind
// of the object (and of embedded resources) are kept; their metadata keeps what ObjectMeta has.

const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The fields of ObjectMeta: a resource's metadata is decoded into it, so anything else is dropped. */
const OBJECT_META = new Set([
  'name',
  'generateName',
  'namespace',
  'selfLink',
  'uid',
  'resourceVersion',
  'generation',
  'creationTimestamp',
  'deletionTimestamp',
  'deletionGracePeriodSeconds',
  'labels',
  'annotations',
  'ownerReferences',
  'finalizers',
  'managedFields',
]);

function pruneMetadata(meta: unknown, path: string, unknown: string[]): void {
  if (!isObject(meta)) return;
  for (const k of Object.keys(meta)) {
    if (OBJECT_META.has(k)) continue;
    delete meta[k];
    unknown.push(child(child(path, 'metadata'), k));
  }
}

function pruneNode(
  v: unknown,
  s: StructuralSchema,
  path: string,
  isResource: boolean,
  unknown: string[],
): void {
  if (Array.isArray(v)) {
    if (s.items)
      v.forEach((x, i) => pruneNode(x, s.items!, index(path, i), s.items!.embeddedResource, unknown));
    return;
  }
  if (!isObject(v)) return;
  const values = mapValueSchema(s);
  for (const k of Object.keys(v)) {
    if (isResource && k === 'metadata') pruneMetadata(v[k], path, unknown);
    if (isResource && (k === 'apiVersion' || k === 'kind' || k === 'metadata')) continue;
    const ps = s.properties?.[k] ?? values;
    if (ps) pruneNode(v[k], ps, child(path, k), ps.embeddedResource, unknown);
    else if (!s.preserveUnknownFields && s.additionalProperties !== true) {
      delete v[k];
      unknown.push(child(path, k));
    }
  }
}

/**
 * Removes from `obj` (in place) the fields its structural schema does not specify, and returns
 * their paths (`spec.foo`, `spec.items[0].bar`) in the order found: what `fieldValidation=Warn`
 * warns about and `Strict` refuses.
 *
 * @example
 * ```ts
 * const obj = { spec: { replicas: 1, foo: 'x' } };
 * prune(obj, schema); // ['spec.foo']; obj is { spec: { replicas: 1 } }
 * ```
 */
export function prune(obj: JsonObject, schema: StructuralSchema): string[] {
  const unknown: string[] = [];
  pruneNode(obj, schema, '', true, unknown);
  return unknown;
}
