import type { Static, TSchema } from '@sinclair/typebox';
import type { TypedResource } from '../../listwatch/resource.js';
import type { KubeObject, ObjectMeta } from '../../meta/kubeObject.js';
import type { ValidationRule } from './kubeType.js';

/**
 * A custom resource as it comes from the API server: its `spec` and `status` typed by the schema,
 * and the whole `metadata.ObjectMeta` (name, namespace, labels, finalizers, generation,
 * ownerReferences, timestamps as strings...).
 *
 * @example
 * ```ts
 * type Backup = CustomResource<{ schedule: string }, { configMap?: string }>;
 * const b: Backup = { apiVersion: 'example.com/v1', kind: 'Backup', metadata: { name: 'nightly' }, spec: { schedule: '0 3 * * *' } };
 * ```
 */
export interface CustomResource<Spec, Status = undefined> extends KubeObject {
  apiVersion: string;
  kind: string;
  metadata: ObjectMeta;
  spec: Spec;
  status?: Status;
}

/**
 * A printer column of `kubectl get` (`additionalPrinterColumns`).
 *
 * @example
 * ```ts
 * const c: PrinterColumn = { name: 'Schedule', type: 'string', jsonPath: '.spec.schedule' };
 * ```
 */
export interface PrinterColumn {
  readonly name: string;
  readonly type: 'integer' | 'number' | 'string' | 'boolean' | 'date';
  /** A simple JSON path starting with a dot (`.spec.schedule`, `.status.conditions[0].status`). */
  readonly jsonPath: string;
  readonly format?: 'int32' | 'int64' | 'float' | 'double' | 'byte' | 'date' | 'date-time' | 'password';
  readonly description?: string;
  /** 0 (default) shows by default; 1 and more only with `-o wide`. */
  readonly priority?: number;
}

/**
 * The scale subresource (`/scale`, for `kubectl scale` and the HorizontalPodAutoscaler).
 *
 * @example
 * ```ts
 * const s: ScaleSubresource = { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas' };
 * ```
 */
export interface ScaleSubresource {
  readonly specReplicasPath: string;
  readonly statusReplicasPath: string;
  readonly labelSelectorPath?: string;
}

/**
 * One version of a custom resource: its schema and what kube serves with it.
 *
 * @example
 * ```ts
 * import { Type } from '@sinclair/typebox';
 * const v1beta1: VersionDefinition<ReturnType<typeof Type.Object>> = { spec: Type.Object({ cron: Type.String() }), deprecated: true };
 * ```
 */
export interface VersionDefinition<Spec extends TSchema = TSchema, Status extends TSchema | undefined = TSchema | undefined> {
  /** The schema of `.spec` (a TypeBox type): the root requires a spec. */
  readonly spec: Spec;
  /** The schema of `.status`; with it the status subresource is on unless `statusSubresource: false`. */
  readonly status?: Status;
  /** The object's description (`kubectl explain <kind>`). */
  readonly description?: string;
  /** CEL rules on the whole object (`self.spec...`, `self.metadata.name`). */
  readonly validations?: ReadonlyArray<ValidationRule>;
  /** Whether the version is served. Default true. */
  readonly served?: boolean;
  readonly deprecated?: boolean;
  /** The `Warning` a client gets for a deprecated version (at most 256 characters). */
  readonly deprecationWarning?: string;
  readonly printerColumns?: ReadonlyArray<PrinterColumn>;
  /** Fields usable in field selectors (`.spec.color`): strings, integers or booleans, at most 8. */
  readonly selectableFields?: ReadonlyArray<string>;
  /** Status written only through `/status` (default: on when there is a status schema). */
  readonly statusSubresource?: boolean;
  readonly scale?: ScaleSubresource;
}

/**
 * How objects move between versions: `None` (the fields as they are, under the new apiVersion)
 * or a conversion webhook.
 *
 * @example
 * ```ts
 * const c: Conversion = { strategy: 'Webhook', conversionReviewVersions: ['v1'], clientConfig: { service: { namespace: 'ops', name: 'convert', path: '/convert' } } };
 * ```
 */
export type Conversion =
  | { readonly strategy: 'None' }
  | {
      readonly strategy: 'Webhook';
      readonly conversionReviewVersions: ReadonlyArray<string>;
      readonly clientConfig:
        | { readonly url: string; readonly caBundle?: string }
        | { readonly service: { readonly namespace: string; readonly name: string; readonly path?: string; readonly port?: number }; readonly caBundle?: string };
    };

/**
 * What {@link defineCustomResource} takes: names, scope, the main version's schema (and
 * everything a version carries), other versions, conversion.
 *
 * @example
 * ```ts
 * import { Type } from '@sinclair/typebox';
 * const options: CustomResourceOptions<ReturnType<typeof Type.Object>, undefined, {}> = {
 *   group: 'example.com', kind: 'Backup', version: 'v1', spec: Type.Object({ schedule: Type.String() }),
 * };
 * ```
 */
export interface CustomResourceOptions<Spec extends TSchema, Status extends TSchema | undefined, Others extends { readonly [name: string]: VersionDefinition }>
  extends VersionDefinition<Spec, Status> {
  /** The API group: a domain with at least one dot (`example.com`). */
  readonly group: string;
  /** The kind, in CamelCase (`Backup`). */
  readonly kind: string;
  /** The main version's name (`v1`): the storage version unless `storageVersion` names another. */
  readonly version: string;
  /** Default: the lower-cased kind plus `s` (`backups`). */
  readonly plural?: string;
  /** Default: the lower-cased kind. */
  readonly singular?: string;
  /** Default: the kind plus `List`. */
  readonly listKind?: string;
  readonly shortNames?: ReadonlyArray<string>;
  /** Groups for `kubectl get <category>` (`all`). */
  readonly categories?: ReadonlyArray<string>;
  /** Default `Namespaced`. */
  readonly scope?: 'Namespaced' | 'Cluster';
  /** Other versions, by name (`{ v1beta1: { spec: ..., deprecated: true } }`). */
  readonly otherVersions?: Others;
  /** The version stored in etcd (default: `version`). */
  readonly storageVersion?: string;
  readonly conversion?: Conversion;
  /** Labels and annotations of the CRD object itself. */
  readonly labels?: { readonly [key: string]: string };
  readonly annotations?: { readonly [key: string]: string };
}

/**
 * The object type of a version's schemas.
 *
 * @example
 * ```ts
 * type OldWidget = ObjectOfVersion<{ spec: typeof oldSpec }>; // CustomResource<Static<typeof oldSpec>, undefined>
 * ```
 */
export type ObjectOfVersion<V> =
  V extends VersionDefinition<infer S, infer St> ? CustomResource<Static<S>, St extends TSchema ? Static<St> : undefined> : never;

/**
 * A custom resource of one version, as informers, listers and the controller address it (a
 * {@link TypedResource}): group, version, plural, kind, scope, and its object type.
 *
 * @example
 * ```ts
 * const older: VersionedResource<CustomResource<{ cron: string }>> = backups.versions.v1beta1;
 * ```
 */
export interface VersionedResource<T> extends TypedResource<T> {
  readonly kind: string;
  /** `group/version`, for objects and owner references. */
  readonly apiVersion: string;
}

/**
 * A problem {@link DefinedCustomResource.validate} found in an object: the field, kube's reason,
 * the message in kube's words (the server answers a write of it with a 422 listing these).
 *
 * @example
 * ```ts
 * const p: ObjectProblem = { field: 'spec.schedule', reason: 'FieldValueRequired', message: 'Required value' };
 * ```
 */
export interface ObjectProblem {
  readonly field: string;
  readonly reason: string;
  readonly message: string;
}

/**
 * What {@link defineCustomResource} returns: the resource of the main version (pass it to
 * `factory.informerFor`, `forKind`, owner references), its other versions, the CRD object, and
 * run-time checks of objects against the same schema and rules the API server applies.
 *
 * @example
 * ```ts
 * const informer = factory.informerFor(backups); // Informer<Backup>
 * const crd = backups.crd(); // the CustomResourceDefinition, checked as kube checks it
 * const problems = backups.validate({ apiVersion: 'example.com/v1', kind: 'Backup', metadata: { name: 'a' }, spec: {} });
 * ```
 */
export interface DefinedCustomResource<T extends KubeObject, Others extends { readonly [name: string]: VersionDefinition } = { readonly [name: string]: never }>
  extends VersionedResource<T> {
  /** `plural.group`: the CRD's name. */
  readonly name: string;
  readonly singular: string;
  readonly listKind: string;
  readonly shortNames: ReadonlyArray<string>;
  readonly categories: ReadonlyArray<string>;
  /** Every version, the main one included, by name. */
  readonly versions: { readonly [K in keyof Others]: VersionedResource<ObjectOfVersion<Others[K]>> } & { readonly [name: string]: VersionedResource<KubeObject> };
  /**
   * The CustomResourceDefinition (apiextensions.k8s.io/v1, JSON spelling), checked with the fake
   * API server's own CRD validation: throws {@link CrdDefinitionError} naming every field and rule
   * kube would refuse. The same definition always gives the same object (keys in a fixed order).
   */
  crd(): CustomResourceDefinitionObject;
  /**
   * What the API server would refuse in `object` (a create; pass `old` for an update, which runs
   * transition rules and ratchets unchanged fields), against the schema and CEL rules of its
   * version (`apiVersion`, else the main one). Empty when it would be accepted.
   */
  validate(object: unknown, old?: unknown): ReadonlyArray<ObjectProblem>;
  /** An object of the main version with `apiVersion` and `kind` filled in. */
  object(body: Omit<T, 'apiVersion' | 'kind'>): T;
}

/**
 * A CustomResourceDefinition object (apiextensions.k8s.io/v1) as JSON.
 *
 * @example
 * ```ts
 * const crd: CustomResourceDefinitionObject = backups.crd();
 * crd.metadata.name; // 'backups.example.com'
 * ```
 */
export interface CustomResourceDefinitionObject {
  readonly apiVersion: 'apiextensions.k8s.io/v1';
  readonly kind: 'CustomResourceDefinition';
  readonly metadata: { readonly name: string; readonly labels?: { readonly [key: string]: string }; readonly annotations?: { readonly [key: string]: string } };
  readonly spec: { readonly [key: string]: unknown };
}

/**
 * The object type of a typed resource (a definition, or one of its `versions`).
 *
 * @example
 * ```ts
 * type Backup = ObjectOf<typeof backups>; // CustomResource<{ schedule: string }, { configMap?: string }>
 * ```
 */
export type ObjectOf<R> = R extends TypedResource<infer T> ? T : never;
