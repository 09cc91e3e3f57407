// What KCM's clusterrole-aggregation controller writes (KK pkg/controller/clusterroleaggregation):
// a ClusterRole with an `aggregationRule` gets the rules of every other ClusterRole its selectors
// match, selector by selector, each selector's roles by name, without duplicates; it is rewritten
// only when that list differs from its rules. A role whose selector does not parse keeps its rules
// (the controller's sync fails and is retried). Aggregated roles that aggregate others (admin <-
// edit <- view) settle over several passes, as the controller's re-queues do.
import { labelSelectorFromObject, type LabelSelector } from '../../../labels/labelSelector.js';
import { listOf, type PolicyRule, type RbacRole } from './rbacObjects.js';

/**
 * A ClusterRole's new rules.
 *
 * @example
 * ```ts
 * const u: AggregationUpdate = { name: 'view', rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }] };
 * ```
 */
export interface AggregationUpdate {
  readonly name: string;
  readonly rules: ReadonlyArray<PolicyRule>;
}

// A rule as the controller writes it and compares it (nil and empty lists are equal).
function normalRule(r: PolicyRule): PolicyRule {
  const out: { -readonly [K in keyof PolicyRule]: PolicyRule[K] } = { verbs: [...listOf(r.verbs)] };
  if (listOf(r.apiGroups).length) out.apiGroups = [...listOf(r.apiGroups)];
  if (listOf(r.resources).length) out.resources = [...listOf(r.resources)];
  if (listOf(r.resourceNames).length) out.resourceNames = [...listOf(r.resourceNames)];
  if (listOf(r.nonResourceURLs).length) out.nonResourceURLs = [...listOf(r.nonResourceURLs)];
  return out;
}

const sameRules = (a: ReadonlyArray<PolicyRule>, b: ReadonlyArray<PolicyRule>): boolean =>
  JSON.stringify(a.map(normalRule)) === JSON.stringify(b.map(normalRule));

function selectors(role: RbacRole): LabelSelector[] | undefined {
  try {
    return listOf(role.aggregationRule?.clusterRoleSelectors).map((s) => labelSelectorFromObject(s ?? {}));
  } catch {
    return undefined;
  }
}

/**
 * The rules an aggregated ClusterRole should have now, or undefined for a role without an
 * aggregation rule or with a selector that does not parse.
 *
 * @example
 * ```ts
 * aggregatedRules(view, allClusterRoles); // the rules of every role labelled aggregate-to-view
 * ```
 */
export function aggregatedRules(role: RbacRole, clusterRoles: ReadonlyArray<RbacRole>): PolicyRule[] | undefined {
  if (!role.aggregationRule) return undefined;
  const sels = selectors(role);
  if (!sels) return undefined;
  const byName = [...clusterRoles].sort((a, b) => ((a.metadata?.name ?? '') < (b.metadata?.name ?? '') ? -1 : 1));
  const rules: PolicyRule[] = [];
  const seen = new Set<string>();
  for (const sel of sels) {
    for (const other of byName) {
      if (other.metadata?.name === role.metadata?.name || !sel.matches(other.metadata?.labels)) continue;
      for (const rule of listOf(other.rules)) {
        const r = normalRule(rule);
        const key = JSON.stringify(r);
        if (seen.has(key)) continue;
        seen.add(key);
        rules.push(r);
      }
    }
  }
  return rules;
}

/**
 * One pass of the controller: the aggregated ClusterRoles whose rules differ from what their
 * selectors gather now.
 *
 * @example
 * ```ts
 * for (const u of clusterRoleAggregation(allClusterRoles)) applyRules(u.name, u.rules);
 * ```
 */
export function clusterRoleAggregation(clusterRoles: ReadonlyArray<RbacRole>): AggregationUpdate[] {
  const updates: AggregationUpdate[] = [];
  for (const role of clusterRoles) {
    const rules = aggregatedRules(role, clusterRoles);
    if (rules && !sameRules(rules, listOf(role.rules))) updates.push({ name: role.metadata?.name ?? '', rules });
  }
  return updates;
}

/**
 * The ClusterRoles once aggregation has settled (passes until nothing changes, at most one per role
 * and one more: a chain of aggregations settles within that).
 *
 * @example
 * ```ts
 * const settled = aggregateClusterRoles(bootstrapClusterRoles); // admin, edit and view filled
 * ```
 */
export function aggregateClusterRoles<R extends RbacRole>(clusterRoles: ReadonlyArray<R>): R[] {
  let roles = [...clusterRoles];
  for (let pass = 0; pass <= roles.length; pass++) {
    const updates = new Map(clusterRoleAggregation(roles).map((u) => [u.name, u.rules]));
    if (updates.size === 0) break;
    roles = roles.map((r) => (updates.has(r.metadata?.name ?? '') ? { ...r, rules: updates.get(r.metadata?.name ?? '') } : r));
  }
  return roles;
}
