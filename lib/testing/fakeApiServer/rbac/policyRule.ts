// Whether one PolicyRule allows a request, with kube's wildcards (KK pkg/apis/rbac/v1
// evaluation_helpers.go, plugin/pkg/auth/authorizer/rbac/rbac.go RuleAllows): `*` verbs, groups
// and resources; `*` among resources also covers every subresource; `*/scale` is that subresource of
// any resource; `pods` does not cover `pods/log`; `pods/*` is no wildcard; an empty resourceNames is
// every name (a non-empty one never matches a request without a name: create, an unnamed list);
// nonResourceURLs exact, `*`, or a prefix ending in `*`.
import type { AuthorizationAttributes } from './attributes.js';
import { listOf, type PolicyRule } from './rbacObjects.js';

const ALL = '*';

/**
 * Whether the rule's verbs include the verb (or `*`).
 *
 * @example
 * ```ts
 * verbMatches({ verbs: ['get', 'list'] }, 'list'); // true
 * ```
 */
export const verbMatches = (rule: PolicyRule, verb: string): boolean => listOf(rule.verbs).some((v) => v === ALL || v === verb);

/**
 * Whether the rule's apiGroups include the group (`''` is the core group) or `*`.
 *
 * @example
 * ```ts
 * apiGroupMatches({ apiGroups: [''] }, 'apps'); // false
 * ```
 */
export const apiGroupMatches = (rule: PolicyRule, group: string): boolean => listOf(rule.apiGroups).some((g) => g === ALL || g === group);

/**
 * Whether the rule's resources cover `resource[/subresource]`.
 *
 * @example
 * ```ts
 * resourceMatches({ resources: ['*\/scale'] }, 'deployments', 'scale'); // true
 * resourceMatches({ resources: ['pods'] }, 'pods', 'log'); // false
 * ```
 */
export function resourceMatches(rule: PolicyRule, resource: string, subresource: string): boolean {
  const combined = subresource ? `${resource}/${subresource}` : resource;
  return listOf(rule.resources).some((r) => r === ALL || r === combined || (subresource !== '' && r === `*/${subresource}`));
}

/**
 * Whether the rule's resourceNames allow the name (an empty list allows every name).
 *
 * @example
 * ```ts
 * resourceNameMatches({ resourceNames: ['leader'] }, ''); // false: a create names nothing
 * ```
 */
export function resourceNameMatches(rule: PolicyRule, name: string): boolean {
  const names = listOf(rule.resourceNames);
  return names.length === 0 || names.includes(name);
}

/**
 * Whether the rule's nonResourceURLs cover the path: equal, `*`, or a prefix ending in `*`.
 *
 * @example
 * ```ts
 * nonResourceURLMatches({ nonResourceURLs: ['/healthz/*'] }, '/healthz/etcd'); // true
 * ```
 */
export const nonResourceURLMatches = (rule: PolicyRule, path: string): boolean =>
  listOf(rule.nonResourceURLs).some((u) => u === ALL || u === path || (u.endsWith('*') && path.startsWith(u.replace(/\*+$/, ''))));

/**
 * Whether the rule allows the request (kube's `RuleAllows`).
 *
 * @example
 * ```ts
 * ruleAllows(attributes, { apiGroups: ['apps'], resources: ['deployments'], verbs: ['*'] });
 * ```
 */
export function ruleAllows(a: AuthorizationAttributes, rule: PolicyRule): boolean {
  if (a.kind === 'nonResource') return verbMatches(rule, a.verb) && nonResourceURLMatches(rule, a.path);
  return verbMatches(rule, a.verb) && apiGroupMatches(rule, a.group) && resourceMatches(rule, a.resource, a.subresource) && resourceNameMatches(rule, a.name);
}

/** Go's `%q` of a string list: `["a" "b"]`. */
const quotedList = (values: ReadonlyArray<string>): string => `[${values.map((v) => JSON.stringify(v)).join(' ')}]`;

/**
 * A rule as kube prints it in escalation errors (`CompactString`): only the fields set, in kube's
 * order, each list Go-quoted.
 *
 * @example
 * ```ts
 * compactString({ apiGroups: [''], resources: ['secrets'], verbs: ['get'] }); // '{APIGroups:[""], Resources:["secrets"], Verbs:["get"]}'
 * ```
 */
export function compactString(rule: PolicyRule): string {
  const parts: string[] = [];
  const add = (label: string, values: ReadonlyArray<string> | undefined) => {
    const list = listOf(values);
    if (list.length > 0) parts.push(`${label}:${quotedList(list)}`);
  };
  add('APIGroups', rule.apiGroups);
  add('Resources', rule.resources);
  add('NonResourceURLs', rule.nonResourceURLs);
  add('ResourceNames', rule.resourceNames);
  add('Verbs', rule.verbs);
  return `{${parts.join(', ')}}`;
}

/**
 * Go's `%q` of a string list, as kube's messages print groups: `["a" "b"]`.
 *
 * @example
 * ```ts
 * goQuotedList(['system:authenticated']); // '["system:authenticated"]'
 * ```
 */
export const goQuotedList = quotedList;
