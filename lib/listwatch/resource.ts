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
