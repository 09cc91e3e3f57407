import type { JsonObject } from '../resources.js';

/**
 * The JSON types a CRD schema node declares (`type`), or '' where none is set (nodes with
 * `x-kubernetes-int-or-string` or `x-kubernetes-preserve-unknown-fields`).
 *
 * @example
 * ```ts
 * const t: SchemaType = 'integer';
 * ```
 */
export type SchemaType = 'object' | 'array' | 'string' | 'integer' | 'number' | 'boolean' | '';

/**
 * One `x-kubernetes-validations` entry of a CRD schema.
 *
 * @example
 * ```ts
 * const r: ValidationRule = { rule: 'self.min <= self.max', message: 'min must not exceed max' };
 * ```
 */
export interface ValidationRule {
  readonly rule: string;
  readonly message?: string;
  readonly messageExpression?: string;
  readonly reason?: string;
  readonly fieldPath?: string;
  readonly optionalOldSelf?: boolean;
}

/**
 * The value validations of a node (kube-openapi's `ValueValidation`): what a value is checked
 * against besides its type, including the `allOf`/`anyOf`/`oneOf`/`not` junctors, whose branches
 * may restrict properties and items but declare no structure of their own.
 *
 * @example
 * ```ts
 * const checks: ValueChecks = { minimum: 1, maximum: 100 };
 * ```
 */
export interface ValueChecks {
  readonly format?: string;
  readonly enum?: ReadonlyArray<unknown>;
  readonly pattern?: string;
  readonly maximum?: number;
  readonly exclusiveMaximum?: boolean;
  readonly minimum?: number;
  readonly exclusiveMinimum?: boolean;
  readonly multipleOf?: number;
  readonly maxLength?: number;
  readonly minLength?: number;
  readonly maxItems?: number;
  readonly minItems?: number;
  readonly uniqueItems?: boolean;
  readonly maxProperties?: number;
  readonly minProperties?: number;
  readonly required?: ReadonlyArray<string>;
  readonly allOf?: ReadonlyArray<ValueChecks>;
  readonly anyOf?: ReadonlyArray<ValueChecks>;
  readonly oneOf?: ReadonlyArray<ValueChecks>;
  readonly not?: ValueChecks;
  /** Only in junctor branches: checks on properties and items of the value. */
  readonly properties?: { readonly [name: string]: ValueChecks };
  readonly items?: ValueChecks;
}

/**
 * A structural schema (apiextensions-apiserver's `structuralschema.Structural`): the shape of a
 * custom resource as its CRD declares it, one node per field, compiled once when the CRD is
 * stored. It drives pruning, defaulting, validation and CEL typing; `raw` keeps the
 * JSONSchemaProps as written (for OpenAPI).
 *
 * @example
 * ```ts
 * const s = toStructural({ type: 'object', properties: { spec: { type: 'object' } } });
 * s.properties?.['spec'].type; // 'object'
 * ```
 */
export interface StructuralSchema {
  readonly type: SchemaType;
  readonly nullable: boolean;
  readonly hasDefault: boolean;
  readonly default?: unknown;
  readonly description?: string;
  readonly properties?: { readonly [name: string]: StructuralSchema };
  readonly items?: StructuralSchema;
  /** A schema for the values of a map, `true` (any value kept), or undefined (unknown keys pruned). */
  readonly additionalProperties?: StructuralSchema | boolean;
  readonly preserveUnknownFields: boolean;
  readonly embeddedResource: boolean;
  readonly intOrString: boolean;
  readonly listType?: 'atomic' | 'set' | 'map';
  readonly listMapKeys: ReadonlyArray<string>;
  readonly mapType?: 'atomic' | 'granular';
  readonly validations: ReadonlyArray<ValidationRule>;
  readonly checks: ValueChecks;
  readonly raw: JsonObject;
}

const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);
const num = (v: unknown): number | undefined => (typeof v === 'number' ? v : undefined);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** The value validations of a raw JSONSchemaProps node (junctor branches included). */
export function toValueChecks(raw: JsonObject, nested: boolean): ValueChecks {
  const list = (k: string): ValueChecks[] | undefined =>
    Array.isArray(raw[k]) ? (raw[k] as unknown[]).filter(isObject).map((b) => toValueChecks(b, true)) : undefined;
  const props = nested && isObject(raw['properties'])
    ? Object.fromEntries(Object.entries(raw['properties']).filter(([, v]) => isObject(v)).map(([k, v]) => [k, toValueChecks(v as JsonObject, true)]))
    : undefined;
  const checks: { [k: string]: unknown } = {
    format: str(raw['format']),
    enum: Array.isArray(raw['enum']) ? raw['enum'] : undefined,
    pattern: str(raw['pattern']),
    maximum: num(raw['maximum']),
    exclusiveMaximum: raw['exclusiveMaximum'] === true || undefined,
    minimum: num(raw['minimum']),
    exclusiveMinimum: raw['exclusiveMinimum'] === true || undefined,
    multipleOf: num(raw['multipleOf']),
    maxLength: num(raw['maxLength']),
    minLength: num(raw['minLength']),
    maxItems: num(raw['maxItems']),
    minItems: num(raw['minItems']),
    uniqueItems: raw['uniqueItems'] === true || undefined,
    maxProperties: num(raw['maxProperties']),
    minProperties: num(raw['minProperties']),
    required: Array.isArray(raw['required']) ? (raw['required'] as unknown[]).filter((r): r is string => typeof r === 'string') : undefined,
    allOf: list('allOf'),
    anyOf: list('anyOf'),
    oneOf: list('oneOf'),
    not: isObject(raw['not']) ? toValueChecks(raw['not'], true) : undefined,
    properties: props,
    items: nested && isObject(raw['items']) ? toValueChecks(raw['items'], true) : undefined,
  };
  for (const k of Object.keys(checks)) if (checks[k] === undefined) delete checks[k];
  return checks as ValueChecks;
}

function toRules(raw: unknown): ValidationRule[] {
  if (!Array.isArray(raw)) return [];
  return raw.filter(isObject).map((r) => {
    const rule: { -readonly [K in keyof ValidationRule]: ValidationRule[K] } = { rule: str(r['rule']) ?? '' };
    for (const k of ['message', 'messageExpression', 'reason', 'fieldPath'] as const) {
      const v = str(r[k]);
      if (v !== undefined) rule[k] = v;
    }
    if (r['optionalOldSelf'] === true) rule.optionalOldSelf = true;
    return rule;
  });
}

/**
 * Compiles a CRD's `openAPIV3Schema` (a JSONSchemaProps object) into its structural schema. It
 * does not check that the schema is structural ({@link structuralSchemaErrors} does); on a
 * schema that is not, the result is still a usable best effort.
 *
 * @example
 * ```ts
 * toStructural({ type: 'object', properties: { spec: { type: 'object', properties: { replicas: { type: 'integer' } } } } });
 * ```
 */
export function toStructural(raw: JsonObject): StructuralSchema {
  const type = str(raw['type']);
  const properties = isObject(raw['properties'])
    ? Object.fromEntries(Object.entries(raw['properties']).filter(([, v]) => isObject(v)).map(([k, v]) => [k, toStructural(v as JsonObject)]))
    : undefined;
  const ap = raw['additionalProperties'];
  const listType = str(raw['x-kubernetes-list-type']);
  const mapType = str(raw['x-kubernetes-map-type']);
  return Object.freeze({
    type: (['object', 'array', 'string', 'integer', 'number', 'boolean'].includes(type ?? '') ? type : '') as SchemaType,
    nullable: raw['nullable'] === true,
    hasDefault: raw['default'] !== undefined && raw['default'] !== null,
    ...(raw['default'] !== undefined && raw['default'] !== null ? { default: raw['default'] } : {}),
    ...(typeof raw['description'] === 'string' ? { description: raw['description'] } : {}),
    ...(properties ? { properties } : {}),
    ...(isObject(raw['items']) ? { items: toStructural(raw['items']) } : {}),
    ...(isObject(ap) ? { additionalProperties: toStructural(ap) } : typeof ap === 'boolean' ? { additionalProperties: ap } : {}),
    preserveUnknownFields: raw['x-kubernetes-preserve-unknown-fields'] === true,
    embeddedResource: raw['x-kubernetes-embedded-resource'] === true,
    intOrString: raw['x-kubernetes-int-or-string'] === true,
    ...(listType === 'atomic' || listType === 'set' || listType === 'map' ? { listType } : {}),
    listMapKeys: Array.isArray(raw['x-kubernetes-list-map-keys']) ? (raw['x-kubernetes-list-map-keys'] as unknown[]).filter((k): k is string => typeof k === 'string') : [],
    ...(mapType === 'atomic' || mapType === 'granular' ? { mapType } : {}),
    validations: toRules(raw['x-kubernetes-validations']),
    checks: toValueChecks(raw, false),
    raw,
  });
}

/** The schema of the values of a map node (`additionalProperties` as a schema), if any. */
export const mapValueSchema = (s: StructuralSchema): StructuralSchema | undefined =>
  typeof s.additionalProperties === 'object' ? s.additionalProperties : undefined;
