import { toType, type JsonObject, type ResourceDefinition, type ResourceType } from '../resources.js';
import { compareKubeVersions } from './builtInStrategies.js';
import type { WebhookClientConfig } from '../admission/webhookCall.js';
import type { ConversionStrategy } from './strategy.js';

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
);

const isObject = (v: unknown): boolean => typeof v === 'object' && v !== null && !Array.isArray(v);

interface CrdVersion {
  readonly name?: unknown;
  readonly served?: unknown;
  readonly storage?: unknown;
  readonly subresources?: { readonly status?: unknown; readonly scale?: unknown };
  readonly selectableFields?: unknown;
  readonly deprecated?: unknown;
  readonly deprecationWarning?: unknown;
}

/**
 * How a CRD's versions relate: its conversion, and each deprecated version's Warning text.
 *
 * @example
 * ```ts
 * const v: CustomResourceVersioning = { conversion: { strategy: 'None' }, deprecationWarnings: { v1beta1: 'example.com/v1beta1 Backup is deprecated; use example.com/v1 Backup' } };
 * ```
 */
export interface CustomResourceVersioning {
  readonly conversion: ConversionStrategy;
  readonly deprecationWarnings: { readonly [version: string]: string };
}

/** `spec.conversion` (absent or None: None; Webhook with its clientConfig). */
function conversionOf(spec: JsonObject, crdName: string): ConversionStrategy {
  const conversion = spec['conversion'] as { strategy?: unknown; webhook?: { clientConfig?: unknown } } | undefined;
  const clientConfig = conversion?.webhook?.clientConfig;
  if (conversion?.strategy !== 'Webhook' || !isObject(clientConfig)) return { strategy: 'None' };
  return { strategy: 'Webhook', crdName, clientConfig: clientConfig as WebhookClientConfig };
}

/**
 * AX `defaultDeprecationWarning`: `<group>/<v> <Kind> is deprecated`, and `; use <group>/<v'> <Kind>`
 * naming the highest served, not deprecated version newer than it; or the version's own
 * `deprecationWarning`.
 */
function deprecationWarnings(group: string, kind: string, versions: ReadonlyArray<CrdVersion>): { [version: string]: string } {
  const out: { [version: string]: string } = {};
  for (const v of versions) {
    if (v.deprecated !== true || typeof v.name !== 'string') continue;
    if (typeof v.deprecationWarning === 'string') {
      out[v.name] = v.deprecationWarning;
      continue;
    }
    const name = v.name;
    const newer = versions
      .filter((o): o is CrdVersion & { name: string } => o.served === true && o.deprecated !== true && typeof o.name === 'string' && compareKubeVersions(o.name, name) < 0)
      .map((o) => o.name)
      .sort(compareKubeVersions);
    out[name] = `${group}/${name} ${kind} is deprecated${newer.length ? `; use ${group}/${newer[0]} ${kind}` : ''}`;
  }
  return out;
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

/** A version's `subresources.scale` as a definition's `scaleSubresource`. */
function scaleOf(scale: unknown): Pick<ResourceDefinition, 'scaleSubresource'> | undefined {
  if (!isObject(scale)) return undefined;
  const { specReplicasPath, statusReplicasPath, labelSelectorPath } = scale as { [k: string]: unknown };
  if (typeof specReplicasPath !== 'string' || typeof statusReplicasPath !== 'string') return undefined;
  return { scaleSubresource: { specReplicasPath, statusReplicasPath, ...(typeof labelSelectorPath === 'string' ? { labelSelectorPath } : {}) } };
}

/**
 * What a CustomResourceDefinition (apiextensions.k8s.io/v1) serves: one definition per served
 * version and the storage version; undefined when it lacks what a real server requires (group,
 * plural, kind, scope, a served version).
 *
 * @example
 * ```ts
 * definitionsFromCrd(crd)?.storageVersion; // 'v1'
 * ```
 */
export function definitionsFromCrd(
  crd: JsonObject,
): { readonly definitions: ReadonlyArray<ResourceDefinition>; readonly storageVersion: string; readonly versioning: CustomResourceVersioning } | undefined {
  const spec = crd['spec'] as JsonObject | undefined;
  const names = spec?.['names'] as JsonObject | undefined;
  const group = spec?.['group'];
  const plural = names?.['plural'];
  const kind = names?.['kind'];
  const scope = spec?.['scope'];
  const versions = (Array.isArray(spec?.['versions']) ? spec['versions'] : []) as ReadonlyArray<CrdVersion>;
  const served = versions.filter((v): v is CrdVersion & { name: string } => v.served === true && typeof v.name === 'string');
  if (typeof group !== 'string' || typeof plural !== 'string' || typeof kind !== 'string') return undefined;
  if ((scope !== 'Namespaced' && scope !== 'Cluster') || served.length === 0) return undefined;
  const stored = versions.find((v) => v.storage === true)?.name;
  const singular = names?.['singular'];
  const shortNames = names?.['shortNames'];
  const categories = names?.['categories'];
  const strings = (v: unknown): string[] | undefined => (Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string') : undefined);
  const definitions = served.map((v) => ({
    group,
    version: v.name,
    plural,
    kind,
    namespaced: scope === 'Namespaced',
    ...(typeof singular === 'string' ? { singular } : {}),
    ...(strings(shortNames) ? { shortNames: strings(shortNames) } : {}),
    ...(strings(categories) ? { categories: strings(categories) } : {}),
    ...(isObject(v.subresources?.status) ? { statusSubresource: true } : {}),
    ...(scaleOf(v.subresources?.scale) ?? {}),
    ...(Array.isArray(v.selectableFields) ? { fieldSelectors: selectableFieldSelectors(v.selectableFields) } : {}),
  }));
  // The storage version is where objects live; if it is not served (allowed by kube), the first served one stands in.
  const storageVersion = typeof stored === 'string' && served.some((v) => v.name === stored) ? stored : served[0].name;
  const crdName = String((crd['metadata'] as { name?: unknown } | undefined)?.name ?? `${plural}.${group}`);
  const versioning = { conversion: conversionOf(spec!, crdName), deprecationWarnings: deprecationWarnings(group, kind, versions) };
  return { definitions, storageVersion, versioning };
}

/**
 * The resource a CustomResourceDefinition defines, in its storage version if served (else the
 * first served one), or undefined when it lacks what a real server requires. Every served version
 * is served (see {@link definitionsFromCrd}); this is the one objects are stored in.
 *
 * @example
 * ```ts
 * definitionFromCrd({ spec: { group: 'example.com', scope: 'Namespaced',
 *   names: { plural: 'widgets', kind: 'Widget' }, versions: [{ name: 'v1', served: true, storage: true }] } });
 * // { group: 'example.com', version: 'v1', plural: 'widgets', kind: 'Widget', namespaced: true, ... }
 * ```
 */
export function definitionFromCrd(crd: JsonObject): ResourceDefinition | undefined {
  const d = definitionsFromCrd(crd);
  return d?.definitions.find((def) => def.version === d.storageVersion);
}
