// The four RBAC kinds (rbac.authorization.k8s.io/v1) as the server stores them, and how the
// authorizer reads them: kube's RBAC authorizer reads through listers (get a role, list bindings),
// so does this one, over whatever holds the objects (the fake server's storage, or plain arrays).

/**
 * One rule of a Role or ClusterRole. Values the authorizer does not know (a verb nobody sends, a
 * resource that does not exist) are kept as written and simply never match.
 *
 * @example
 * ```ts
 * const readPods: PolicyRule = { apiGroups: [''], resources: ['pods', 'pods/log'], verbs: ['get', 'list', 'watch'] };
 * const metrics: PolicyRule = { nonResourceURLs: ['/metrics'], verbs: ['get'] };
 * ```
 */
export interface PolicyRule {
  readonly verbs?: ReadonlyArray<string>;
  readonly apiGroups?: ReadonlyArray<string>;
  readonly resources?: ReadonlyArray<string>;
  readonly resourceNames?: ReadonlyArray<string>;
  readonly nonResourceURLs?: ReadonlyArray<string>;
}

/**
 * Who a binding grants its role to: `User`, `Group` or `ServiceAccount` (a namespace-less
 * ServiceAccount of a RoleBinding is in the binding's namespace).
 *
 * @example
 * ```ts
 * const sa: Subject = { kind: 'ServiceAccount', name: 'ready-pods', namespace: 'shop' };
 * const devs: Subject = { kind: 'Group', name: 'devs', apiGroup: 'rbac.authorization.k8s.io' };
 * ```
 */
export interface Subject {
  readonly kind: string;
  readonly name: string;
  readonly namespace?: string;
  readonly apiGroup?: string;
}

/**
 * The role a binding refers to.
 *
 * @example
 * ```ts
 * const ref: RoleRef = { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' };
 * ```
 */
export interface RoleRef {
  readonly apiGroup?: string;
  readonly kind: string;
  readonly name: string;
}

/**
 * The metadata the authorizer reads.
 *
 * @example
 * ```ts
 * const meta: RbacMeta = { name: 'edit', labels: { 'rbac.authorization.k8s.io/aggregate-to-admin': 'true' } };
 * ```
 */
export interface RbacMeta {
  readonly name?: string;
  readonly namespace?: string;
  readonly labels?: { readonly [key: string]: string };
}

/**
 * A label selector of an aggregation rule (`metav1.LabelSelector`).
 *
 * @example
 * ```ts
 * const s: ClusterRoleSelector = { matchLabels: { 'rbac.authorization.k8s.io/aggregate-to-view': 'true' } };
 * ```
 */
export interface ClusterRoleSelector {
  readonly matchLabels?: { readonly [key: string]: string };
  readonly matchExpressions?: ReadonlyArray<{ readonly key: string; readonly operator: string; readonly values?: ReadonlyArray<string> }>;
}

/**
 * A Role (namespaced) or ClusterRole. A ClusterRole with an `aggregationRule` has the rules of the
 * ClusterRoles its selectors match, written by the aggregation controller.
 *
 * @example
 * ```ts
 * const role: RbacRole = { metadata: { name: 'pod-reader', namespace: 'shop' }, rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }] };
 * ```
 */
export interface RbacRole {
  readonly metadata?: RbacMeta;
  readonly rules?: ReadonlyArray<PolicyRule> | null;
  readonly aggregationRule?: { readonly clusterRoleSelectors?: ReadonlyArray<ClusterRoleSelector> } | null;
}

/**
 * A RoleBinding (namespaced) or ClusterRoleBinding.
 *
 * @example
 * ```ts
 * const b: RbacBinding = {
 *   metadata: { name: 'read-pods', namespace: 'shop' },
 *   roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'pod-reader' },
 *   subjects: [{ kind: 'User', name: 'alice' }],
 * };
 * ```
 */
export interface RbacBinding {
  readonly metadata?: RbacMeta;
  readonly roleRef?: RoleRef;
  readonly subjects?: ReadonlyArray<Subject> | null;
}

/**
 * Read access to the RBAC objects, as kube's rule resolver has it (listers). A missing role is
 * `undefined`.
 *
 * @example
 * ```ts
 * const objects: RbacObjects = staticRbacObjects({ clusterRoles: [admin], clusterRoleBindings: [adminBinding] });
 * objects.getClusterRole('cluster-admin');
 * ```
 */
export interface RbacObjects {
  getRole(namespace: string, name: string): RbacRole | undefined;
  listRoleBindings(namespace: string): Iterable<RbacBinding>;
  getClusterRole(name: string): RbacRole | undefined;
  listClusterRoleBindings(): Iterable<RbacBinding>;
  /** Every ClusterRole (the aggregation controller reads them all). */
  listClusterRoles(): Iterable<RbacRole>;
}

/**
 * The four kinds as arrays.
 *
 * @example
 * ```ts
 * const set: RbacObjectSet = { roles: [], roleBindings: [], clusterRoles: [], clusterRoleBindings: [] };
 * ```
 */
export interface RbacObjectSet {
  readonly roles?: ReadonlyArray<RbacRole>;
  readonly roleBindings?: ReadonlyArray<RbacBinding>;
  readonly clusterRoles?: ReadonlyArray<RbacRole>;
  readonly clusterRoleBindings?: ReadonlyArray<RbacBinding>;
}

/**
 * {@link RbacObjects} over arrays (tests, and the bootstrap policy before the server starts).
 *
 * @example
 * ```ts
 * const objects = staticRbacObjects({ clusterRoles: bootstrapClusterRoles, clusterRoleBindings: bootstrapClusterRoleBindings });
 * ```
 */
export function staticRbacObjects(set: RbacObjectSet): RbacObjects {
  const { roles = [], roleBindings = [], clusterRoles = [], clusterRoleBindings = [] } = set;
  return {
    getRole: (namespace, name) => roles.find((r) => r.metadata?.namespace === namespace && r.metadata?.name === name),
    listRoleBindings: (namespace) => roleBindings.filter((b) => b.metadata?.namespace === namespace),
    getClusterRole: (name) => clusterRoles.find((r) => r.metadata?.name === name),
    listClusterRoleBindings: () => clusterRoleBindings,
    listClusterRoles: () => clusterRoles,
  };
}

/**
 * A stored field that should be a list, as a list (anything else reads as empty: stored objects are
 * only as well-formed as validation made them).
 *
 * @example
 * ```ts
 * listOf(role.rules); // [] for a role without rules
 * ```
 */
export const listOf = <T>(value: ReadonlyArray<T> | null | undefined): ReadonlyArray<T> => (Array.isArray(value) ? value : []);
