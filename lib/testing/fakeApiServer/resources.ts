import type { Resource } from '../../listwatch/resource.js';
import { StatusError, failure } from './status.js';
import { RxkubeError } from '../../errors.js';

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
}

/**
 * A resource type as the server uses it: the definition plus the strategy flags of its registry.
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
  /** Built-in (strategic merge patch, unconditional update allowed) vs custom resource. */
  readonly builtIn: boolean;
  /** Strategy sets `metadata.generation` (workloads, custom resources). */
  readonly setsGeneration: boolean;
  /** DELETE answers with the object (pods, serviceaccounts) rather than a Status. */
  readonly returnsDeletedObject: boolean;
  /** Custom resources: a `/status` subresource is served (built-ins: see statusStrategy.ts). */
  readonly statusSubresource?: boolean;
  readonly fieldSelectors: { readonly [field: string]: (obj: JsonObject) => string | undefined };
}

/**
 * The server's view of a definition: ids, list kind, apiVersion and strategy flags.
 *
 * @example
 * ```ts
 * toType({ group: 'example.com', version: 'v1', plural: 'widgets', kind: 'Widget', namespaced: true }, false).id; // 'widgets.example.com'
 * ```
 */
export function toType(def: ResourceDefinition, builtIn: boolean, flags: Partial<ResourceType> = {}): ResourceType {
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
    setsGeneration: !builtIn,
    returnsDeletedObject: false,
    fieldSelectors: def.fieldSelectors ?? {},
    ...(def.statusSubresource ? { statusSubresource: true } : {}),
    ...flags,
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

/** The resource types the server serves, by id and by group/version/plural. */
export class ResourceTypes {
  private readonly byId = new Map<string, ResourceType>();

  constructor(initial: ReadonlyArray<ResourceType>) {
    for (const t of initial) this.byId.set(t.id, t);
  }

  /**
   * Adds (or replaces) a type; custom resources get custom-resource strategies. Takes an informer's
   * `Resource` too; without a `kind` it throws, since lists and watch events need one.
   */
  register(def: ResourceDefinition | Resource): ResourceType {
    if (typeof def.kind !== 'string' || def.kind === '') {
      const id = def.group ? `${def.plural}.${def.group}` : def.plural;
      throw new RxkubeError(
        'ResourceDefinitionError',
        `registerResource: ${id} has no kind; set kind (e.g. 'Widget'), as the server needs it for objects, lists and watch events`,
      );
    }
    const t = toType({ ...def, kind: def.kind }, false);
    this.byId.set(t.id, t);
    return t;
  }

  /** Stops serving a custom resource (its CRD was deleted); built-ins stay. */
  unregister(ref: ResourceRef): void {
    const id = typeof ref === 'string' ? ref : ref.group ? `${ref.plural}.${ref.group}` : ref.plural;
    if (this.byId.get(id)?.builtIn === false) this.byId.delete(id);
  }

  all(): ResourceType[] {
    return [...this.byId.values()];
  }

  /** The type for `group/version` and `plural`, or undefined. */
  find(group: string, version: string, plural: string): ResourceType | undefined {
    const t = this.byId.get(group ? `${plural}.${group}` : plural);
    return t && t.version === version ? t : undefined;
  }

  /** Resolves a user's reference; throws a 404 Status for an unknown type. */
  resolve(ref: ResourceRef): ResourceType {
    const id = typeof ref === 'string' ? ref : ref.group ? `${ref.plural}.${ref.group}` : ref.plural;
    const t = this.byId.get(id);
    if (!t) throw new StatusError(failure(404, 'NotFound', `the server could not find the requested resource (${id})`));
    return t;
  }
}
