import type { Resource } from '../../listwatch/resource.js';
import { StatusError, failure } from './status.js';
import { RxkubeError } from '../../errors.js';
import { coreEventFieldSelectors, eventsV1FieldSelectors } from './events.js';

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

const path = (...keys: string[]) => (obj: JsonObject): string | undefined => {
  let v: unknown = obj;
  for (const k of keys) v = v && typeof v === 'object' ? (v as JsonObject)[k] : undefined;
  return v === undefined || v === null ? undefined : String(v);
};

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

const core = (plural: string, kind: string, namespaced: boolean, shortNames: string[], flags: Partial<ResourceType> = {}, fields: ResourceDefinition['fieldSelectors'] = {}) =>
  toType({ group: '', version: 'v1', plural, kind, namespaced, shortNames, fieldSelectors: fields }, true, flags);
const apps = (plural: string, kind: string, shortNames: string[], fields: ResourceDefinition['fieldSelectors'] = {}) =>
  toType({ group: 'apps', version: 'v1', plural, kind, namespaced: true, shortNames, fieldSelectors: fields }, true, { setsGeneration: true });

/** The built-in types served by default (core/v1, apps/v1, batch/v1 Jobs, rbac.authorization.k8s.io/v1, coordination.k8s.io/v1 Leases and events.k8s.io/v1). */
export const builtInResourceTypes: ReadonlyArray<ResourceType> = Object.freeze([
  core('pods', 'Pod', true, ['po'], { returnsDeletedObject: true, setsGeneration: true }, {
    'spec.nodeName': path('spec', 'nodeName'),
    'spec.restartPolicy': path('spec', 'restartPolicy'),
    'spec.schedulerName': path('spec', 'schedulerName'),
    'spec.serviceAccountName': path('spec', 'serviceAccountName'),
    'status.phase': path('status', 'phase'),
    'status.podIP': path('status', 'podIP'),
    'status.nominatedNodeName': path('status', 'nominatedNodeName'),
  }),
  core('configmaps', 'ConfigMap', true, ['cm']),
  core('secrets', 'Secret', true, [], {}, { type: path('type') }),
  core('namespaces', 'Namespace', false, ['ns'], {}, { 'status.phase': path('status', 'phase') }),
  core('nodes', 'Node', false, ['no'], {}, { 'spec.unschedulable': path('spec', 'unschedulable') }),
  core('services', 'Service', true, ['svc']),
  core('serviceaccounts', 'ServiceAccount', true, ['sa'], { returnsDeletedObject: true }),
  core('events', 'Event', true, ['ev'], {}, coreEventFieldSelectors),
  core('endpoints', 'Endpoints', true, ['ep']),
  core('persistentvolumeclaims', 'PersistentVolumeClaim', true, ['pvc']),
  apps('deployments', 'Deployment', ['deploy']),
  apps('replicasets', 'ReplicaSet', ['rs'], { 'status.replicas': path('status', 'replicas') }),
  apps('statefulsets', 'StatefulSet', ['sts']),
  apps('daemonsets', 'DaemonSet', ['ds']),
  // Leader election and sharding membership (coordination.k8s.io/v1); no short name, as in kube.
  toType({ group: 'coordination.k8s.io', version: 'v1', plural: 'leases', kind: 'Lease', namespaced: true }, true, { setsGeneration: false }),
  // batch/v1 Jobs and rbac.authorization.k8s.io/v1: what `kubectl create job|role|rolebinding` write.
  toType({ group: 'batch', version: 'v1', plural: 'jobs', kind: 'Job', namespaced: true }, true, { setsGeneration: true }),
  toType({ group: 'rbac.authorization.k8s.io', version: 'v1', plural: 'roles', kind: 'Role', namespaced: true }, true, { setsGeneration: false }),
  toType({ group: 'rbac.authorization.k8s.io', version: 'v1', plural: 'rolebindings', kind: 'RoleBinding', namespaced: true }, true, { setsGeneration: false }),
  toType({ group: 'rbac.authorization.k8s.io', version: 'v1', plural: 'clusterroles', kind: 'ClusterRole', namespaced: false }, true, { setsGeneration: false }),
  toType({ group: 'rbac.authorization.k8s.io', version: 'v1', plural: 'clusterrolebindings', kind: 'ClusterRoleBinding', namespaced: false }, true, { setsGeneration: false }),
  // events.k8s.io/v1: what event recorders write (client-go's tools/events, kube-rs's Recorder).
  toType({ group: 'events.k8s.io', version: 'v1', plural: 'events', kind: 'Event', namespaced: true, shortNames: ['ev'], fieldSelectors: eventsV1FieldSelectors }, true, {
    setsGeneration: false,
  }),
]);

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

  constructor(initial: ReadonlyArray<ResourceType> = builtInResourceTypes) {
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
