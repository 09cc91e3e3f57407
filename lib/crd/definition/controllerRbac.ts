import { KubeConfig } from '@kubernetes/client-node';
import { permissionsOf, type Permission } from '../../rbac/permission.js';
import { rbacObjects, type RbacObject, type RbacOptions } from '../../rbac/rbacObjects.js';

/** Marks what {@link controllerRbac} made, for the `rxkube-crd` bin to find among a module's exports. */
const rbacBrand: unique symbol = Symbol.for('rxkube.rbac');

/**
 * The RBAC of a component, built from what it declares: `objects()` constructs it (never starts
 * it) with a kubeconfig that points nowhere, reads `permissionsOf` it, and gives the least
 * ServiceAccount, ClusterRole/Role and bindings. The `rxkube-crd` bin writes each one a module
 * exports as `<name>.rbac.yaml`.
 *
 * @example
 * ```ts
 * const rbac: RbacDeclaration = controllerRbac({ name: 'backup-controller', serviceAccount: { namespace: 'ops', name: 'backup-controller' }, build: (kc) => makeController(kc) });
 * rbac.objects();
 * ```
 */
export interface RbacDeclaration {
  readonly name: string;
  /** The permissions, merged from the component's declarations and `extra`. */
  permissions(): ReadonlyArray<Permission>;
  /** ServiceAccount, ClusterRole and ClusterRoleBinding, Roles and RoleBindings, in a fixed order. */
  objects(): ReadonlyArray<RbacObject>;
}

/** A kubeconfig for construction only: a loopback server nothing will connect to (nothing is started). */
function offlineKubeConfig(): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromOptions({
    clusters: [{ name: 'rbac-generation', server: 'https://127.0.0.1:1', skipTLSVerify: false }],
    users: [{ name: 'rbac-generation' }],
    contexts: [{ name: 'rbac-generation', cluster: 'rbac-generation', user: 'rbac-generation' }],
    currentContext: 'rbac-generation',
  });
  return kc;
}

/**
 * Declares the RBAC of a controller (or any component built from a kubeconfig): `build` makes it
 * as your code does; what its factory, informers, controller, recorders and lease locks declared
 * at construction (see `permissionsOf`), plus `extra`, is what the role grants.
 *
 * @example
 * ```ts
 * export const backupRbac = controllerRbac({
 *   name: 'backup-controller',
 *   serviceAccount: { namespace: 'backup-system', name: 'backup-controller' },
 *   build: (kubeConfig) => backupController(kubeConfig, { deleteAll: async () => {} }),
 * });
 * ```
 */
export function controllerRbac(options: RbacOptions & { readonly build: (kubeConfig: KubeConfig) => unknown; readonly extra?: ReadonlyArray<Permission> }): RbacDeclaration {
  let cached: ReadonlyArray<Permission> | undefined;
  const permissions = () => (cached ??= permissionsOf(options.build(offlineKubeConfig()), options.extra ?? []));
  return Object.freeze({
    name: options.name,
    permissions,
    objects: () => rbacObjects(permissions(), options),
    [rbacBrand]: true,
  });
}

/**
 * Whether `value` was made by {@link controllerRbac}.
 *
 * @example
 * ```ts
 * Object.values(await import('./rbac.js')).filter(isRbacDeclaration);
 * ```
 */
export function isRbacDeclaration(value: unknown): value is RbacDeclaration {
  return typeof value === 'object' && value !== null && (value as { [rbacBrand]?: unknown })[rbacBrand] === true;
}
