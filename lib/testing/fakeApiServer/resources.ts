import type { Resource } from '../../listwatch/resource.js';

/**
 * A JSON object as the server stores it.
 *
 * @example
 * ```ts
 * const obj: JsonObject = { metadata: { name: 'a' }, data: {} };
 * ```
 */
export type JsonObject = { [key: string]: unknown };

/**
 * A resource type to serve, for {@link FakeApiServer.registerResource} (custom resources) and the
 * built-ins. Only group, version, plural, kind and scope are required. It is an informer's
 * `Resource` with `kind` required, so one object describes both: pass it to `registerResource`
 * and to `informerFor` / `listWatch`.
 *
 * @example
 * ```ts
 * api.registerResource({ group: 'example.com', version: 'v1', plural: 'widgets', kind: 'Widget', namespaced: true });
 * ```
 */
export interface ResourceDefinition extends Resource {
  readonly kind: string;
  /** Defaults to the lower-cased kind. */
  readonly singular?: string;
  readonly shortNames?: ReadonlyArray<string>;
  /** Field selectors beyond `metadata.name`/`metadata.namespace`: field path -> value getter. */
  readonly fieldSelectors?: { readonly [field: string]: (obj: JsonObject) => string | undefined };
  /**
   * Custom resources: serve a `/status` subresource (a CRD's `subresources.status`), so that writes
   * to the resource keep the stored status and writes to `/status` change only the status. Default false.
   */
  readonly statusSubresource?: boolean;
  /** Discovery categories (`kubectl get <category>`; a CRD's `names.categories`). */
  readonly categories?: ReadonlyArray<string>;
  /**
   * Custom resources: serve a `/scale` subresource (a CRD's `subresources.scale`: JSON paths such
   * as `.spec.replicas`), read and written as an `autoscaling/v1` Scale (`kubectl scale`).
   */
  readonly scaleSubresource?: { readonly specReplicasPath: string; readonly statusReplicasPath: string; readonly labelSelectorPath?: string };
}

/**
 * A resource type as the server uses it: one served group, version and plural. What the server
 * does with its objects is its strategy's (registry/strategy.ts).
 *
 * @example
 * ```ts
 * const t: ResourceType = api.registerResource({ group: 'example.com', version: 'v1', plural: 'widgets', kind: 'Widget', namespaced: true });
 * t.id; // 'widgets.example.com'
 * ```
 */
export interface ResourceType {
  /** `pods`, `deployments.apps`, `widgets.example.com`. */
  readonly id: string;
  readonly group: string;
  readonly version: string;
  readonly plural: string;
  readonly singular: string;
  readonly kind: string;
  readonly listKind: string;
  readonly apiVersion: string;
  readonly namespaced: boolean;
  readonly shortNames: ReadonlyArray<string>;
  /** Built-in (its strategy from the generated table) vs custom resource (from its CRD or definition). */
  readonly builtIn: boolean;
  readonly fieldSelectors: { readonly [field: string]: (obj: JsonObject) => string | undefined };
}

/**
 * The server's view of a definition: ids, list kind and apiVersion.
 *
 * @example
 * ```ts
 * toType({ group: 'example.com', version: 'v1', plural: 'widgets', kind: 'Widget', namespaced: true }, false).id; // 'widgets.example.com'
 * ```
 */
export function toType(def: ResourceDefinition, builtIn: boolean): ResourceType {
  return Object.freeze({
    id: def.group ? `${def.plural}.${def.group}` : def.plural,
    group: def.group,
    version: def.version,
    plural: def.plural,
    singular: def.singular ?? def.kind.toLowerCase(),
    kind: def.kind,
    listKind: `${def.kind}List`,
    apiVersion: def.group ? `${def.group}/${def.version}` : def.version,
    namespaced: def.namespaced,
    shortNames: Object.freeze([...(def.shortNames ?? [])]),
    builtIn,
    fieldSelectors: def.fieldSelectors ?? {},
  });
}

/**
 * How users name a resource: `'pods'`, `'deployments.apps'`, or a `Resource`.
 *
 * @example
 * ```ts
 * const refs: ResourceRef[] = ['pods', 'deployments.apps', { group: '', version: 'v1', plural: 'pods', namespaced: true }];
 * ```
 */
export type ResourceRef = string | Resource;
