/**
 * A CRD schema node as JSON (apiextensions.k8s.io/v1 `JSONSchemaProps`, in its JSON spelling:
 * `x-kubernetes-list-type`, not client-node's `x_kubernetes_list_type`).
 *
 * @example
 * ```ts
 * const node: JsonSchemaProps = { type: 'integer', minimum: 0, format: 'int32' };
 * ```
 */
export interface JsonSchemaProps {
  readonly [key: string]: unknown;
}

type Json = { [key: string]: unknown };
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The order keys are written in: what a node is, then its checks, then its children, then kube's extensions. */
const KEY_ORDER = [
  'description', 'title', 'type', 'format', 'nullable', 'default', 'enum', 'example',
  'minimum', 'exclusiveMinimum', 'maximum', 'exclusiveMaximum', 'multipleOf',
  'minLength', 'maxLength', 'pattern', 'minItems', 'maxItems', 'uniqueItems', 'minProperties', 'maxProperties',
  'required', 'properties', 'additionalProperties', 'items', 'allOf', 'anyOf', 'oneOf', 'not', 'externalDocs',
  'x-kubernetes-embedded-resource', 'x-kubernetes-int-or-string', 'x-kubernetes-preserve-unknown-fields',
  'x-kubernetes-list-type', 'x-kubernetes-list-map-keys', 'x-kubernetes-map-type', 'x-kubernetes-validations',
];
const rank = (k: string): number => {
  const i = KEY_ORDER.indexOf(k);
  return i === -1 ? KEY_ORDER.length : i;
};

/**
 * `o` with its keys in the canonical order (known keys first in {@link KEY_ORDER}'s order, then
 * the rest sorted), so the same definition always writes the same bytes.
 */
function ordered(o: Json): Json {
  const keys = Object.keys(o).sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0));
  return Object.fromEntries(keys.map((k) => [k, o[k]]));
}

/** Keys a schema library adds that are no part of a CRD schema (TypeBox's `$id`, JSON Schema's `$schema`). */
const DROPPED = new Set(['$id', '$schema', 'static', 'params']);

const typeOf = (v: unknown): string => (typeof v === 'number' ? (Number.isInteger(v) ? 'integer' : 'number') : typeof v);

/** A `{ const: v }` branch (TypeBox's `Literal`). */
const literal = (b: unknown): b is Json => isObject(b) && 'const' in b;

/**
 * Rewrites a union the way kube-rs's schema transforms do, into what a structural schema can say:
 * literals of one type -> `enum`; `X | null` -> X with `nullable: true`; `integer | string` ->
 * `x-kubernetes-int-or-string`. Anything else is left for the CRD checks to refuse.
 */
function rewriteUnion(node: Json, key: 'anyOf' | 'oneOf'): Json {
  const branches = node[key];
  if (!Array.isArray(branches) || branches.length === 0) return node;
  const rest: Json = { ...node };
  delete rest[key];
  if (branches.every(literal)) {
    const values = branches.map((b) => b['const']);
    const types = new Set(values.map(typeOf));
    if (types.size === 1) return { ...rest, type: [...types][0] === 'integer' || [...types][0] === 'number' ? [...types][0] : 'string', enum: values };
  }
  const nonNull = branches.filter((b) => !(isObject(b) && b['type'] === 'null'));
  if (nonNull.length < branches.length) {
    const inner = nonNull.length === 1 ? (nonNull[0] as Json) : { [key]: nonNull };
    return rewrite({ ...rest, ...inner, nullable: true });
  }
  const types = branches.map((b) => (isObject(b) ? b['type'] : undefined)).sort();
  if (branches.length === 2 && types[0] === 'integer' && types[1] === 'string') return { ...rest, 'x-kubernetes-int-or-string': true };
  return node;
}

/** One node, rewritten (children first). */
function rewrite(input: Json): Json {
  let node: Json = {};
  for (const [k, v] of Object.entries(input)) if (!DROPPED.has(k) && v !== undefined) node[k] = v;
  node = rewriteUnion(rewriteUnion(node, 'anyOf'), 'oneOf');
  if ('const' in node) {
    // A single literal: an enum of one (kube has no `const`).
    const { const: value, ...rest } = node;
    node = { type: typeOf(value) === 'integer' || typeOf(value) === 'number' ? typeOf(value) : 'string', ...rest, enum: [value] };
  }
  const pattern = node['patternProperties'];
  if (isObject(pattern) && Object.keys(pattern).length === 1 && node['type'] === 'object' && !isObject(node['properties'])) {
    // A record keyed by any string (TypeBox's Record) is a map: additionalProperties.
    const [[re, values]] = Object.entries(pattern);
    if (re === '^.*$' || re === '^(.*)$') {
      delete node['patternProperties'];
      node['additionalProperties'] = values;
    }
  }
  if (node['additionalProperties'] === false) delete node['additionalProperties']; // kube prunes unknown fields anyway, and refuses `false` beside properties
  if (Object.keys(node).length === 0) node['x-kubernetes-preserve-unknown-fields'] = true; // Unknown / Any: kept as sent
  for (const k of ['properties']) {
    const props = node[k];
    if (isObject(props)) node[k] = Object.fromEntries(Object.entries(props).map(([name, p]) => [name, isObject(p) ? rewrite(p) : p]));
  }
  for (const k of ['items', 'additionalProperties', 'not']) if (isObject(node[k])) node[k] = rewrite(node[k]);
  for (const k of ['allOf', 'anyOf', 'oneOf']) if (Array.isArray(node[k])) node[k] = (node[k] as unknown[]).map((b) => (isObject(b) ? rewrite(b) : b));
  if (Array.isArray(node['required']) && node['required'].length === 0) delete node['required'];
  return ordered(node);
}

/**
 * A schema from a schema library (TypeBox's are JSON Schema objects already) as a CRD's
 * `openAPIV3Schema` node: only its JSON keys (TypeBox's symbols are not enumerable-string keys
 * and fall away), `$id`/`$schema` dropped, unions rewritten as kube-rs rewrites them (literals to
 * `enum`, `| null` to `nullable`, `integer | string` to int-or-string), `Record` to
 * `additionalProperties`, `additionalProperties: false` dropped, keys in a canonical order.
 *
 * @example
 * ```ts
 * toJsonSchemaProps({ anyOf: [{ const: 'a', type: 'string' }, { const: 'b', type: 'string' }] });
 * // { type: 'string', enum: ['a', 'b'] }
 * ```
 */
export function toJsonSchemaProps(schema: object): JsonSchemaProps {
  return rewrite(JSON.parse(JSON.stringify(schema)) as Json);
}
