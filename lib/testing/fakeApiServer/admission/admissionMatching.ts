import { labelSelectorFromObject, type LabelSelectorObject } from '../../../labels/labelSelector.js';
import type { JsonObject } from '../resources.js';
import { failure, StatusError } from '../status.js';
import type { AdmissionAttributes, GroupVersionKind, GroupVersionResource } from './attributes.js';

// Which writes an admission webhook or policy is called for (AS predicates/rules, namespace,
// object; ADMISSION.md §3 "Matching, in order"): rules by group, version, resource, subresource,
// operation and scope, matchPolicy Equivalent, then the namespace and object selectors. Pure but
// for the namespace lookup it is given.

/**
 * One rule of a webhook (`RuleWithOperations`) or a policy's `NamedRuleWithOperations`.
 *
 * @example
 * ```ts
 * const rule: AdmissionRule = { apiGroups: ['apps'], apiVersions: ['v1'], operations: ['CREATE'], resources: ['deployments'] };
 * ```
 */
export interface AdmissionRule {
  readonly apiGroups?: ReadonlyArray<string>;
  readonly apiVersions?: ReadonlyArray<string>;
  readonly operations?: ReadonlyArray<string>;
  readonly resources?: ReadonlyArray<string>;
  readonly scope?: string;
  readonly resourceNames?: ReadonlyArray<string>;
}

/**
 * What a matched webhook or policy is called with: the kind and resource of the version its rule
 * names (the request's, or an equivalent one under matchPolicy Equivalent).
 *
 * @example
 * ```ts
 * const m: RuleMatch = { kind: { group: 'apps', version: 'v1', kind: 'Deployment' }, resource: { group: 'apps', version: 'v1', resource: 'deployments' } };
 * ```
 */
export interface RuleMatch {
  readonly kind: GroupVersionKind;
  readonly resource: GroupVersionResource;
}

/**
 * The kind served at `group/version/resource`, if the server serves it (for matchPolicy Equivalent).
 *
 * @example
 * ```ts
 * const served: ServedKind = (g, v, r) => (g === 'apps' && v === 'v1' && r === 'deployments' ? 'Deployment' : undefined);
 * ```
 */
export type ServedKind = (group: string, version: string, resource: string) => string | undefined;

const has = (list: ReadonlyArray<string> | undefined, v: string): boolean => (list ?? []).some((x) => x === '*' || x === v);

function resourceMatches(patterns: ReadonlyArray<string> | undefined, resource: string, sub: string): boolean {
  return (patterns ?? []).some((p) => {
    if (p === '*/*') return true;
    const slash = p.indexOf('/');
    if (slash < 0) return sub === '' && (p === '*' || p === resource);
    const [r, s] = [p.slice(0, slash), p.slice(slash + 1)];
    if (s === '*') return r === resource; // `pods/*`: pods and every subresource
    return sub === s && (r === '*' || r === resource);
  });
}

const isNamespaceObject = (a: AdmissionAttributes): boolean => a.resource.group === '' && a.resource.resource === 'namespaces';

function scopeMatches(scope: string | undefined, a: AdmissionAttributes): boolean {
  if (scope === undefined || scope === '*') return true;
  const clusterScoped = a.namespace === '' || isNamespaceObject(a);
  return scope === 'Cluster' ? clusterScoped : !clusterScoped;
}

function ruleMatchesAt(rule: AdmissionRule, a: AdmissionAttributes, version: string): boolean {
  if (!has(rule.operations, a.operation)) return false;
  if (!has(rule.apiGroups, a.resource.group) || !has(rule.apiVersions, version)) return false;
  if (!resourceMatches(rule.resources, a.resource.resource, a.subResource)) return false;
  if (rule.resourceNames && rule.resourceNames.length > 0 && !rule.resourceNames.includes(a.name)) return false;
  return scopeMatches(rule.scope, a);
}

/**
 * The first rule that matches the request, with the version it is called at: the request's own, or
 * (matchPolicy `Equivalent`) another served version of the same resource that a rule names.
 * Undefined when none matches.
 *
 * @example
 * ```ts
 * matchRules([{ apiGroups: ['*'], apiVersions: ['*'], operations: ['*'], resources: ['*'] }], 'Equivalent', attributes, served);
 * ```
 */
export function matchRules(rules: ReadonlyArray<AdmissionRule>, matchPolicy: string | undefined, a: AdmissionAttributes, served: ServedKind): RuleMatch | undefined {
  if (rules.some((r) => ruleMatchesAt(r, a, a.resource.version))) return { kind: a.kind, resource: a.resource };
  if (matchPolicy === 'Exact') return undefined;
  for (const rule of rules) {
    for (const version of rule.apiVersions ?? []) {
      if (version === '*' || version === a.resource.version) continue;
      const kind = served(a.resource.group, version, a.resource.resource);
      if (kind !== undefined && ruleMatchesAt(rule, a, version)) {
        return { kind: { group: a.kind.group, version, kind }, resource: { ...a.resource, version } };
      }
    }
  }
  return undefined;
}

const labelsOf = (obj: JsonObject | null | undefined): { [k: string]: string } | undefined =>
  ((obj?.metadata as { labels?: { [k: string]: string } } | undefined)?.labels ?? undefined);

const isEmptySelector = (s: LabelSelectorObject | undefined): boolean =>
  s === undefined || (Object.keys(s.matchLabels ?? {}).length === 0 && (s.matchExpressions ?? []).length === 0);

/**
 * Whether the namespace selector matches: cluster-scoped objects other than Namespaces always
 * match; a Namespace matches on its own labels (the stored ones on DELETE); anything else on its
 * namespace's labels. A namespace that does not exist is kube's 404 (a non-empty selector only).
 *
 * @example
 * ```ts
 * namespaceSelectorMatches({ matchLabels: { team: 'a' } }, attributes, (ns) => namespaces.get(ns));
 * ```
 */
export function namespaceSelectorMatches(selector: LabelSelectorObject | undefined, a: AdmissionAttributes, namespaceOf: (name: string) => JsonObject | undefined): boolean {
  if (isEmptySelector(selector)) return true;
  const sel = labelSelectorFromObject(selector!);
  if (isNamespaceObject(a)) return sel.matches(labelsOf(a.operation === 'DELETE' ? a.oldObject : a.object));
  if (a.namespace === '') return true;
  const ns = namespaceOf(a.namespace);
  if (!ns) throw new StatusError(failure(404, 'NotFound', `namespaces "${a.namespace}" not found`, { name: a.namespace, kind: 'namespaces' }));
  return sel.matches(labelsOf(ns));
}

/**
 * Whether the object selector matches the new or the old object (an absent object, or one without
 * labels, matches only the empty selector).
 *
 * @example
 * ```ts
 * objectSelectorMatches({ matchLabels: { app: 'web' } }, attributes); // true for a pod labelled app=web
 * ```
 */
export function objectSelectorMatches(selector: LabelSelectorObject | undefined, a: AdmissionAttributes): boolean {
  if (isEmptySelector(selector)) return true;
  const sel = labelSelectorFromObject(selector!);
  return [a.object, a.oldObject].some((o) => labelsOf(o) !== undefined && sel.matches(labelsOf(o)));
}

const EXEMPT = new Set([
  'validatingwebhookconfigurations',
  'mutatingwebhookconfigurations',
  'validatingadmissionpolicies',
  'validatingadmissionpolicybindings',
  'mutatingadmissionpolicies',
  'mutatingadmissionpolicybindings',
]);

/**
 * Writes API-defined webhooks and policies never see: webhook configurations, policies and their
 * bindings (AS `IsExemptAdmissionConfigurationResource`), so no configuration can lock itself in.
 *
 * @example
 * ```ts
 * isExemptFromAdmission(attributes); // true for a ValidatingWebhookConfiguration write
 * ```
 */
export const isExemptFromAdmission = (a: AdmissionAttributes): boolean => a.resource.group === 'admissionregistration.k8s.io' && EXEMPT.has(a.resource.resource);

/**
 * `<resource>[.<group>]`, as kube names a resource in its errors.
 *
 * @example
 * ```ts
 * qualifiedResourceOf(attributes); // 'deployments.apps'
 * ```
 */
export const qualifiedResourceOf = (a: AdmissionAttributes): string => (a.resource.group ? `${a.resource.resource}.${a.resource.group}` : a.resource.resource);
