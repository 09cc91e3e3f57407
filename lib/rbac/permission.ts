import type { Resource } from '../listwatch/resource.js';

/**
 * An RBAC verb, as kube-apiserver names the request it authorizes.
 *
 * @example
 * ```ts
 * const v: Verb = 'watch';
 * ```
 */
export type Verb = 'get' | 'list' | 'watch' | 'create' | 'update' | 'patch' | 'delete' | 'deletecollection';

/**
 * One thing a component may do: verbs on a resource (or subresource, `backups/status`) of an API
 * group, everywhere (`namespace` unset: a ClusterRole) or in one namespace (a Role), on any object
 * or only on the named ones.
 *
 * @example
 * ```ts
 * const p: Permission = { apiGroup: 'coordination.k8s.io', resource: 'leases', verbs: ['get', 'update'], namespace: 'ops', resourceNames: ['backup-controller'] };
 * ```
 */
export interface Permission {
  /** `''` for the core group. */
  readonly apiGroup: string;
  /** The plural, with `/subresource` for a subresource. */
  readonly resource: string;
  readonly verbs: ReadonlyArray<Verb>;
  /** Only in this namespace; unset: in every namespace (and for cluster-scoped resources). */
  readonly namespace?: string;
  /** Only these objects. `create` and unnamed lists never match a rule with names (kube's rule). */
  readonly resourceNames?: ReadonlyArray<string>;
}

// What each part of rxkube declared at its construction (informers by the factory, controllers,
// event recorders, leases): read by permissionsOf, never by running anything.
const declared = new WeakMap<object, ReadonlyArray<Permission>>();
const contributors = new WeakMap<object, ReadonlyArray<object>>();

/**
 * Records what `target` (an informer, a controller, a recorder...) needs, when it is built.
 * Later calls add to it.
 *
 * @example
 * ```ts
 * declarePermissions(informer, [{ apiGroup: '', resource: 'pods', verbs: ['list', 'watch'] }]);
 * ```
 */
export function declarePermissions(target: object, permissions: ReadonlyArray<Permission>): void {
  declared.set(target, [...(declared.get(target) ?? []), ...permissions]);
}

/**
 * Records that `target` uses `parts` (a controller its informers, a factory each informer it
 * made): their permissions are `target`'s, as they are when read, so parts added later count.
 *
 * @example
 * ```ts
 * declareParts(controller, [primaryInformer, ownedInformer]);
 * ```
 */
export function declareParts(target: object, parts: ReadonlyArray<object>): void {
  contributors.set(target, [...(contributors.get(target) ?? []), ...parts]);
}

const isPermission = (v: unknown): v is Permission =>
  typeof v === 'object' && v !== null && typeof (v as Permission).resource === 'string' && Array.isArray((v as Permission).verbs);

/**
 * Everything the given things declared (controllers, factories, informers, event recorders, lease
 * locks, `can.*` permissions, lists of them, and any object with a `permissions` list): what the
 * RBAC role of a component must grant. Nothing is run; what a thing cannot see (a write through
 * client-node) is added with `can`.
 *
 * @example
 * ```ts
 * const needed = permissionsOf(ctl, recorder, can.create(builtInResources.configMaps));
 * ```
 */
export function permissionsOf(...things: ReadonlyArray<unknown>): ReadonlyArray<Permission> {
  const out: Permission[] = [];
  const seen = new Set<object>();
  const visit = (t: unknown): void => {
    if (Array.isArray(t)) {
      t.forEach(visit);
      return;
    }
    if (isPermission(t)) {
      out.push(t);
      return;
    }
    if (typeof t !== 'object' || t === null || seen.has(t)) return;
    seen.add(t);
    out.push(...(declared.get(t) ?? []));
    (contributors.get(t) ?? []).forEach(visit);
    const own = (t as { permissions?: unknown }).permissions; // a component of yours that says what it needs
    if (Array.isArray(own)) own.forEach(visit);
  };
  things.forEach(visit);
  return out;
}

const groupOf = (r: Resource): string => r.group;
const scoped = (r: Resource, namespace: string | undefined): { namespace?: string } => (r.namespaced && namespace ? { namespace } : {});

/**
 * Permissions for what rxkube cannot see a component do: writes made with client-node, a
 * subresource, Events, a Lease. Each takes the resource (a `builtInResources` entry or a
 * definition from `rxkube/crd`) and, optionally, the one namespace it is limited to.
 *
 * @example
 * ```ts
 * const writes = [can.create(builtInResources.configMaps), can.patch(builtInResources.configMaps), can.writeStatus(backups), can.patchStatus(builtInResources.deployments), can.finalize(backups)];
 * ```
 */
export const can = {
  /** The given verbs on `resource`. */
  verbs(resource: Resource, verbs: ReadonlyArray<Verb>, namespace?: string): Permission {
    return { apiGroup: groupOf(resource), resource: resource.plural, verbs, ...scoped(resource, namespace) };
  },
  /** Reads as an informer makes them: list and watch. */
  read(resource: Resource, namespace?: string): Permission {
    return can.verbs(resource, ['list', 'watch'], namespace);
  },
  get(resource: Resource, namespace?: string): Permission {
    return can.verbs(resource, ['get'], namespace);
  },
  create(resource: Resource, namespace?: string): Permission {
    return can.verbs(resource, ['create'], namespace);
  },
  update(resource: Resource, namespace?: string): Permission {
    return can.verbs(resource, ['update'], namespace);
  },
  /** JSON, merge and strategic merge patches, and server-side apply to an object that exists. */
  patch(resource: Resource, namespace?: string): Permission {
    return can.verbs(resource, ['patch'], namespace);
  },
  delete(resource: Resource, namespace?: string): Permission {
    return can.verbs(resource, ['delete'], namespace);
  },
  /** Server-side apply (`apply()`): a PATCH, and a create when the object does not exist yet. */
  apply(resource: Resource, namespace?: string): Permission {
    return can.verbs(resource, ['create', 'patch'], namespace);
  },
  /**
   * Patches of `/status` only, server-side apply among them (`apply(..., { subresource: 'status' })`
   * never creates): the least grant for a controller that does not replace the whole status.
   */
  patchStatus(resource: Resource, namespace?: string): Permission {
    return { apiGroup: groupOf(resource), resource: `${resource.plural}/status`, verbs: ['patch'], ...scoped(resource, namespace) };
  },
  /** Writes of `/status` (patch and update). */
  writeStatus(resource: Resource, namespace?: string): Permission {
    return { apiGroup: groupOf(resource), resource: `${resource.plural}/status`, verbs: ['patch', 'update'], ...scoped(resource, namespace) };
  },
  /**
   * The `finalizer()` helper: it patches `metadata.finalizers`; and `update` on
   * `<plural>/finalizers`, which kube's OwnerReferencesPermissionEnforcement asks of whoever sets
   * `blockOwnerDeletion` on an object owned by one of these (as `controllerReference` does).
   */
  finalize(resource: Resource, namespace?: string): ReadonlyArray<Permission> {
    return [can.patch(resource, namespace), { apiGroup: groupOf(resource), resource: `${resource.plural}/finalizers`, verbs: ['update'], ...scoped(resource, namespace) }];
  },
  /** `eventRecorder` with `clientNodeEventSink`: events.k8s.io Events, created and patched (series). */
  recordEvents(namespace?: string): Permission {
    return { apiGroup: 'events.k8s.io', resource: 'events', verbs: ['create', 'patch'], ...(namespace ? { namespace } : {}) };
  },
  /** A leader election Lease: get and update that one by name; create (which no name can limit). */
  holdLease(namespace: string, name: string): ReadonlyArray<Permission> {
    return [
      { apiGroup: 'coordination.k8s.io', resource: 'leases', verbs: ['get', 'update'], namespace, resourceNames: [name] },
      { apiGroup: 'coordination.k8s.io', resource: 'leases', verbs: ['create'], namespace },
    ];
  },
} as const;
