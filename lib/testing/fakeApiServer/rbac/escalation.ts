// Whether a user already holds the permissions a role or binding would grant (KK
// component-helpers auth/rbac/validation policy_comparator.go `Covers`, pkg/registry/rbac/validation
// rule.go `ConfirmNoEscalation`, policy_compact.go `CompactRules`): every rule is broken down to one
// group, resource, verb and name; each piece must be covered by one rule the user holds in that
// namespace; what is not covered is listed, compacted, in kube's words.
import { aggregateErrors } from './authorizer.js';
import { compactString, goQuotedList } from './policyRule.js';
import { listOf, type PolicyRule, type RbacObjects } from './rbacObjects.js';
import { rulesFor } from './ruleResolver.js';
import type { UserInfo } from './userInfo.js';

const ALL = '*';

/**
 * A rule as rules of one API group, resource, verb and (if any) name; non-resource URLs with one verb.
 *
 * @example
 * ```ts
 * breakdownRule({ apiGroups: [''], resources: ['pods', 'secrets'], verbs: ['get'] }).length; // 2
 * ```
 */
export function breakdownRule(rule: PolicyRule): PolicyRule[] {
  const out: PolicyRule[] = [];
  const verbs = listOf(rule.verbs);
  const names = listOf(rule.resourceNames);
  for (const group of listOf(rule.apiGroups))
    for (const resource of listOf(rule.resources))
      for (const verb of verbs) {
        if (names.length === 0) out.push({ apiGroups: [group], resources: [resource], verbs: [verb] });
        else for (const name of names) out.push({ apiGroups: [group], resources: [resource], verbs: [verb], resourceNames: [name] });
      }
  for (const url of listOf(rule.nonResourceURLs)) for (const verb of verbs) out.push({ nonResourceURLs: [url], verbs: [verb] });
  return out;
}

const hasAll = (set: ReadonlyArray<string>, wanted: ReadonlyArray<string>): boolean => wanted.every((w) => set.includes(w));

function resourcesCover(owner: ReadonlyArray<string>, wanted: ReadonlyArray<string>): boolean {
  if (owner.includes(ALL) || hasAll(owner, wanted)) return true;
  // `*/scale` covers `deployments/scale`; nothing but `*` covers a whole resource.
  return wanted.every((path) => owner.includes(path) || (path.includes('/') && owner.includes(`*/${path.slice(path.indexOf('/') + 1)}`)));
}

const urlCovers = (owner: string, path: string): boolean => owner === path || (owner.endsWith('*') && path.startsWith(owner.replace(/\*+$/, '')));

/** Whether one held rule covers a broken-down rule (kube's `ruleCovers`). */
function ruleCovers(owner: PolicyRule, sub: PolicyRule): boolean {
  const ownerVerbs = listOf(owner.verbs);
  const ownerGroups = listOf(owner.apiGroups);
  const ownerNames = listOf(owner.resourceNames);
  const subNames = listOf(sub.resourceNames);
  const verbs = ownerVerbs.includes(ALL) || hasAll(ownerVerbs, listOf(sub.verbs));
  const groups = ownerGroups.includes(ALL) || hasAll(ownerGroups, listOf(sub.apiGroups));
  const resources = resourcesCover(listOf(owner.resources), listOf(sub.resources));
  const urls = listOf(sub.nonResourceURLs).every((p) => listOf(owner.nonResourceURLs).some((o) => urlCovers(o, p)));
  const names = subNames.length === 0 ? ownerNames.length === 0 : ownerNames.length === 0 || hasAll(ownerNames, subNames);
  return verbs && groups && resources && urls && names;
}

/**
 * Whether `owner` rules cover `servant` rules, and the broken-down pieces they do not.
 *
 * @example
 * ```ts
 * covers([{ apiGroups: ['*'], resources: ['*'], verbs: ['get'] }], [{ apiGroups: [''], resources: ['secrets'], verbs: ['list'] }]).covered; // false
 * ```
 */
export function covers(owner: ReadonlyArray<PolicyRule>, servant: ReadonlyArray<PolicyRule>): { readonly covered: boolean; readonly missing: PolicyRule[] } {
  const missing = servant.flatMap(breakdownRule).filter((sub) => !owner.some((o) => ruleCovers(o, sub)));
  return { covered: missing.length === 0, missing };
}

const isSimple = (r: PolicyRule): boolean =>
  listOf(r.resourceNames).length === 0 && listOf(r.nonResourceURLs).length === 0 && listOf(r.apiGroups).length === 1 && listOf(r.resources).length === 1;

/**
 * Rules of one group and resource that differ only by verb, merged (kube's `CompactRules`).
 *
 * @example
 * ```ts
 * compactRules([{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }, { apiGroups: [''], resources: ['pods'], verbs: ['list'] }]); // one rule, verbs get and list
 * ```
 */
export function compactRules(rules: ReadonlyArray<PolicyRule>): PolicyRule[] {
  const out: PolicyRule[] = [];
  const simple = new Map<string, { apiGroups: string[]; resources: string[]; verbs: string[] }>();
  for (const r of rules) {
    if (!isSimple(r)) {
      out.push(r);
      continue;
    }
    const key = JSON.stringify([r.apiGroups![0], r.resources![0]]);
    const merged = simple.get(key);
    if (merged) merged.verbs.push(...listOf(r.verbs));
    else simple.set(key, { apiGroups: [...listOf(r.apiGroups)], resources: [...listOf(r.resources)], verbs: [...listOf(r.verbs)] });
  }
  return [...out, ...simple.values()];
}

/**
 * Undefined when `user` holds every permission of `rules` in `namespace` ('' = cluster-wide
 * bindings only); otherwise kube's message: `user "u" (groups=["g"]) is attempting to grant RBAC
 * permissions not currently held:` then each missing rule on its own line, sorted.
 *
 * @example
 * ```ts
 * confirmNoEscalation(objects, user, 'shop', role.rules ?? []); // undefined, or the reason of the 403
 * ```
 */
export function confirmNoEscalation(objects: RbacObjects, user: UserInfo, namespace: string, rules: ReadonlyArray<PolicyRule>): string | undefined {
  const held = rulesFor(objects, user, namespace);
  const { covered, missing } = covers(held.rules, rules);
  if (covered) return undefined;
  const lines = [...new Set(compactRules(missing).map(compactString))].sort();
  const message = `user ${JSON.stringify(user.name)} (groups=${goQuotedList(user.groups)}) is attempting to grant RBAC permissions not currently held:\n${lines.join('\n')}`;
  return held.errors.length > 0 ? `${message}; resolution errors: [${aggregateErrors(held.errors)}]` : message;
}
