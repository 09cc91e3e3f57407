import type { JsonObject } from '../resources.js';
import type { FieldError } from '../status.js';
import { required } from './fieldErrors.js';
import { compileCelRules, type CelRules } from './celRules.js';
import { defaultValueErrors } from './defaultValidation.js';
import { jsonEqual } from './schemaValidation.js';
import { openApiSchemaErrors } from './openApiSchemaRules.js';
import { structuralSchemaErrors } from './structuralValidation.js';
import { toStructural, type StructuralSchema } from './structuralSchema.js';

/**
 * A served version's schema, compiled once when its CRD is stored: the structural schema (pruning,
 * defaulting, OpenAPI validation; also what OpenAPI publishing can derive models from) and its
 * compiled CEL rules.
 *
 * @example
 * ```ts
 * const v = compileCrdSchemas(crd).versions.get('v1');
 * v?.structural.properties?.['spec'];
 * ```
 */
export interface CompiledSchema {
  readonly structural: StructuralSchema;
  readonly rules: CelRules;
}

/**
 * A CRD's compiled schemas by version name, and the 422 causes a real server gives when they are
 * not acceptable (empty when the CRD is).
 *
 * @example
 * ```ts
 * const { versions, errors } = compileCrdSchemas(crd);
 * ```
 */
export interface CompiledCrd {
  readonly versions: ReadonlyMap<string, CompiledSchema>;
  readonly errors: ReadonlyArray<FieldError>;
}

const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

// Compiling CEL is the expensive part of a CRD write; a CRD re-stored with the same schema (status
// updates, label changes, the storage listener after the write) reuses the compiled one.
const cache = new Map<string, { compiled?: CompiledSchema; errors: FieldError[]; path: string }>();
const CACHE_LIMIT = 200;

function compileSchema(raw: unknown, path: string): { compiled?: CompiledSchema; errors: FieldError[] } {
  if (!isObject(raw)) return { errors: [required(path, 'schemas are required')] };
  const key = `${path}\u0000${JSON.stringify(raw)}`;
  const hit = cache.get(key);
  if (hit) return hit;
  // As kube: defaults are checked once the schema is structural, CEL rules once no other rule failed.
  const structural = structuralSchemaErrors(raw, path);
  const nodes = openApiSchemaErrors(raw, path);
  const errors = [...structural, ...nodes];
  let compiled: CompiledSchema | undefined;
  if (structural.length === 0) {
    const schema = toStructural(raw);
    const cel = nodes.length === 0 ? compileCelRules(schema, path) : undefined;
    errors.push(...defaultValueErrors(schema, path, cel?.errors.length === 0 ? cel.rules : undefined), ...(cel?.errors ?? []));
    if (errors.length === 0 && cel) compiled = { structural: schema, rules: cel.rules };
  }
  if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value as string);
  const entry = { errors, path, ...(compiled ? { compiled } : {}) };
  cache.set(key, entry);
  return entry;
}

/**
 * Compiles the schemas of a CustomResourceDefinition (apiextensions.k8s.io/v1) as a real server
 * does on every CRD write. Error paths follow the server's internal form: when every version has
 * the same schema they read `spec.validation.openAPIV3Schema...`, else
 * `spec.versions[i].schema.openAPIV3Schema...`.
 *
 * @example
 * ```ts
 * compileCrdSchemas({ spec: { versions: [{ name: 'v1', served: true, storage: true,
 *   schema: { openAPIV3Schema: { type: 'object', properties: { spec: {} } } } }] } }).errors[0].field;
 * // 'spec.validation.openAPIV3Schema.properties[spec].type'
 * ```
 */
export function compileCrdSchemas(crd: JsonObject): CompiledCrd {
  const spec = isObject(crd['spec']) ? crd['spec'] : {};
  const versions = (Array.isArray(spec['versions']) ? spec['versions'] : []).filter(isObject);
  const out = new Map<string, CompiledSchema>();
  const errors: FieldError[] = [];
  const schemaOf = (v: JsonObject) => (isObject(v['schema']) ? v['schema']['openAPIV3Schema'] : undefined);
  const identical = versions.every((v) => jsonEqual(v['schema'], versions[0]?.['schema']));
  if (identical && versions.length > 0) {
    const r = compileSchema(schemaOf(versions[0]), 'spec.validation.openAPIV3Schema');
    errors.push(...r.errors);
    for (const v of versions) if (r.compiled && typeof v['name'] === 'string') out.set(v['name'], r.compiled);
  } else {
    versions.forEach((v, i) => {
      const r = compileSchema(schemaOf(v), `spec.versions[${i}].schema.openAPIV3Schema`);
      errors.push(...r.errors);
      if (r.compiled && typeof v['name'] === 'string') out.set(v['name'], r.compiled);
    });
  }
  return { versions: out, errors };
}
