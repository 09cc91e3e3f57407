import type { Change } from '../storage/history.js';
import type { PatchType, WriteOptions } from '../writeOptions.js';
import type { JsonObject, ResourceType } from '../resources.js';
import type { SchemaStage } from './schemaStage.js';
import type { Storage } from '../storage/storage.js';
import { parseStored, sameAs, serialize, storedObject } from '../storage/storedObject.js';
import { badRequest, invalid, StatusError, type FieldError } from '../status.js';
import { invalidValue } from './fieldErrors.js';
import { evaluateCelRules } from './celRules.js';
import { compileCrdSchemas, type CompiledSchema } from './crdSchemas.js';
import { applyDefaults } from './defaulting.js';
import { prune } from './pruning.js';
import { validateObject } from './schemaValidation.js';

export type { FieldValidation, WriteOptions } from '../writeOptions.js';

const CRD_ID = 'customresourcedefinitions.apiextensions.k8s.io';
const BLOCKING = new Set(['FieldValueNotSupported', 'FieldValueRequired', 'FieldValueTooLong', 'FieldValueTooMany', 'FieldValueTypeInvalid']);
const NOT_CHECKED = 'some validation rules were not checked because the object was invalid; correct the existing errors to complete validation';

const nameOf = (obj: JsonObject): string => String((obj.metadata as { name?: unknown } | undefined)?.name ?? '');
const namespaceOf = (obj: JsonObject): string => String((obj.metadata as { namespace?: unknown } | undefined)?.namespace ?? '');

/**
 * What the API server does with a write before storing it, for the parts that depend on
 * CustomResourceDefinitions: a CRD's schemas must be structural and its rules compile within the
 * cost limits (else 422); a custom resource is pruned, defaulted and validated against the schema
 * of its version, CEL rules included (else 422 listing every cause). Built-in types pass through
 * untouched (one map lookup).
 *
 * @example
 * ```ts
 * const schemas = new CustomResourceSchemas();
 * storage.onChange(schemas.listener());
 * ```
 */
export class CustomResourceSchemas {
  private readonly byResource = new Map<string, ReadonlyMap<string, CompiledSchema>>();

  /** `storage` and `find` (the served types), when given, let a schema change reach the objects already stored. */
  constructor(
    private readonly storage?: Storage,
    private readonly find?: (group: string, version: string, plural: string) => ResourceType | undefined,
  ) {}

  /** The compiled schema of `type` (its served version), if its CRD has one. */
  schemaFor(type: ResourceType): CompiledSchema | undefined {
    return this.byResource.get(type.id)?.get(type.version);
  }

  /**
   * The schema stage of a custom resource's strategy: decoding (pruning, defaults, unknown fields)
   * and validation (OpenAPI, CEL, ratcheting) by its version's schema, looked up at each write (the
   * CRD may change); nothing for a type without one.
   */
  stage(type: ResourceType): SchemaStage {
    return {
      applies: () => this.schemaFor(type) !== undefined,
      decode: (obj, options) => this.decode(type, obj, options),
      validate: (obj, old) => this.validate(type, obj, old),
    };
  }

  /** A storage listener keeping the compiled schemas in step with the stored CRDs. */
  listener(): (change: Change) => void {
    return (change) => {
      if (change.resource.id !== CRD_ID) return;
      const crd = JSON.parse(change.obj.json) as JsonObject;
      const spec = crd['spec'] as { group?: unknown; names?: { plural?: unknown } } | undefined;
      if (typeof spec?.group !== 'string' || typeof spec.names?.plural !== 'string') return;
      const id = `${spec.names.plural}.${spec.group}`;
      if (change.type === 'DELETED') {
        this.byResource.delete(id);
        return;
      }
      const before = this.byResource.get(id);
      const versions = compileCrdSchemas(crd).versions;
      this.byResource.set(id, versions);
      // Objects are stored in the storage version: only its schema reaches them.
      const storageVersion = ((crd['spec'] as { versions?: Array<{ name?: unknown; storage?: unknown }> }).versions ?? []).find((v) => v.storage === true)?.name;
      const schema = typeof storageVersion === 'string' ? versions.get(storageVersion) : undefined;
      if (before && schema && before.get(storageVersion as string) !== schema) this.redecodeStored(spec.group, storageVersion as string, spec.names.plural, schema);
    };
  }

  /** Prunes and defaults the stored objects of a version whose schema changed (read-time decoding). */
  private redecodeStored(group: string, version: string, plural: string, schema: CompiledSchema): void {
    const type = this.find?.(group, version, plural);
    if (!type || !this.storage) return;
    for (const s of [...this.storage.snapshot(type, this.storage.resourceVersion)]) {
      const obj = parseStored(s);
      prune(obj, schema.structural);
      applyDefaults(obj, schema.structural);
      const serialized = serialize(obj);
      if (!sameAs(serialized, s)) this.storage.rewrite(type, storedObject(type, serialized, s.rv));
    }
  }

  /**
   * The decode stage of a custom resource's write: `obj` (modified in place) pruned of unknown
   * fields (a warning each, or the strict 400/422/500 as `fieldValidation` says), defaulted, its
   * domain-less finalizers warned about.
   */
  decode(type: ResourceType, obj: JsonObject, options: WriteOptions = {}): void {
    const schema = this.schemaFor(type);
    if (!schema) return;
    // Nested values may be shared with the caller (in-process writes copy shallowly): copy first.
    for (const k of Object.keys(obj)) if (k !== 'metadata' && typeof obj[k] === 'object' && obj[k] !== null) obj[k] = JSON.parse(JSON.stringify(obj[k])) as unknown;
    this.pruneAndDefault(type, obj, schema, options);
    finalizerWarnings(obj, options);
  }

  /** The causes of a 422 by the schema and its CEL rules (`old`: the stored object, for transition rules and ratcheting). */
  validate(type: ResourceType, obj: JsonObject, old: JsonObject | undefined): FieldError[] {
    const schema = this.schemaFor(type);
    if (!schema) return [];
    const errors = validateObject(obj, schema.structural, old);
    if (schema.rules.any) {
      if (errors.some((e) => BLOCKING.has(e.type))) errors.push(invalidValue('<nil>', null, NOT_CHECKED));
      else errors.push(...evaluateCelRules(obj, old, schema.structural, schema.rules));
    }
    return errors;
  }

  /** Pruning and defaulting, with `fieldValidation` deciding what an unknown field means. */
  private pruneAndDefault(type: ResourceType, obj: JsonObject, schema: CompiledSchema, options: WriteOptions): void {
    const before = options.fieldValidation === 'Strict' && options.patchType ? JSON.stringify(obj) : '';
    const unknown = prune(obj, schema.structural);
    const mode = options.fieldValidation ?? 'Warn';
    if (unknown.length > 0 && mode === 'Warn') for (const u of unknown) options.warnings?.push(`unknown field "${u}"`);
    if (unknown.length > 0 && mode === 'Strict') throw strictError(type, obj, unknown, options.patchType, before);
    applyDefaults(obj, schema.structural);
  }
}

/** Standard finalizers kube itself sets; any other without a domain gets a warning. */
const STANDARD_FINALIZERS = new Set(['kubernetes', 'orphan', 'foregroundDeletion']);

/** apiextensions' validateKubeFinalizerName: a custom resource's finalizer should name a domain. */
function finalizerWarnings(obj: JsonObject, options: WriteOptions): void {
  const fin = (obj.metadata as { finalizers?: unknown } | undefined)?.finalizers;
  if (!Array.isArray(fin)) return;
  for (const f of fin) {
    if (typeof f === 'string' && !f.includes('/') && !STANDARD_FINALIZERS.has(f)) {
      options.warnings?.push(`metadata.finalizers: ${JSON.stringify(f)}: prefer a domain-qualified finalizer name to avoid accidental conflicts with other finalizer writers`);
    }
  }
}

function strictError(type: ResourceType, obj: JsonObject, unknown: ReadonlyArray<string>, patchType: PatchType | undefined, patched: string): StatusError {
  const text = `strict decoding error: ${unknown.map((u) => `unknown field "${u}"`).join(', ')}`;
  if (patchType === 'apply') {
    // Server-side apply's typed conversion fails before any strategy runs: a 500 without a reason.
    const ns = namespaceOf(obj);
    const message = `failed to create typed patch object (${ns ? `${ns}/` : ''}${nameOf(obj)}; ${type.apiVersion}, Kind=${type.kind}): .${unknown[0]}: field not declared in schema`;
    return new StatusError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, code: 500 });
  }
  if (patchType) {
    const cause: FieldError = invalidValue('patch', patched, text);
    return invalid('', '', '', [cause]);
  }
  return badRequest(`${type.kind} in version "${type.version}" cannot be handled as a ${type.kind}: ${text}`);
}
