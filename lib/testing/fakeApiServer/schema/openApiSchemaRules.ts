import type { JsonObject } from '../resources.js';
import type { FieldError } from '../status.js';
import { forbidden, index, invalidValue, notSupported, required } from './fieldErrors.js';
import { validFieldPath } from './validFieldPath.js';
import { toStructural } from './structuralSchema.js';

// The node-by-node rules apiextensions' validation applies to a CRD's openAPIV3Schema besides
// structurality (apiextensions-apiserver pkg/apis/apiextensions/validation/validation.go,
// ValidateCustomResourceDefinitionOpenAPISchema, specStandardValidatorV3.validate and
// validateMapListKeysMapSet). Structurality itself, uniqueItems, an unknown list type and a map
// list without keys are structuralValidation.ts's; CEL compilation and cost are celRules.ts's.

const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);
const key = (path: string, k: string): string => index(`${path}.properties`, k);
const META_FIELDS = new Set(['metadata', 'kind', 'apiVersion']);
const SCALARS = new Set(['array', 'object']);

interface NodeContext {
  /** Inside the TypeMeta/ObjectMeta of the root or of an embedded resource. */
  readonly insideMeta: boolean;
  /** Why a default is not allowed here, if it is not. */
  readonly noDefaults?: string;
}

/** specStandardValidatorV3.validate: what JSONSchemaProps may carry in a CRD at all. */
function standardErrors(s: JsonObject, path: string, ctx: NodeContext, errors: FieldError[]): void {
  if (s['default'] !== undefined && ctx.noDefaults) errors.push(forbidden(`${path}.default`, `must not be set ${ctx.noDefaults}`));
  if (typeof s['id'] === 'string' && s['id'] !== '') errors.push(forbidden(`${path}.id`, 'id is not supported'));
  if (s['additionalItems'] !== undefined) errors.push(forbidden(`${path}.additionalItems`, 'additionalItems is not supported'));
  if (isObject(s['patternProperties']) && Object.keys(s['patternProperties']).length > 0) errors.push(forbidden(`${path}.patternProperties`, 'patternProperties is not supported'));
  if (isObject(s['definitions']) && Object.keys(s['definitions']).length > 0) errors.push(forbidden(`${path}.definitions`, 'definitions is not supported'));
  if (s['dependencies'] !== undefined) errors.push(forbidden(`${path}.dependencies`, 'dependencies is not supported'));
  if (s['$ref'] !== undefined) errors.push(forbidden(`${path}.$ref`, '$ref is not supported'));
  if (s['type'] === 'null') errors.push(forbidden(`${path}.type`, 'type cannot be set to null, use nullable as an alternative'));
  if (Array.isArray(s['items'])) errors.push(forbidden(`${path}.items`, 'items must be a schema object and not an array'));
  if (ctx.insideMeta && s['x-kubernetes-embedded-resource'] === true) errors.push(forbidden(`${path}.x-kubernetes-embedded-resource`, 'must not be used inside of resource meta'));
}

function listTypeErrors(s: JsonObject, path: string, errors: FieldError[]): void {
  const type = typeof s['type'] === 'string' ? s['type'] : '';
  const listType = s['x-kubernetes-list-type'];
  const keys = Array.isArray(s['x-kubernetes-list-map-keys']) ? (s['x-kubernetes-list-map-keys'] as unknown[]) : [];
  const items = isObject(s['items']) ? s['items'] : undefined;
  if (s['x-kubernetes-map-type'] !== undefined && type !== 'object') {
    errors.push(type ? invalidValue(`${path}.type`, type, 'must be object if x-kubernetes-map-type is specified') : required(`${path}.type`, 'must be object if x-kubernetes-map-type is specified'));
  }
  const mapType = s['x-kubernetes-map-type'];
  if (mapType !== undefined && mapType !== 'atomic' && mapType !== 'granular') errors.push(notSupported(`${path}.x-kubernetes-map-type`, mapType, ['atomic', 'granular']));
  if (listType !== undefined && type !== 'array') {
    errors.push(type ? invalidValue(`${path}.type`, type, 'must be array if x-kubernetes-list-type is specified') : required(`${path}.type`, 'must be array if x-kubernetes-list-type is specified'));
  } else if (listType === 'set' && items) {
    if (items['type'] === 'array' && items['x-kubernetes-list-type'] !== undefined && items['x-kubernetes-list-type'] !== 'atomic') {
      errors.push(invalidValue(`${path}.items.x-kubernetes-list-type`, items['x-kubernetes-list-type'], 'must be atomic as item of a list with x-kubernetes-list-type=set'));
    }
    if (items['type'] === 'object' && items['x-kubernetes-map-type'] !== 'atomic') {
      errors.push(invalidValue(`${path}.items.x-kubernetes-map-type`, listType, 'must be atomic as item of a list with x-kubernetes-list-type=set'));
    }
  }
  if (keys.length > 0 && listType !== 'map') {
    errors.push(listType === undefined ? required(`${path}.x-kubernetes-list-type`, 'must be map if x-kubernetes-list-map-keys is non-empty') : invalidValue(`${path}.x-kubernetes-list-type`, listType, 'must be map if x-kubernetes-list-map-keys is non-empty'));
  }
  if (listType === 'map') mapListErrors(s, items, keys, path, errors);
  if ((listType === 'map' || listType === 'set') && items?.['nullable'] === true) {
    errors.push(forbidden(`${path}.items.nullable`, `cannot be nullable when x-kubernetes-list-type is ${String(listType)}`));
  }
}

/** A `x-kubernetes-list-type: map`: object items whose keys are scalar properties, required or defaulted, not nullable. */
function mapListErrors(s: JsonObject, items: JsonObject | undefined, keys: ReadonlyArray<unknown>, path: string, errors: FieldError[]): void {
  if (!items) {
    if (s['items'] === undefined) errors.push(required(`${path}.items`, 'must have a schema if x-kubernetes-list-type is map'));
    return;
  }
  if (items['type'] !== 'object') {
    errors.push(invalidValue(`${path}.items.type`, items['type'] ?? '', "must be object if parent array's x-kubernetes-list-type is map"));
    return;
  }
  const props = isObject(items['properties']) ? items['properties'] : {};
  const requiredKeys = new Set(Array.isArray(items['required']) ? (items['required'] as unknown[]) : []);
  const seen = new Set<unknown>();
  for (const k of keys) {
    const p = typeof k === 'string' ? props[k] : undefined;
    if (!isObject(p)) errors.push(invalidValue(`${path}.x-kubernetes-list-map-keys`, keys, 'entries must all be names of item properties'));
    else if (SCALARS.has(String(p['type']))) errors.push(invalidValue(`${key(`${path}.items`, String(k))}.type`, 'object', "must be a scalar type if parent array's x-kubernetes-list-type is map"));
    if (seen.has(k)) errors.push(invalidValue(`${path}.x-kubernetes-list-map-keys`, keys, 'must not contain duplicate entries'));
    seen.add(k);
  }
  for (const k of keys) {
    const p = typeof k === 'string' ? props[k] : undefined;
    if (!isObject(p)) continue;
    if (!requiredKeys.has(k) && p['default'] === undefined) {
      errors.push(required(`${key(`${path}.items`, String(k))}.default`, 'this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property'));
    }
    if (p['nullable'] === true) errors.push(forbidden(`${key(`${path}.items`, String(k))}.nullable`, 'this property is in x-kubernetes-list-map-keys, so it cannot be nullable'));
  }
}

const hasNewlines = (s: string): boolean => /[\r\n]/.test(s);

/** The static checks of each `x-kubernetes-validations` entry (compilation is celRules.ts's). */
function ruleErrors(s: JsonObject, path: string, errors: FieldError[]): void {
  const rules = s['x-kubernetes-validations'];
  if (!Array.isArray(rules)) return;
  rules.forEach((r: unknown, i) => {
    if (!isObject(r)) return;
    const at = index(`${path}.x-kubernetes-validations`, i);
    const rule = typeof r['rule'] === 'string' ? r['rule'].trim() : '';
    const message = typeof r['message'] === 'string' ? r['message'] : '';
    const messageExpression = typeof r['messageExpression'] === 'string' ? r['messageExpression'] : '';
    if (rule === '') errors.push(required(`${at}.rule`, 'rule is not specified'));
    else if (message.length > 0 && message.trim() === '') errors.push(invalidValue(`${at}.message`, message, 'must be non-empty if specified'));
    else if (hasNewlines(message.trim())) errors.push(invalidValue(`${at}.message`, message, 'must not contain line breaks'));
    else if (hasNewlines(rule) && message.trim() === '') errors.push(required(`${at}.message`, 'message must be specified if rule contains line breaks'));
    if (messageExpression.length > 0 && messageExpression.trim() === '') errors.push(required(`${at}.messageExpression`, 'messageExpression must be non-empty if specified'));
    const fieldPath = typeof r['fieldPath'] === 'string' ? r['fieldPath'] : '';
    if (fieldPath.length > 0 && fieldPath.trim() === '') errors.push(invalidValue(`${at}.fieldPath`, fieldPath, 'must be non-empty if specified'));
    if (hasNewlines(fieldPath)) errors.push(invalidValue(`${at}.fieldPath`, fieldPath, 'must not contain line breaks'));
    if (fieldPath.length > 0 && validFieldPath(fieldPath, toStructural(s), true).error !== undefined) {
      errors.push(invalidValue(`${at}.fieldPath`, fieldPath, 'must be a valid path'));
    }
  });
}

function nodeErrors(s: JsonObject, path: string, ctx: NodeContext, isRoot: boolean, errors: FieldError[]): void {
  standardErrors(s, path, ctx, errors);
  const props = isObject(s['properties']) ? s['properties'] : {};
  const ap = s['additionalProperties'];
  if (ap !== undefined && ap !== null && Object.keys(props).length > 0 && (ap === false || isObject(ap))) {
    errors.push(forbidden(`${path}.additionalProperties`, 'additionalProperties and properties are mutual exclusive'));
  }
  if (isObject(ap)) {
    const sub = ctx.insideMeta ? { ...ctx, noDefaults: 'inside additionalProperties applying to object metadata' } : ctx;
    nodeErrors(ap, `${path}.additionalProperties`, sub, false, errors);
  }
  for (const [k, p] of Object.entries(props)) {
    if (!isObject(p)) continue;
    const meta = (isRoot || s['x-kubernetes-embedded-resource'] === true) && META_FIELDS.has(k);
    // (defaults in top-level metadata are defaultValidation.ts's to refuse)
    const sub: NodeContext = meta ? { ...ctx, insideMeta: true } : ctx;
    nodeErrors(p, key(path, k), sub, false, errors);
  }
  if (isObject(s['not'])) nodeErrors(s['not'], `${path}.not`, ctx, false, errors);
  for (const j of ['allOf', 'oneOf', 'anyOf']) {
    const list = s[j];
    if (Array.isArray(list)) list.forEach((b: unknown, i) => isObject(b) && nodeErrors(b, index(`${path}.${j}`, i), ctx, false, errors));
  }
  if (isObject(s['items'])) nodeErrors(s['items'], `${path}.items`, ctx, false, errors);
  if (s['x-kubernetes-preserve-unknown-fields'] === false) errors.push(invalidValue(`${path}.x-kubernetes-preserve-unknown-fields`, false, 'must be true or undefined'));
  listTypeErrors(s, path, errors);
  ruleErrors(s, path, errors);
}

/**
 * What apiextensions' validation refuses in a CRD version's `openAPIV3Schema` (at `path`) node by
 * node, besides structurality: unsupported JSON Schema keywords (`$ref`, `patternProperties`,
 * `definitions`, ...), `properties` with `additionalProperties`, list and map types that do not
 * fit their node, list-map keys that are not required or defaulted, malformed
 * `x-kubernetes-validations` entries, defaults in top-level metadata. Worded as kube words them.
 *
 * @example
 * ```ts
 * openApiSchemaErrors({ type: 'object', properties: { spec: { type: 'object', $ref: '#/x' } } }, 'spec.validation.openAPIV3Schema');
 * // [{ field: 'spec.validation.openAPIV3Schema.properties[spec].$ref', type: 'FieldValueForbidden', body: 'Forbidden: $ref is not supported' }]
 * ```
 */
export function openApiSchemaErrors(schema: JsonObject, path: string): FieldError[] {
  const errors: FieldError[] = [];
  if (schema['nullable'] === true) errors.push(forbidden(`${path}.nullable`, 'nullable cannot be true at the root'));
  nodeErrors(schema, path, { insideMeta: false }, true, errors);
  return errors;
}

/** The fields a root schema may set when the status subresource is on (kube's allowedFieldsAtRootSchema, as JSON names). */
const ROOT_FIELDS_WITH_STATUS = new Set([
  'description', 'type', 'format', 'title', 'maximum', 'exclusiveMaximum', 'minimum', 'exclusiveMinimum', 'maxLength', 'minLength', 'pattern',
  'maxItems', 'minItems', 'uniqueItems', 'multipleOf', 'required', 'items', 'properties', 'externalDocs', 'example',
  'x-kubernetes-preserve-unknown-fields', 'x-kubernetes-validations',
]);

/**
 * With the status subresource on, the root schema may only carry what survives extracting
 * `properties.status` (kube's allowedFieldsAtRootSchema), and its type must be `object`.
 *
 * @example
 * ```ts
 * statusRootErrors({ type: 'object', additionalProperties: true }, 'spec.validation.openAPIV3Schema'); // one error
 * ```
 */
export function statusRootErrors(schema: JsonObject, path: string): FieldError[] {
  for (const [k, v] of Object.entries(schema)) {
    if (v === undefined || v === null || v === false || v === '' || v === 0) continue;
    if (Array.isArray(v) && v.length === 0) continue;
    if (k === 'type') {
      if (v !== 'object') return [invalidValue(`${path}.type`, v, 'only "object" is allowed as the type at the root of the schema if the status subresource is enabled')];
      continue;
    }
    if (!ROOT_FIELDS_WITH_STATUS.has(k)) {
      const names = '[Description Type Format Title Maximum ExclusiveMaximum Minimum ExclusiveMinimum MaxLength MinLength Pattern MaxItems MinItems UniqueItems MultipleOf Required Items Properties ExternalDocs Example XPreserveUnknownFields XValidations]';
      return [invalidValue(path, schema, `only ${names} fields are allowed at the root of the schema if the status subresource is enabled`, true)];
    }
  }
  return [];
}
