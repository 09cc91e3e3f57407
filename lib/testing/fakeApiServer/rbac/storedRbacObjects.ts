// RbacObjects over the server's storage: each stored revision is parsed once (a revision never
// changes), so authorizing a request costs a walk over the bindings, not a JSON parse of each.
import type { RbacBinding, RbacObjects, RbacRole } from './rbacObjects.js';

/**
 * The four RBAC resources, by their type ids.
 *
 * @example
 * ```ts
 * const r: RbacResource = 'clusterrolebindings.rbac.authorization.k8s.io';
 * ```
 */
export type RbacResource =
  | 'roles.rbac.authorization.k8s.io'
  | 'rolebindings.rbac.authorization.k8s.io'
  | 'clusterroles.rbac.authorization.k8s.io'
  | 'clusterrolebindings.rbac.authorization.k8s.io';

/**
 * How the RBAC objects are read from storage: stored revisions (any object, used as a cache key)
 * and how to parse one.
 *
 * @example
 * ```ts
 * const reader: StoredObjectReader<StoredObject> = { get: (r, ns, n) => storage.get(types.resolve(r), ns ? `${ns}/${n}` : n), list: ..., parse: parseStored };
 * ```
 */
export interface StoredObjectReader<S extends object> {
  get(resource: RbacResource, namespace: string, name: string): S | undefined;
  list(resource: RbacResource, namespace?: string): Iterable<S>;
  parse(stored: S): object;
}

/**
 * {@link RbacObjects} over stored revisions, each parsed once.
 *
 * @example
 * ```ts
 * const objects = storedRbacObjects(reader);
 * rbacAuthorizer(objects)(attributes);
 * ```
 */
export function storedRbacObjects<S extends object>(reader: StoredObjectReader<S>): RbacObjects {
  const parsed = new WeakMap<S, object>();
  const parse = (s: S): object => {
    let o = parsed.get(s);
    if (!o) parsed.set(s, (o = reader.parse(s)));
    return o;
  };
  function* all(resource: RbacResource, namespace?: string): Generator<object> {
    for (const s of reader.list(resource, namespace)) yield parse(s);
  }
  const one = (resource: RbacResource, namespace: string, name: string): object | undefined => {
    const s = reader.get(resource, namespace, name);
    return s ? parse(s) : undefined;
  };
  return {
    getRole: (namespace, name) => one('roles.rbac.authorization.k8s.io', namespace, name) as RbacRole | undefined,
    listRoleBindings: (namespace) => all('rolebindings.rbac.authorization.k8s.io', namespace) as Iterable<RbacBinding>,
    getClusterRole: (name) => one('clusterroles.rbac.authorization.k8s.io', '', name) as RbacRole | undefined,
    listClusterRoleBindings: () => all('clusterrolebindings.rbac.authorization.k8s.io') as Iterable<RbacBinding>,
    listClusterRoles: () => all('clusterroles.rbac.authorization.k8s.io') as Iterable<RbacRole>,
  };
}
