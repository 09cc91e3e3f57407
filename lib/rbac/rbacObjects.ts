import type { Permission, Verb } from './permission.js';

/**
 * A rule of a Role or ClusterRole (`rbac.authorization.k8s.io/v1` `PolicyRule`), as JSON.
 *
 * @example
 * ```ts
 * const r: PolicyRule = { apiGroups: [''], resources: ['configmaps'], verbs: ['create', 'patch'] };
 * ```
 */
export interface PolicyRule {
  readonly apiGroups: ReadonlyArray<string>;
  readonly resources: ReadonlyArray<string>;
  readonly verbs: ReadonlyArray<Verb>;
  readonly resourceNames?: ReadonlyArray<string>;
}

/**
 * An RBAC object (ServiceAccount, ClusterRole, ClusterRoleBinding, Role, RoleBinding) as JSON.
 *
 * @example
 * ```ts
 * const o: RbacObject = { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'backup-controller', namespace: 'ops' } };
 * ```
 */
export interface RbacObject {
  readonly apiVersion: string;
  readonly kind: 'ServiceAccount' | 'ClusterRole' | 'ClusterRoleBinding' | 'Role' | 'RoleBinding';
  readonly metadata: { readonly name: string; readonly namespace?: string };
  readonly rules?: ReadonlyArray<PolicyRule>;
  readonly roleRef?: { readonly apiGroup: string; readonly kind: 'ClusterRole' | 'Role'; readonly name: string };
  readonly subjects?: ReadonlyArray<{ readonly kind: 'ServiceAccount'; readonly name: string; readonly namespace: string }>;
}

const VERB_ORDER: ReadonlyArray<Verb> = ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete', 'deletecollection'];
const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The least rules granting `permissions`: verbs merged per group, resource and names; resources
 * with the same verbs and names in one rule; sorted, so the same permissions give the same rules.
 *
 * @example
 * ```ts
 * policyRules([{ apiGroup: '', resource: 'pods', verbs: ['list'] }, { apiGroup: '', resource: 'pods', verbs: ['watch'] }]);
 * // [{ apiGroups: [''], resources: ['pods'], verbs: ['list', 'watch'] }]
 * ```
 */
export function policyRules(permissions: ReadonlyArray<Permission>): ReadonlyArray<PolicyRule> {
  const byTarget = new Map<string, { apiGroup: string; resource: string; names: ReadonlyArray<string>; verbs: Set<Verb> }>();
  for (const p of permissions) {
    const names = [...new Set(p.resourceNames ?? [])].sort(cmp);
    const key = JSON.stringify([p.apiGroup, p.resource, names]);
    const entry = byTarget.get(key) ?? { apiGroup: p.apiGroup, resource: p.resource, names, verbs: new Set<Verb>() };
    for (const v of p.verbs) entry.verbs.add(v);
    byTarget.set(key, entry);
  }
  // A named grant is covered by an unnamed one with the same verb.
  for (const e of byTarget.values()) {
    if (e.names.length === 0) continue;
    const all = byTarget.get(JSON.stringify([e.apiGroup, e.resource, []]));
    if (all) for (const v of all.verbs) e.verbs.delete(v);
  }
  const rules = new Map<string, { apiGroup: string; names: ReadonlyArray<string>; verbs: Verb[]; resources: string[] }>();
  for (const e of byTarget.values()) {
    if (e.verbs.size === 0) continue;
    const verbs = VERB_ORDER.filter((v) => e.verbs.has(v));
    const key = JSON.stringify([e.apiGroup, e.names, verbs]);
    const rule = rules.get(key) ?? { apiGroup: e.apiGroup, names: e.names, verbs, resources: [] };
    rule.resources.push(e.resource);
    rules.set(key, rule);
  }
  return [...rules.values()]
    .map((r) => ({ apiGroups: [r.apiGroup], resources: r.resources.sort(cmp), verbs: r.verbs, ...(r.names.length > 0 ? { resourceNames: r.names } : {}) }))
    .sort((a, b) => cmp(a.apiGroups[0], b.apiGroups[0]) || cmp(a.resources[0], b.resources[0]) || cmp(JSON.stringify(a), JSON.stringify(b)));
}

/**
 * Options of {@link rbacObjects}.
 *
 * @example
 * ```ts
 * const o: RbacOptions = { name: 'backup-controller', serviceAccount: { namespace: 'backup-system', name: 'backup-controller' } };
 * ```
 */
export interface RbacOptions {
  /** The name of the roles and bindings. */
  readonly name: string;
  /** Who is granted them; the ServiceAccount itself is written too. */
  readonly serviceAccount: { readonly namespace: string; readonly name: string };
}

/**
 * The least RBAC that grants `permissions` to a ServiceAccount: the ServiceAccount, a ClusterRole
 * and ClusterRoleBinding for what is needed everywhere, and a Role and RoleBinding per namespace
 * for what is needed in one (a leader election Lease, a factory limited to a namespace). Objects
 * in a fixed order, for YAML that diffs cleanly.
 *
 * @example
 * ```ts
 * const objects = rbacObjects(permissionsOf(ctl, recorder), { name: 'backup-controller', serviceAccount: { namespace: 'ops', name: 'backup-controller' } });
 * ```
 */
export function rbacObjects(permissions: ReadonlyArray<Permission>, options: RbacOptions): ReadonlyArray<RbacObject> {
  const sa = options.serviceAccount;
  const subjects = [{ kind: 'ServiceAccount' as const, name: sa.name, namespace: sa.namespace }];
  const roleRef = (kind: 'ClusterRole' | 'Role') => ({ apiGroup: 'rbac.authorization.k8s.io', kind, name: options.name });
  const out: RbacObject[] = [{ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: sa.name, namespace: sa.namespace } }];
  const cluster = policyRules(permissions.filter((p) => p.namespace === undefined));
  if (cluster.length > 0) {
    out.push({ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: options.name }, rules: cluster });
    out.push({ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRoleBinding', metadata: { name: options.name }, roleRef: roleRef('ClusterRole'), subjects });
  }
  // What the cluster role already grants everywhere is not granted again in a namespace.
  const everywhere = (p: Permission, v: Verb) =>
    permissions.some((c) => c.namespace === undefined && !c.resourceNames?.length && c.apiGroup === p.apiGroup && c.resource === p.resource && c.verbs.includes(v));
  const local = permissions
    .filter((p) => p.namespace !== undefined)
    .map((p) => ({ ...p, verbs: p.verbs.filter((v) => !everywhere(p, v)) }))
    .filter((p) => p.verbs.length > 0);
  const namespaces = [...new Set(local.map((p) => p.namespace).filter((n): n is string => n !== undefined))].sort(cmp);
  for (const namespace of namespaces) {
    const rules = policyRules(local.filter((p) => p.namespace === namespace));
    out.push({ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name: options.name, namespace }, rules });
    out.push({ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding', metadata: { name: options.name, namespace }, roleRef: roleRef('Role'), subjects });
  }
  return out;
}
