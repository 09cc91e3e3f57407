/**
 * Names a Kubernetes resource type: group (`''` for core), version and plural name, and whether it
 * is namespaced. `kind` is used for bookmark objects and messages.
 *
 * @example
 * ```ts
 * const pods: Resource = { group: '', version: 'v1', plural: 'pods', kind: 'Pod', namespaced: true };
 * const deployments: Resource = { group: 'apps', version: 'v1', plural: 'deployments', kind: 'Deployment', namespaced: true };
 * ```
 */
export interface Resource {
  readonly group: string;
  readonly version: string;
  readonly plural: string;
  readonly kind?: string;
  readonly namespaced: boolean;
}

/**
 * A {@link Resource} that also says the type of its objects: what `defineCustomResource` (from
 * `rxkube/crd`) returns, so `factory.informerFor(backups)` is an `Informer<Backup>` with no type
 * argument, and the resource, version and object type come from one place. `objectType` exists
 * only in the type (a phantom): any `Resource` is a `TypedResource<T>` for the `T` you name.
 *
 * @example
 * ```ts
 * import type { KubeObject } from 'rxkube';
 * interface Widget extends KubeObject { spec: { size: number } }
 * const widgets: TypedResource<Widget> = { group: 'example.com', version: 'v1', plural: 'widgets', kind: 'Widget', namespaced: true };
 * ```
 */
export interface TypedResource<T> extends Resource {
  /** Never set: carries `T` in the type only. */
  readonly objectType?: T;
}
