// Authorizers as kube-apiserver chains them (AS authorization/union, authorizerfactory;
// KK pkg/kubeapiserver/authorizer reload.go): `system:masters` is allowed first, whatever the mode;
// then the configured mode (AlwaysAllow, or RBAC over the stored roles and bindings). The first
// Allow or Deny decides; otherwise the request has no opinion and is forbidden, with the reasons
// of those that gave one.
import type { AuthorizationAttributes } from './attributes.js';
import { ruleAllows } from './policyRule.js';
import type { PolicyRule, RbacObjects } from './rbacObjects.js';
import { describeSource, rulesFor, visitRulesFor } from './ruleResolver.js';
import { GROUPS, type UserInfo } from './userInfo.js';

/**
 * An authorizer's answer: `Allow`, `Deny` (no later authorizer is asked) or `NoOpinion`, with the
 * reason kube gives (`RBAC: allowed by ...`; a NoOpinion's reason names the resolution errors).
 *
 * @example
 * ```ts
 * const d: AuthorizationDecision = { decision: 'Allow', reason: 'RBAC: allowed by ClusterRoleBinding "x" of ClusterRole "y" to User "alice"' };
 * ```
 */
export interface AuthorizationDecision {
  readonly decision: 'Allow' | 'Deny' | 'NoOpinion';
  readonly reason: string;
}

/**
 * Decides one request.
 *
 * @example
 * ```ts
 * const authorize: Authorizer = unionAuthorizer(privilegedGroupsAuthorizer, rbacAuthorizer(objects));
 * authorize(attributes).decision; // 'Allow'
 * ```
 */
export type Authorizer = (attributes: AuthorizationAttributes) => AuthorizationDecision;

/**
 * What a user may do in a namespace (for SelfSubjectRulesReview), as `RulesFor` answers.
 *
 * @example
 * ```ts
 * const r: UserRules = { resourceRules: [], nonResourceRules: [], incomplete: false };
 * ```
 */
export interface UserRules {
  readonly resourceRules: ReadonlyArray<PolicyRule>;
  readonly nonResourceRules: ReadonlyArray<PolicyRule>;
  readonly incomplete: boolean;
  readonly evaluationError?: string;
}

/**
 * Lists what a user may do in a namespace.
 *
 * @example
 * ```ts
 * const rules: RuleResolver = rbacRuleResolver(objects);
 * rules({ name: 'alice', groups: [] }, 'shop').resourceRules;
 * ```
 */
export type RuleResolver = (user: UserInfo, namespace: string) => UserRules;

/**
 * apimachinery's aggregate error text: one error as is, several (duplicates dropped) as `[a, b]`.
 *
 * @example
 * ```ts
 * aggregateErrors(['a', 'b']); // '[a, b]'
 * ```
 */
export function aggregateErrors(errors: ReadonlyArray<string>): string {
  const unique = [...new Set(errors)];
  if (errors.length === 1 || unique.length === 1) return unique[0] ?? '';
  return `[${unique.join(', ')}]`;
}

/**
 * `system:masters` may do anything (kube allows that group before any configured authorizer).
 *
 * @example
 * ```ts
 * privilegedGroupsAuthorizer({ kind: 'nonResource', user: { name: 'admin', groups: ['system:masters'] }, verb: 'get', path: '/x' }).decision; // 'Allow'
 * ```
 */
export const privilegedGroupsAuthorizer: Authorizer = (a) =>
  a.user.groups.includes(GROUPS.masters) ? { decision: 'Allow', reason: '' } : { decision: 'NoOpinion', reason: '' };

/**
 * The AlwaysAllow mode: every request is allowed, without a reason.
 *
 * @example
 * ```ts
 * alwaysAllowAuthorizer(attributes).decision; // 'Allow'
 * ```
 */
export const alwaysAllowAuthorizer: Authorizer = () => ({ decision: 'Allow', reason: '' });

/**
 * The AlwaysAllow mode's rules: everything.
 *
 * @example
 * ```ts
 * alwaysAllowRuleResolver(user, 'shop').resourceRules; // [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }]
 * ```
 */
export const alwaysAllowRuleResolver: RuleResolver = () => ({
  resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }],
  nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }],
  incomplete: false,
});

/**
 * The RBAC mode over the stored roles and bindings (kube's RBACAuthorizer): Allow at the first
 * rule that allows, naming its binding; otherwise NoOpinion, whose reason lists the bindings whose
 * role could not be found (`RBAC: clusterrole.rbac.authorization.k8s.io "x" not found`).
 *
 * @example
 * ```ts
 * rbacAuthorizer(objects)(attributes).reason; // 'RBAC: allowed by RoleBinding "read/shop" of Role "reader" to User "alice"'
 * ```
 */
export function rbacAuthorizer(objects: RbacObjects): Authorizer {
  return (a) => {
    const errors: string[] = [];
    for (const v of visitRulesFor(objects, a.user, a.kind === 'resource' ? a.namespace : '')) {
      if (v.kind === 'error') errors.push(v.error);
      else if (ruleAllows(a, v.rule)) return { decision: 'Allow', reason: `RBAC: allowed by ${describeSource(v.source)}` };
    }
    return { decision: 'NoOpinion', reason: errors.length > 0 ? `RBAC: ${aggregateErrors(errors)}` : '' };
  };
}

/**
 * The RBAC mode's rules for a user in a namespace: the rules with resources and those with
 * nonResourceURLs (a rule with both is in both lists), and the resolution errors.
 *
 * @example
 * ```ts
 * rbacRuleResolver(objects)(user, 'shop').evaluationError; // 'clusterrole.rbac.authorization.k8s.io "x" not found'
 * ```
 */
export function rbacRuleResolver(objects: RbacObjects): RuleResolver {
  return (user, namespace) => {
    const { rules, errors } = rulesFor(objects, user, namespace);
    return {
      resourceRules: rules.filter((r) => (r.resources?.length ?? 0) > 0).map((r) => ({ verbs: r.verbs ?? [], apiGroups: r.apiGroups, resources: r.resources, resourceNames: r.resourceNames })),
      nonResourceRules: rules.filter((r) => (r.nonResourceURLs?.length ?? 0) > 0).map((r) => ({ verbs: r.verbs ?? [], nonResourceURLs: r.nonResourceURLs })),
      incomplete: false,
      ...(errors.length > 0 ? { evaluationError: aggregateErrors(errors) } : {}),
    };
  };
}

/**
 * Authorizers asked in order: the first Allow or Deny decides; otherwise NoOpinion with every
 * non-empty reason, one per line.
 *
 * @example
 * ```ts
 * const authorize = unionAuthorizer(privilegedGroupsAuthorizer, rbacAuthorizer(objects));
 * ```
 */
export function unionAuthorizer(...authorizers: ReadonlyArray<Authorizer>): Authorizer {
  return (a) => {
    const reasons: string[] = [];
    for (const authorize of authorizers) {
      const d = authorize(a);
      if (d.decision !== 'NoOpinion') return d;
      if (d.reason) reasons.push(d.reason);
    }
    return { decision: 'NoOpinion', reason: reasons.join('\n') };
  };
}

/**
 * Rule resolvers together: their rules concatenated, incomplete if any is, their errors aggregated.
 *
 * @example
 * ```ts
 * const rules = unionRuleResolver(rbacRuleResolver(objects));
 * ```
 */
export function unionRuleResolver(...resolvers: ReadonlyArray<RuleResolver>): RuleResolver {
  return (user, namespace) => {
    const answers = resolvers.map((r) => r(user, namespace));
    const errors = answers.flatMap((a) => (a.evaluationError ? [a.evaluationError] : []));
    return {
      resourceRules: answers.flatMap((a) => a.resourceRules),
      nonResourceRules: answers.flatMap((a) => a.nonResourceRules),
      incomplete: answers.some((a) => a.incomplete),
      ...(errors.length > 0 ? { evaluationError: aggregateErrors(errors) } : {}),
    };
  };
}
