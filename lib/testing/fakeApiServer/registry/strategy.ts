import type { JsonObject, ResourceType } from '../resources.js';
import type { SchemaStage } from '../schema/schemaStage.js';
import type { Verb } from './builtInResource.js';
import type { TypeRules } from './typeRules.js';
import type { SubresourceAction, SubresourceConnect } from './subresourceAction.js';
import type { WebhookClientConfig } from '../admission/webhookCall.js';

export type { SchemaStage };

// A resource type's registry strategy (kube's `pkg/registry/<group>/<type>/strategy.go`), as data:
// what the generic store (store.ts) does differently for this type. Every verb goes through the
// same pipeline; where types differ, it reads this entry. Built-in entries are made from the
// generated table (builtInTypes.generated.ts) and the overrides in strategies/; custom resources'
// from their CRD (customResourceStrategy.ts).

/**
 * A CRD's `spec.conversion`, as the server applies it.
 *
 * @example
 * ```ts
 * const byWebhook: ConversionStrategy = { strategy: 'Webhook', crdName: 'backups.example.com', clientConfig: { url: 'https://127.0.0.1:9443/convert' } };
 * ```
 */
export type ConversionStrategy = { readonly strategy: 'None' } | { readonly strategy: 'Webhook'; readonly crdName: string; readonly clientConfig: WebhookClientConfig };

/**
 * The name rule of a type (PIPELINE.md §3; apimachinery's `ValidateObjectMeta` name functions).
 *
 * @example
 * ```ts
 * const services: NameRule = 'dns1035Label';
 * ```
 */
export type NameRule = 'subdomain' | 'dns1123Label' | 'dns1035Label' | 'pathSegment';

/** A path of object fields, `['spec', 'finalizers']`. */
export type FieldPath = ReadonlyArray<string>;

/**
 * When `metadata.generation` moves (kube's `PrepareForUpdate`): set to 1 on create and grown by one
 * when one of `paths` changes (`spec`; Deployments also `metadata.annotations`), or when anything
 * but the `except` top-level fields changes (custom resources: all but metadata, and status when it
 * has a status subresource). Absent: the type keeps whatever generation the object has.
 *
 * @example
 * ```ts
 * const deployments: GenerationPolicy = { paths: [['spec'], ['metadata', 'annotations']] };
 * ```
 */
export type GenerationPolicy = { readonly paths: ReadonlyArray<FieldPath> } | { readonly except: ReadonlyArray<string> };

/**
 * A type's status subresource: what a create does to the status (kube resets it in
 * `PrepareForCreate`): `reset` gives the status a created object gets (undefined: none), `'keep'`
 * keeps the one sent (Nodes).
 *
 * @example
 * ```ts
 * const pvcs: StatusPolicy = { onCreate: () => ({ phase: 'Pending' }) };
 * ```
 */
export interface StatusPolicy {
  readonly onCreate: ((obj: JsonObject) => JsonObject | undefined) | 'keep';
}

/**
 * A subresource the store serves: its verbs, and the fields a write through it takes from the
 * request (kube's status or finalize strategy; everything else is kept from the stored object).
 *
 * @example
 * ```ts
 * const finalize: Subresource = { verbs: ['update'], writes: [['spec', 'finalizers']] };
 * ```
 */
export interface Subresource {
  readonly verbs: ReadonlyArray<Verb>;
  readonly writes: ReadonlyArray<FieldPath>;
  /** The kind it answers with when it is not the type's own (`Scale`), for discovery. */
  readonly kind?: { readonly group: string; readonly version: string; readonly kind: string };
  /** A subresource with an object of its own (`autoscaling/v1 Scale`): how it is read from and written into the parent. */
  readonly form?: SubresourceForm;
  /** A subresource that is an action (`pods/eviction`): what a POST to it does. */
  readonly action?: SubresourceAction;
  /** A connect subresource (`pods/log`, `pods/exec`): what any request to it answers. */
  readonly connect?: SubresourceConnect;
}

/**
 * A subresource whose object is a view of its parent (kube's `ScaleREST`): reads build the view
 * from the stored parent; writes (PUT, and patches applied to the view) go back into the parent,
 * which then takes the parent's update path (strategy, generation, validation, admission).
 *
 * @example
 * ```ts
 * const scale = strategy.subresources['scale']?.form;
 * scale?.read(deployment); // { apiVersion: 'autoscaling/v1', kind: 'Scale', spec: { replicas: 3 }, ... }
 * ```
 */
export interface SubresourceForm {
  /** The view's kind and apiVersion (`Scale`, `autoscaling/v1`). */
  readonly kind: string;
  readonly apiVersion: string;
  /** The view of a stored parent (throws a Status when the parent cannot give one). */
  read(parent: JsonObject): JsonObject;
  /** `parent` (a copy the caller owns) with what `view` writes; throws the view's 422. */
  write(parent: JsonObject, view: JsonObject): JsonObject;
  /** A GET of a missing parent names the subresource (`deployments/scale.apps "x" not found`), or the parent (custom resources). */
  readonly missingParent: 'subresource' | 'parent';
}

/**
 * One column of a type's Table (`kubectl get`), kube's `metav1.TableColumnDefinition` plus how to
 * read its cell from an object. Filled by the Table printers (issue 33 part 6).
 *
 * @example
 * ```ts
 * const ready: PrinterColumn = { name: 'Ready', type: 'string', format: '', description: 'ready containers', priority: 0, cell: () => '1/1' };
 * ```
 */
export interface PrinterColumn {
  readonly name: string;
  readonly type: string;
  readonly format: string;
  readonly description: string;
  readonly priority: number;
  cell(obj: JsonObject): unknown;
}

/**
 * Where a type's objects reach besides their own table: core/v1 and events.k8s.io/v1 Events are
 * one storage in kube, so a write of one is written to the other, converted, at the same revision.
 *
 * @example
 * ```ts
 * const coreEvents: StorageMirror = { resource: 'events.events.k8s.io', convert: toEventsV1Event };
 * ```
 */
export interface StorageMirror {
  /** The id of the other resource. */
  readonly resource: string;
  convert(obj: JsonObject): JsonObject;
}

/**
 * The few behaviours that are code, not data (kube's strategies' own functions), each one named.
 *
 * @example
 * ```ts
 * const namespaceHooks: StrategyHooks = { prepareForDelete: (ns) => { ns.status = { phase: 'Terminating' }; } };
 * ```
 */
export interface StrategyHooks {
  /** `PrepareForCreate` beyond status and generation (a Namespace's `kubernetes` finalizer). */
  readonly prepareForCreate?: (obj: JsonObject) => void;
  /** What a delete that has to wait does first (a Namespace turns `Terminating`). */
  readonly prepareForDelete?: (obj: JsonObject) => void;
  /** Finalizers outside `metadata.finalizers` that hold a delete (a Namespace's `spec.finalizers`). */
  readonly holdsDeletion?: (obj: JsonObject) => boolean;
  /** The decoder's conversion of a body into the stored form (Events: both APIs' fields). */
  readonly normalize?: (obj: JsonObject) => JsonObject;
}

/**
 * A type's registry strategy. The store reads it at each stage of every verb (docs/architecture.md).
 *
 * @example
 * ```ts
 * const s: Strategy = served.strategyOf(types.resolve('deployments.apps'));
 * s.generation; // { paths: [['spec'], ['metadata', 'annotations']] }
 * ```
 */
export interface Strategy {
  readonly type: ResourceType;
  /** Discovery: the verbs the type serves. */
  readonly verbs: ReadonlyArray<Verb>;
  /** Discovery: `kubectl get all` and other category names. */
  readonly categories: ReadonlyArray<string>;
  readonly nameRule: NameRule;
  readonly generation?: GenerationPolicy;
  /** Present when the type has a `/status` subresource. */
  readonly status?: StatusPolicy;
  /** Fields a write to the main resource cannot change (kept from the stored object), status aside. */
  readonly resetFields: ReadonlyArray<FieldPath>;
  /** The subresources served, `status` included when `status` is set. */
  readonly subresources: { readonly [name: string]: Subresource };
  /** DELETE answers with the deleted object (pods, serviceaccounts) or a Status. */
  readonly deleteAnswer: 'object' | 'status';
  /** A PUT without `metadata.resourceVersion` is allowed (built-ins) or a 422 (custom resources). */
  readonly unconditionalUpdate: boolean;
  /** Strategic merge patch is served (built-ins). */
  readonly strategicMergePatch: boolean;
  /** The garbage collector's default for dependents (Orphan: Jobs, ReplicationControllers), or none (Events). */
  readonly garbageCollection: 'Background' | 'Orphan' | 'none';
  /** The Table columns (`kubectl get`); absent: NAME and AGE. */
  readonly printerColumns?: ReadonlyArray<PrinterColumn>;
  /** Defaults, validation, immutability, warnings and allocation (registry/rules/). */
  readonly rules: TypeRules;
  readonly schema?: SchemaStage;
  readonly mirror?: StorageMirror;
  readonly hooks: StrategyHooks;
  /** Custom resources: how objects convert between the resource's served versions (absent: None). */
  readonly conversion?: ConversionStrategy;
  /** A deprecated version's `Warning` header text (kube's default or the CRD's `deprecationWarning`). */
  readonly deprecationWarning?: string;
}
