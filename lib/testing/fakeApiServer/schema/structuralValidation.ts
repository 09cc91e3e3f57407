import type { JsonObject } from '../resources.js';
import type { FieldError } from '../status.js';
import { forbidden, index, invalidValue, notSupported, required } from './fieldErrors.js';

// apiextensions-apiserver's ValidateStructural (pkg/apiserver/schema/validation.go) plus the
// schema checks of the CRD's API validation a real server runs on every CRD write: what a schema
// must be for the server to prune, default and validate custom resources by it.

type Level = 'root' | 'item' | 'field';

const TYPES = ['array', 'boolean', 'integer', 'number', 'object', 'string'];
const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);
const key = (path: string, k: string): string => index(`${path}.properties`, k);

function intOrStringBranches(v: unknown): boolean {
  return (
    Array.isArray(v) &&
    v.length === 2 &&
    isObject(v[0]) &&
    isObject(v[1]) &&
    Object.keys(v[0]).length === 1 &&
    Object.keys(v[1]).length === 1 &&
    v[0]['type'] === 'integer' &&
    v[1]['type'] === 'string'
  );
}

/** What Go's RE2 refuses that JavaScript accepts: lookaround and backreferences. */
function re2Problem(p: string): string | undefined {
  const look = /\(\?(<[=!]|[=!])/.exec(p);
  if (look) return `error parsing regexp: invalid or unsupported Perl syntax: \`${look[0].slice(0, 3)}\``;
  const backref = /(^|[^\\])(\\[1-9])/.exec(p);
  if (backref) return `error parsing regexp: invalid escape sequence: \`${backref[2]}\``;
  return undefined;
}

function checkPattern(s: JsonObject, path: string, errors: FieldError[]): void {
  const p = s['pattern'];
  if (typeof p !== 'string' || p === '') return;
  const re2 = re2Problem(p);
  if (re2) {
    errors.push(invalidValue(`${path}.pattern`, p, `must be a valid regular expression, but isn't: ${re2}`));
    return;
  }
  try {
    new RegExp(p, 'u');
  } catch (e) {
    errors.push(invalidValue(`${path}.pattern`, p, `must be a valid regular expression, but isn't: ${e instanceof Error ? e.message : String(e)}`));
  }
}

/** A junctor branch (allOf/anyOf/oneOf/not): value validations only. */
function nestedErrors(v: JsonObject, path: string, skipAnyOf: boolean, errors: FieldError[]): void {
  junctorErrors(v, path, skipAnyOf, false, errors);
  if (isObject(v['items'])) nestedErrors(v['items'], `${path}.items`, false, errors);
  if (isObject(v['properties'])) {
    for (const [k, p] of Object.entries(v['properties'])) if (isObject(p)) nestedErrors(p, key(path, k), false, errors);
    if ('metadata' in v['properties']) errors.push(forbidden(key(path, 'metadata'), 'must not be specified in a nested context'));
  }
  if (v['type'] !== undefined && v['type'] !== '') errors.push(forbidden(`${path}.type`, 'must be empty to be structural'));
  if (v['additionalProperties'] !== undefined) errors.push(forbidden(`${path}.additionalProperties`, 'must be undefined to be structural'));
  if (v['default'] !== undefined && v['default'] !== null) errors.push(forbidden(`${path}.default`, 'must be undefined to be structural'));
  if (typeof v['title'] === 'string' && v['title']) errors.push(forbidden(`${path}.title`, 'must be empty to be structural'));
  if (typeof v['description'] === 'string' && v['description']) errors.push(forbidden(`${path}.description`, 'must be empty to be structural'));
  if (v['nullable'] === true) errors.push(forbidden(`${path}.nullable`, 'must be false to be structural'));
  if (v['externalDocs'] !== undefined) errors.push(forbidden(`${path}.externalDocs`, 'must be undefined to be structural'));
  if (v['x-kubernetes-preserve-unknown-fields'] === true) errors.push(forbidden(`${path}.x-kubernetes-preserve-unknown-fields`, 'must be false to be structural'));
  if (v['x-kubernetes-embedded-resource'] === true) errors.push(forbidden(`${path}.x-kubernetes-embedded-resource`, 'must be false to be structural'));
  if (v['x-kubernetes-int-or-string'] === true) errors.push(forbidden(`${path}.x-kubernetes-int-or-string`, 'must be false to be structural'));
  if (Array.isArray(v['x-kubernetes-list-map-keys']) && v['x-kubernetes-list-map-keys'].length > 0) {
    errors.push(forbidden(`${path}.x-kubernetes-list-map-keys`, 'must be empty to be structural'));
  }
  if (v['x-kubernetes-list-type'] !== undefined) errors.push(forbidden(`${path}.x-kubernetes-list-type`, 'must be undefined to be structural'));
  if (v['x-kubernetes-map-type'] !== undefined) errors.push(forbidden(`${path}.x-kubernetes-map-type`, 'must be undefined to be structural'));
  if (Array.isArray(v['x-kubernetes-validations']) && v['x-kubernetes-validations'].length > 0) {
    errors.push(forbidden(`${path}.x-kubernetes-validations`, 'must be empty to be structural'));
  }
}

function junctorErrors(s: JsonObject, path: string, skipAnyOf: boolean, skipFirstAllOfAnyOf: boolean, errors: FieldError[]): void {
  const each = (name: string, skipFirst: boolean) => {
    const list = s[name];
    if (!Array.isArray(list)) return;
    list.forEach((b, i) => {
      if (isObject(b)) nestedErrors(b, index(`${path}.${name}`, i), skipFirst && i === 0, errors);
    });
  };
  if (!skipAnyOf) each('anyOf', false);
  each('allOf', skipFirstAllOfAnyOf);
  each('oneOf', false);
  if (isObject(s['not'])) nestedErrors(s['not'], `${path}.not`, false, errors);
  checkPattern(s, path, errors);
}

function metadataErrors(m: JsonObject, checkMetadata: boolean, level: Level, path: string, errors: FieldError[]): void {
  if (checkMetadata && m['type'] !== 'object') errors.push(invalidValue(`${path}.type`, m['type'] ?? '', 'must be object'));
  if (level !== 'root') return;
  const props = isObject(m['properties']) ? Object.keys(m['properties']) : [];
  const rest = Object.keys(m).filter((k) => !['type', 'properties', 'default'].includes(k));
  if (rest.length > 0 || props.some((p) => p !== 'name' && p !== 'generateName')) {
    errors.push(forbidden(path, 'must not specify anything other than name and generateName, but metadata is implicitly specified'));
  }
}

/** The structural invariants of one node and its children (validateStructuralInvariants). */
function invariantErrors(s: JsonObject, level: Level, path: string, errors: FieldError[]): void {
  const type = typeof s['type'] === 'string' ? s['type'] : '';
  if (type && !TYPES.includes(type)) errors.push(notSupported(`${path}.type`, type, TYPES));
  if (type === 'array' && !isObject(s['items'])) errors.push(required(`${path}.items`, 'must be specified'));
  if (isObject(s['items'])) invariantErrors(s['items'], 'item', `${path}.items`, errors);
  if (isObject(s['properties'])) for (const [k, p] of Object.entries(s['properties'])) if (isObject(p)) invariantErrors(p, 'field', key(path, k), errors);
  const ap = s['additionalProperties'];
  if (ap !== undefined && ap !== null) {
    if (level === 'root') errors.push(forbidden(`${path}.additionalProperties`, 'must not be used at the root'));
    if (isObject(ap)) invariantErrors(ap, 'field', `${path}.additionalProperties`, errors);
  }
  const intOrString = s['x-kubernetes-int-or-string'] === true;
  const preserve = s['x-kubernetes-preserve-unknown-fields'] === true;
  const embedded = s['x-kubernetes-embedded-resource'] === true;
  if (intOrString && preserve) errors.push(invalidValue(`${path}.x-kubernetes-preserve-unknown-fields`, true, 'must be false if x-kubernetes-int-or-string is true'));
  if (intOrString && embedded) errors.push(invalidValue(`${path}.x-kubernetes-embedded-resource`, true, 'must be false if x-kubernetes-int-or-string is true'));
  const allOf = s['allOf'];
  const skipFirstAllOfAnyOf = Array.isArray(allOf) && isObject(allOf[0]) && intOrStringBranches(allOf[0]['anyOf']);
  junctorErrors(s, path, intOrStringBranches(s['anyOf']), skipFirstAllOfAnyOf, errors);
  if (embedded && type !== 'object') {
    if (!type) errors.push(required(`${path}.type`, 'must be object if x-kubernetes-embedded-resource is true'));
    else errors.push(invalidValue(`${path}.type`, type, 'must be object if x-kubernetes-embedded-resource is true'));
  } else if (!type && !intOrString && !preserve) {
    const where = { root: 'at the root', item: 'for specified array items', field: 'for specified object fields' }[level];
    errors.push(required(`${path}.type`, `must not be empty ${where}`));
  }
  if (embedded && ap !== undefined && ap !== null) errors.push(forbidden(`${path}.additionalProperties`, 'must not be used if x-kubernetes-embedded-resource is set'));
  if (level === 'root' && type && type !== 'object') errors.push(invalidValue(`${path}.type`, type, 'must be object at the root'));
  const checkMetadata = level === 'root' || embedded;
  const props = isObject(s['properties']) ? s['properties'] : {};
  for (const f of ['kind', 'apiVersion']) {
    const p = props[f];
    if (checkMetadata && isObject(p) && p['type'] !== 'string') errors.push(invalidValue(`${key(path, f)}.type`, p['type'] ?? '', 'must be string'));
  }
  if (isObject(props['metadata'])) metadataErrors(props['metadata'], checkMetadata, level, key(path, 'metadata'), errors);
  if (embedded && !preserve && Object.keys(props).length === 0) {
    errors.push(required(`${path}.properties`, 'must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields'));
  }
  // The CRD API's own checks on a node (apiextensions validation.go).
  if (s['uniqueItems'] === true) errors.push(forbidden(`${path}.uniqueItems`, 'uniqueItems cannot be set to true since the runtime complexity becomes quadratic'));
  const listType = s['x-kubernetes-list-type'];
  if (listType !== undefined && listType !== 'atomic' && listType !== 'set' && listType !== 'map') {
    errors.push(notSupported(`${path}.x-kubernetes-list-type`, listType, ['atomic', 'set', 'map']));
  }
  if (listType === 'map' && !(Array.isArray(s['x-kubernetes-list-map-keys']) && s['x-kubernetes-list-map-keys'].length > 0)) {
    errors.push(required(`${path}.x-kubernetes-list-map-keys`, 'must not be empty if x-kubernetes-list-type is map'));
  }
}

/** Junctor branches of `v` may only restrict what `s` specifies (validateStructuralCompleteness). */
function valueCompleteness(v: JsonObject, s: JsonObject | undefined, sPath: string, vPath: string, errors: FieldError[]): void {
  if (!s) {
    errors.push(required(sPath, `because it is defined in ${vPath}`));
    return;
  }
  if (isObject(v['not'])) nestedCompleteness(v['not'], s, sPath, `${vPath}.not`, errors);
  for (const j of ['allOf', 'anyOf', 'oneOf']) {
    const list = v[j];
    if (Array.isArray(list)) list.forEach((b, i) => isObject(b) && nestedCompleteness(b, s, sPath, index(`${vPath}.${j}`, i), errors));
  }
}

function nestedCompleteness(v: JsonObject, s: JsonObject | undefined, sPath: string, vPath: string, errors: FieldError[]): void {
  if (!s) {
    errors.push(required(sPath, `because it is defined in ${vPath}`));
    return;
  }
  valueCompleteness(v, s, sPath, vPath, errors);
  if (isObject(v['items'])) nestedCompleteness(v['items'], isObject(s['items']) ? s['items'] : undefined, `${sPath}.items`, `${vPath}.items`, errors);
  const sProps = isObject(s['properties']) ? s['properties'] : {};
  for (const [k, p] of Object.entries(isObject(v['properties']) ? v['properties'] : {})) {
    if (!isObject(p)) continue;
    const sp = sProps[k];
    if (!isObject(sp)) errors.push(required(key(sPath, k), `because it is defined in ${key(vPath, k)}`));
    else nestedCompleteness(p, sp, key(sPath, k), key(vPath, k), errors);
  }
}

/**
 * Why `schema` (a CRD version's `openAPIV3Schema`, at `path`) is not structural, as a real
 * server words it: an empty list when it is. Sorted by text, as kube sorts them.
 *
 * @example
 * ```ts
 * structuralSchemaErrors({ type: 'object', properties: { spec: {} } }, 'spec.validation.openAPIV3Schema');
 * // [{ field: 'spec.validation.openAPIV3Schema.properties[spec].type', type: 'FieldValueRequired',
 * //    body: 'Required value: must not be empty for specified object fields' }]
 * ```
 */
export function structuralSchemaErrors(schema: JsonObject, path: string): FieldError[] {
  const errors: FieldError[] = [];
  invariantErrors(schema, 'root', path, errors);
  valueCompleteness(schema, schema, path, path, errors);
  const text = (e: FieldError) => `${e.field}: ${e.body}`;
  return errors.sort((a, b) => (text(a) < text(b) ? -1 : text(a) > text(b) ? 1 : 0));
}
