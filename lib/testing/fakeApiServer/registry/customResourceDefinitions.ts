import { toType, type JsonObject, type ResourceDefinition, type ResourceType } from '../resources.js';

/**
 * `customresourcedefinitions.apiextensions.k8s.io/v1`, cluster-scoped, as kube-apiserver serves it.
 *
 * @example
 * ```ts
 * customResourceDefinitionType.id; // 'customresourcedefinitions.apiextensions.k8s.io'
 * ```
 */
export const customResourceDefinitionType: ResourceType = toType(
  {
    group: 'apiextensions.k8s.io',
    version: 'v1',
    plural: 'customresourcedefinitions',
    kind: 'CustomResourceDefinition',
    namespaced: false,
    shortNames: ['crd', 'crds'],
  },
  true,
  { setsGeneration: true },
);

const isObject = (v: unknown): boolean => typeof v === 'object' && v !== null && !Array.isArray(v);

interface CrdVersion {
  readonly name?: unknown;
  readonly served?: unknown;
  readonly storage?: unknown;
  readonly subresources?: { readonly status?: unknown };
  readonly selectableFields?: unknown;
}

/**
 * A version's `selectableFields` as field selectors: `.spec.color` selects on `spec.color`, the
 * value as kube compares it (strings as they are, integers and booleans in their JSON form).
 */
function selectableFieldSelectors(fields: unknown): ResourceDefinition['fieldSelectors'] {
  const out: { [field: string]: (obj: JsonObject) => string | undefined } = {};
  for (const f of Array.isArray(fields) ? fields : []) {
    const jsonPath = (f as { jsonPath?: unknown } | null)?.jsonPath;
    if (typeof jsonPath !== 'string' || !jsonPath.startsWith('.')) continue;
    const steps = jsonPath.slice(1).split('.');
    out[steps.join('.')] = (obj) => {
      let v: unknown = obj;
      for (const step of steps) v = typeof v === 'object' && v !== null ? (v as JsonObject)[step] : undefined;
      return typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : undefined;
    };
  }
  return out;
}

/**
 * The resource a CustomResourceDefinition (apiextensions.k8s.io/v1) defines, or undefined when it
 * lacks what a real server requires (group, plural, kind, scope, a served version). The version
 * served is the storage version if it is served, else the first served one (the fake server serves
 * one version per resource).
 *
 * @example
 * ```ts
 * definitionFromCrd({ spec: { group: 'example.com', scope: 'Namespaced',
 *   names: { plural: 'widgets', kind: 'Widget' }, versions: [{ name: 'v1', served: true, storage: true }] } });
 * // { group: 'example.com', version: 'v1', plural: 'widgets', kind: 'Widget', namespaced: true, ... }
 * ```
 */
export function definitionFromCrd(crd: JsonObject): ResourceDefinition | undefined {
  const spec = crd['spec'] as JsonObject | undefined;
  const names = spec?.['names'] as JsonObject | undefined;
  const group = spec?.['group'];
  const plural = names?.['plural'];
  const kind = names?.['kind'];
  const scope = spec?.['scope'];
  const versions = (Array.isArray(spec?.['versions']) ? spec['versions'] : []) as ReadonlyArray<CrdVersion>;
  const served = versions.filter((v) => v.served === true && typeof v.name === 'string');
  const servedVersion = served.find((v) => v.storage === true) ?? served[0];
  const version = servedVersion?.name;
  if (typeof group !== 'string' || typeof plural !== 'string' || typeof kind !== 'string') return undefined;
  if ((scope !== 'Namespaced' && scope !== 'Cluster') || typeof version !== 'string') return undefined;
  const singular = names?.['singular'];
  const shortNames = names?.['shortNames'];
  return {
    group,
    version,
    plural,
    kind,
    namespaced: scope === 'Namespaced',
    ...(typeof singular === 'string' ? { singular } : {}),
    ...(Array.isArray(shortNames) ? { shortNames: shortNames.filter((s): s is string => typeof s === 'string') } : {}),
    ...(isObject(servedVersion?.subresources?.status) ? { statusSubresource: true } : {}),
    ...(Array.isArray(servedVersion?.selectableFields) ? { fieldSelectors: selectableFieldSelectors(servedVersion.selectableFields) } : {}),
  };
}
