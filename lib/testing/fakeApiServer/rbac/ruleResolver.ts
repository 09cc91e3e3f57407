// Which rules apply to a user in a namespace (KK pkg/registry/rbac/validation/rule.go
// DefaultRuleResolver): every ClusterRoleBinding naming the user, then, in a namespace, every
// RoleBinding there; each binding's role's rules, in order. A binding to a missing role is an
// error, kept and reported beside the rules that did resolve (rules only add, so a request that
// other rules allow is still allowed).
import { listOf, type PolicyRule, type RbacBinding, type RbacObjects, type RoleRef, type Subject } from './rbacObjects.js';
import type { UserInfo } from './userInfo.js';
import { serviceAccountUsername } from './userInfo.js';

/**
 * The binding (and its subject that named the user) a rule came from.
 *
 * @example
 * ```ts
 * const s: RuleSource = { binding, subject: binding.subjects![0], clusterWide: true };
 * describeSource(s); // 'ClusterRoleBinding "cluster-admin" of ClusterRole "cluster-admin" to Group "system:masters"'
 * ```
 */
export interface RuleSource {
  readonly binding: RbacBinding;
  readonly subject: Subject;
  /** A ClusterRoleBinding (true) or a RoleBinding. */
  readonly clusterWide: boolean;
}

/**
 * One step of {@link visitRulesFor}: a rule and where it came from, or a resolution error.
 *
 * @example
 * ```ts
 * for (const v of visitRulesFor(objects, user, 'shop')) if (v.kind === 'error') console.log(v.error);
 * ```
 */
export type RuleVisit =
  | { readonly kind: 'rule'; readonly source: RuleSource; readonly rule: PolicyRule }
  | { readonly kind: 'error'; readonly error: string };

/**
 * Whether a binding subject names the user: a User by name, a Group by membership, a
 * ServiceAccount by its user name (a namespace-less one is in `namespace`, the binding's).
 *
 * @example
 * ```ts
 * appliesToUser({ name: 'system:serviceaccount:shop:app', groups: [] }, { kind: 'ServiceAccount', name: 'app' }, 'shop'); // true
 * ```
 */
export function appliesToUser(user: UserInfo, subject: Subject, namespace: string): boolean {
  switch (subject.kind) {
    case 'User':
      return user.name === subject.name;
    case 'Group':
      return user.groups.includes(subject.name);
    case 'ServiceAccount': {
      const saNamespace = subject.namespace || namespace;
      return saNamespace !== '' && user.name === serviceAccountUsername(saNamespace, subject.name);
    }
    default:
      return false;
  }
}

const appliesTo = (user: UserInfo, binding: RbacBinding, namespace: string): Subject | undefined =>
  listOf(binding.subjects).find((s) => appliesToUser(user, s, namespace));

/**
 * The rules of a binding's role (kube's `GetRoleReferenceRules`): a Role in the binding's
 * namespace, or a ClusterRole; a missing one is the lister's NotFound text.
 *
 * @example
 * ```ts
 * roleReferenceRules(objects, { kind: 'ClusterRole', name: 'gone' }, ''); // { error: 'clusterrole.rbac.authorization.k8s.io "gone" not found' }
 * ```
 */
export function roleReferenceRules(objects: RbacObjects, ref: RoleRef | undefined, bindingNamespace: string): { readonly rules: ReadonlyArray<PolicyRule> } | { readonly error: string } {
  switch (ref?.kind) {
    case 'Role': {
      const role = bindingNamespace ? objects.getRole(bindingNamespace, ref.name) : undefined;
      return role ? { rules: listOf(role.rules) } : { error: `role.rbac.authorization.k8s.io ${JSON.stringify(ref.name)} not found` };
    }
    case 'ClusterRole': {
      const role = objects.getClusterRole(ref.name);
      return role ? { rules: listOf(role.rules) } : { error: `clusterrole.rbac.authorization.k8s.io ${JSON.stringify(ref.name)} not found` };
    }
    default:
      return { error: `unsupported role reference kind: ${JSON.stringify(ref?.kind ?? '')}` };
  }
}

function* bindingRules(objects: RbacObjects, user: UserInfo, bindings: Iterable<RbacBinding>, namespace: string, clusterWide: boolean): Generator<RuleVisit> {
  for (const binding of bindings) {
    const subject = appliesTo(user, binding, namespace);
    if (!subject) continue;
    const resolved = roleReferenceRules(objects, binding.roleRef, namespace);
    if ('error' in resolved) {
      yield { kind: 'error', error: resolved.error };
      continue;
    }
    const source: RuleSource = { binding, subject, clusterWide };
    for (const rule of resolved.rules) yield { kind: 'rule', source, rule };
  }
}

/**
 * Every rule that applies to `user` in `namespace` ('' = cluster scope), in kube's order
 * (ClusterRoleBindings first), with the resolution errors met on the way. Lazy: the authorizer
 * stops at the first rule that allows.
 *
 * @example
 * ```ts
 * const allowed = [...visitRulesFor(objects, user, 'shop')].some((v) => v.kind === 'rule' && ruleAllows(a, v.rule));
 * ```
 */
export function* visitRulesFor(objects: RbacObjects, user: UserInfo, namespace: string): Generator<RuleVisit> {
  yield* bindingRules(objects, user, objects.listClusterRoleBindings(), '', true);
  if (namespace) yield* bindingRules(objects, user, objects.listRoleBindings(namespace), namespace, false);
}

/**
 * Every rule that applies to `user` in `namespace`, and the resolution errors.
 *
 * @example
 * ```ts
 * const { rules, errors } = rulesFor(objects, user, 'shop');
 * ```
 */
export function rulesFor(objects: RbacObjects, user: UserInfo, namespace: string): { readonly rules: PolicyRule[]; readonly errors: string[] } {
  const rules: PolicyRule[] = [];
  const errors: string[] = [];
  for (const v of visitRulesFor(objects, user, namespace)) {
    if (v.kind === 'rule') rules.push(v.rule);
    else errors.push(v.error);
  }
  return { rules, errors };
}

function describeSubject(s: Subject, bindingNamespace: string): string {
  if (s.kind === 'ServiceAccount') return `${s.kind} ${JSON.stringify(`${s.name}/${s.namespace || bindingNamespace}`)}`;
  return `${s.kind} ${JSON.stringify(s.name)}`;
}

/**
 * Where a rule came from, as kube's allow reason says it: `ClusterRoleBinding "x" of ClusterRole
 * "y" to Group "z"`, `RoleBinding "x/ns" of Role "y" to ServiceAccount "app/ns"`.
 *
 * @example
 * ```ts
 * `RBAC: allowed by ${describeSource(source)}`;
 * ```
 */
export function describeSource({ binding, subject, clusterWide }: RuleSource): string {
  const name = binding.metadata?.name ?? '';
  const namespace = binding.metadata?.namespace ?? '';
  const ref = `${binding.roleRef?.kind ?? ''} ${JSON.stringify(binding.roleRef?.name ?? '')}`;
  return clusterWide
    ? `ClusterRoleBinding ${JSON.stringify(name)} of ${ref} to ${describeSubject(subject, '')}`
    : `RoleBinding ${JSON.stringify(`${name}/${namespace}`)} of ${ref} to ${describeSubject(subject, namespace)}`;
}
