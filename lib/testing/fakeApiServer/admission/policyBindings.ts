import type { LabelSelectorObject } from '../../../labels/labelSelector.js';
import type { JsonObject } from '../resources.js';
import { isExemptFromAdmission, matchRules, namespaceSelectorMatches, objectSelectorMatches, type AdmissionRule, type RuleMatch, type ServedKind } from './admissionMatching.js';
import type { AdmissionAttributes } from './attributes.js';

// Which (policy, binding, params) triples an admission policy write is evaluated for (AS
// policy/generic/policy_dispatcher.go, policy/matching; ADMISSION.md §5 "Evaluation"): the
// policy's matchConstraints, the binding's matchResources, then the params its paramRef names.

/**
 * Where params come from: the served type of a paramKind, and its objects by name or selector.
 *
 * @example
 * ```ts
 * const source: PolicySource = registration.policySource();
 * ```
 */
export interface PolicySource {
  policies(kind: 'validating' | 'mutating'): ReadonlyArray<JsonObject>;
  bindings(kind: 'validating' | 'mutating'): ReadonlyArray<JsonObject>;
  namespaceOf(name: string): JsonObject | undefined;
  readonly served: ServedKind;
  /** The paramKind's type: whether it is namespaced; undefined when not served. */
  paramType(apiVersion: string, kind: string): { readonly namespaced: boolean } | undefined;
  /** Objects of the paramKind in `namespace` (`''`: cluster-scoped), by name or by selector. */
  params(apiVersion: string, kind: string, namespace: string, ref: { readonly name?: string; readonly selector?: LabelSelectorObject }): JsonObject[];
}

/**
 * One binding of a policy that matches a write, with the params to evaluate it with (one
 * evaluation per param; `[null]` without paramKind), or the configuration error kube reports.
 *
 * @example
 * ```ts
 * for (const b of boundPolicies('validating', attributes, source)) console.log(b.policyName, b.bindingName);
 * ```
 */
export interface BoundPolicy {
  readonly policy: JsonObject;
  readonly binding: JsonObject;
  readonly policyName: string;
  readonly bindingName: string;
  readonly match: RuleMatch;
  readonly params: ReadonlyArray<unknown>;
  /** `failed to configure binding: ...` / `failed to configure policy: ...` */
  readonly configError?: string;
}

const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);
const specOf = (o: JsonObject): JsonObject => (isObject(o.spec) ? o.spec : {});
export const nameOf = (o: JsonObject): string => ((o.metadata as { name?: string } | undefined)?.name ?? '');

/** Exempt from policies: the admission objects themselves and the access reviews (KK admission exclusion list). */
const EXCLUDED_GROUPS = new Set(['authentication.k8s.io', 'authorization.k8s.io']);
const isExcluded = (a: AdmissionAttributes): boolean => isExemptFromAdmission(a) || EXCLUDED_GROUPS.has(a.resource.group);

const EVERYTHING: AdmissionRule = { apiGroups: ['*'], apiVersions: ['*'], operations: ['*'], resources: ['*/*'] };

/** kube's MatchResources: selectors, resourceRules, excludeResourceRules (exclude wins). */
function matchResources(m: JsonObject, a: AdmissionAttributes, source: PolicySource): RuleMatch | undefined {
  if (!namespaceSelectorMatches(m.namespaceSelector as LabelSelectorObject | undefined, a, (n) => source.namespaceOf(n))) return undefined;
  if (!objectSelectorMatches(m.objectSelector as LabelSelectorObject | undefined, a)) return undefined;
  const excluded = (m.excludeResourceRules as AdmissionRule[] | undefined) ?? [];
  if (excluded.length > 0 && matchRules(excluded, 'Exact', a, source.served)) return undefined;
  return matchRules((m.resourceRules as AdmissionRule[] | undefined) ?? [], m.matchPolicy as string | undefined, a, source.served);
}

function paramsOf(policy: JsonObject, binding: JsonObject, a: AdmissionAttributes, source: PolicySource): { params: unknown[]; configError?: string } | undefined {
  const paramKind = specOf(policy).paramKind;
  if (!isObject(paramKind)) return { params: [null] };
  const [apiVersion, kind] = [String(paramKind.apiVersion ?? ''), String(paramKind.kind ?? '')];
  const type = source.paramType(apiVersion, kind);
  if (!type) return { params: [], configError: `failed to configure policy: failed to find resource referenced by paramKind: '${apiVersion}, Kind=${kind}'` };
  const ref = specOf(binding).paramRef;
  if (!isObject(ref)) return { params: [], configError: 'failed to configure binding: no paramRef in binding' };
  let namespace = '';
  if (type.namespaced) {
    namespace = typeof ref.namespace === 'string' && ref.namespace !== '' ? ref.namespace : a.namespace;
    if (namespace === '' || (a.resource.group === '' && a.resource.resource === 'namespaces' && !ref.namespace)) {
      return { params: [], configError: 'failed to configure binding: cannot use namespaced paramRef in policy binding that matches cluster-scoped resources' };
    }
  }
  const found = source.params(apiVersion, kind, namespace, {
    ...(typeof ref.name === 'string' ? { name: ref.name } : {}),
    ...(isObject(ref.selector) ? { selector: ref.selector as LabelSelectorObject } : {}),
  });
  if (found.length > 0) return { params: found };
  if (ref.parameterNotFoundAction === 'Allow') return undefined;
  return { params: [], configError: 'failed to configure binding: no params found for policy binding with `Deny` parameterNotFoundAction' };
}

/**
 * The bindings whose policy and own matchResources match the write, in binding-name order, with
 * their params. Bindings of a missing policy, and bindings whose params are missing under
 * `parameterNotFoundAction: Allow`, are left out.
 *
 * @example
 * ```ts
 * const bound = boundPolicies('validating', attributes, source);
 * ```
 */
export function boundPolicies(kind: 'validating' | 'mutating', a: AdmissionAttributes, source: PolicySource): BoundPolicy[] {
  if (isExcluded(a)) return [];
  const policies = new Map(source.policies(kind).map((p) => [nameOf(p), p]));
  const out: BoundPolicy[] = [];
  for (const binding of source.bindings(kind)) {
    const policyName = String(specOf(binding).policyName ?? '');
    const policy = policies.get(policyName);
    if (!policy) continue;
    const constraints = specOf(policy).matchConstraints;
    const match = isObject(constraints) ? matchResources(constraints, a, source) : undefined;
    if (!match) continue;
    const own = specOf(binding).matchResources;
    // A binding's own matchResources narrow the policy's; without resourceRules they match what the policy does.
    if (isObject(own) && !matchResources({ ...own, resourceRules: Array.isArray(own.resourceRules) && own.resourceRules.length > 0 ? own.resourceRules : [EVERYTHING] }, a, source)) continue;
    const params = paramsOf(policy, binding, a, source);
    if (!params) continue;
    out.push({ policy, binding, policyName, bindingName: nameOf(binding), match, params: params.params, ...(params.configError ? { configError: params.configError } : {}) });
  }
  return out;
}
