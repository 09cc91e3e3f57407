import type { CustomResourceDefinition } from 'kubernetes-types/apiextensions/v1.js';
import type { Resource } from '../listwatch/resource.js';

/**
 * Whether a CustomResourceDefinition serves a resource's version now:
 * - `ready`: it exists, is not being deleted, has the `Established` condition `True` and serves the version.
 * - `absent`: no such CRD (or it is being deleted: its instances are going).
 * - `not-established`: it exists but is not (yet) `Established` (names not accepted, or just created).
 * - `version-not-served`: established, but the version is not among its served versions.
 *
 * @example
 * ```ts
 * crdReadiness(undefined, widgets); // 'absent'
 * ```
 */
export type CrdReadiness = 'ready' | 'absent' | 'not-established' | 'version-not-served';

/**
 * The name of the CRD that defines a resource: `plural.group`.
 *
 * @example
 * ```ts
 * crdName({ group: 'example.com', version: 'v1', plural: 'widgets', namespaced: true }); // 'widgets.example.com'
 * ```
 */
export const crdName = (resource: Resource): string => `${resource.plural}.${resource.group}`;

/**
 * The readiness of `resource` given its CRD as the CRD informer holds it (pure).
 *
 * @example
 * ```ts
 * crdReadiness(crd, { group: 'example.com', version: 'v1', plural: 'widgets', namespaced: true }); // 'ready'
 * ```
 */
export function crdReadiness(crd: CustomResourceDefinition | undefined, resource: Resource): CrdReadiness {
  if (crd === undefined || crd.metadata?.deletionTimestamp) return 'absent';
  const established = (crd.status?.conditions ?? []).some((c) => c.type === 'Established' && c.status === 'True');
  if (!established) return 'not-established';
  const served = (crd.spec?.versions ?? []).some((v) => v.name === resource.version && v.served === true);
  return served ? 'ready' : 'version-not-served';
}
