// The shape of one row of builtInTypes.generated.ts (scripts/generate-builtin-types.mjs).

/**
 * A Kubernetes verb as discovery lists it.
 *
 * @example
 * ```ts
 * const verbs: Verb[] = ['get', 'list', 'watch'];
 * ```
 */
export type Verb = 'create' | 'delete' | 'deletecollection' | 'get' | 'list' | 'patch' | 'update' | 'watch';

/**
 * A subresource as client-node's request paths know it (`pods/status`, `deployments/scale`).
 *
 * @example
 * ```ts
 * const scale: BuiltInSubresource = { verbs: ['get', 'patch', 'update'], kind: 'Scale', model: 'V1Scale' };
 * ```
 */
export interface BuiltInSubresource {
  readonly verbs: ReadonlyArray<Verb>;
  /** The kind it reads and writes (absent for text answers such as `pods/log`). */
  readonly kind?: string;
  readonly model?: string;
}

/**
 * A built-in resource as client-node's API classes describe it: one group, version and plural.
 *
 * @example
 * ```ts
 * const cronJobs: BuiltInResource = { group: 'batch', version: 'v1', plural: 'cronjobs', namespaced: true, kind: 'CronJob',
 *   model: 'V1CronJob', verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
 *   subresources: { status: { verbs: ['get', 'patch', 'update'], kind: 'CronJob', model: 'V1CronJob' } } };
 * ```
 */
export interface BuiltInResource {
  readonly group: string;
  readonly version: string;
  readonly plural: string;
  readonly namespaced: boolean;
  readonly kind: string;
  /** The client-node model class (`V1CronJob`, `CoreV1Event`). */
  readonly model: string;
  readonly verbs: ReadonlyArray<Verb>;
  readonly subresources: { readonly [name: string]: BuiltInSubresource };
}
