import { toType, type JsonObject, type ResourceDefinition } from '../../resources.js';
import type { BuiltInResource } from '../builtInResource.js';
import type { FieldPath, GenerationPolicy, NameRule, PrinterColumn, SchemaStage, StatusPolicy, StorageMirror, Strategy, StrategyHooks, Subresource } from '../strategy.js';
import type { TypeRules } from '../typeRules.js';

/**
 * What a built-in type does differently from the defaults, as data (kube's registry strategy and
 * storage options: short names, categories, name rule, generation, status, delete answer, ...).
 * Everything left out is the default: see {@link builtInStrategy}.
 *
 * @example
 * ```ts
 * const cronJobs: StrategyEntry = { shortNames: ['cj'], categories: ['all'], generation: SPEC };
 * ```
 */
export interface StrategyEntry {
  readonly shortNames?: ReadonlyArray<string>;
  readonly categories?: ReadonlyArray<string>;
  readonly nameRule?: NameRule;
  readonly generation?: GenerationPolicy;
  /** The status a create gives (default: `{}`, kube's zero status), or false: no `/status` served. */
  readonly status?: StatusPolicy | false;
  readonly resetFields?: ReadonlyArray<FieldPath>;
  /** Subresources served besides `/status` (a Namespace's `/finalize`). */
  readonly subresources?: { readonly [name: string]: Subresource };
  readonly deleteAnswer?: 'object' | 'status';
  readonly garbageCollection?: 'Background' | 'Orphan' | 'none';
  readonly fieldSelectors?: ResourceDefinition['fieldSelectors'];
  readonly printerColumns?: ReadonlyArray<PrinterColumn>;
  readonly schema?: SchemaStage;
  readonly mirror?: StorageMirror;
  readonly hooks?: StrategyHooks;
}

/** `{ paths: [['spec']] }`: generation 1 on create, one more each time the spec changes. */
export const SPEC: GenerationPolicy = Object.freeze({ paths: Object.freeze([Object.freeze(['spec'])]) });

/** Kube's zero status: what most `PrepareForCreate`s reset the status to. */
const EMPTY_STATUS: StatusPolicy = Object.freeze({ onCreate: () => ({}) });

/** The verbs of a `/status` subresource and what a write through it takes. */
const STATUS_SUBRESOURCE: Subresource = Object.freeze({ verbs: Object.freeze(['get', 'patch', 'update'] as const), writes: Object.freeze([Object.freeze(['status'])]) });

/**
 * A selectable field's getter: the value at `keys` as a string, undefined when absent.
 *
 * @example
 * ```ts
 * fieldAt('spec', 'nodeName')({ spec: { nodeName: 'n1' } }); // 'n1'
 * ```
 */
export const fieldAt =
  (...keys: string[]) =>
  (obj: JsonObject): string | undefined => {
    let v: unknown = obj;
    for (const k of keys) v = v && typeof v === 'object' ? (v as JsonObject)[k] : undefined;
    return v === undefined || v === null ? undefined : String(v);
  };

/**
 * A built-in type's strategy: its row of the generated table (group, version, plural, kind,
 * scope, verbs, subresources), its entry (what differs from the defaults) and its rules
 * (registry/rules/). Defaults: subdomain names, no generation, `/status` (reset to `{}` on
 * create) when client-node knows one, DELETE answered with a Status, unconditional update and
 * strategic merge patch allowed, Background garbage collection.
 *
 * @example
 * ```ts
 * const s = builtInStrategy(cronJobsRow, { shortNames: ['cj'], categories: ['all'], generation: SPEC }, {});
 * s.type.apiVersion; // 'batch/v1'
 * ```
 */
export function builtInStrategy(row: BuiltInResource, entry: StrategyEntry, rules: TypeRules): Strategy {
  const status = entry.status === false || !row.subresources['status'] ? undefined : (entry.status ?? EMPTY_STATUS);
  const type = toType(
    { group: row.group, version: row.version, plural: row.plural, kind: row.kind, namespaced: row.namespaced, shortNames: entry.shortNames, fieldSelectors: entry.fieldSelectors },
    true,
  );
  return Object.freeze({
    type,
    verbs: row.verbs,
    categories: entry.categories ?? [],
    nameRule: entry.nameRule ?? 'subdomain',
    ...(entry.generation ? { generation: entry.generation } : {}),
    ...(status ? { status } : {}),
    resetFields: entry.resetFields ?? [],
    subresources: { ...(status ? { status: STATUS_SUBRESOURCE } : {}), ...entry.subresources },
    deleteAnswer: entry.deleteAnswer ?? 'status',
    unconditionalUpdate: true,
    strategicMergePatch: true,
    garbageCollection: entry.garbageCollection ?? 'Background',
    ...(entry.printerColumns ? { printerColumns: entry.printerColumns } : {}),
    rules,
    ...(entry.schema ? { schema: entry.schema } : {}),
    ...(entry.mirror ? { mirror: entry.mirror } : {}),
    hooks: entry.hooks ?? {},
  });
}
