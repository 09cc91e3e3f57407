// SelfSubjectRulesReview (authorization.k8s.io/v1; KK pkg/registry/authorization/selfsubjectrulesreview):
// what the requesting user may do in a namespace, as the rule resolvers list it. The answer carries
// only a status (its spec is empty); `kubectl auth can-i --list` sends one.
import { badRequest } from '../status.js';
import type { RuleResolver } from './authorizer.js';
import { listOf, type PolicyRule } from './rbacObjects.js';
import { reviewDecoder, type JsonMap } from './reviewDecode.js';
import type { UserInfo } from './userInfo.js';

// Go omits the empty lists of a rule, but never its verbs.
const resourceRule = (r: PolicyRule): JsonMap => ({
  verbs: [...listOf(r.verbs)],
  ...(listOf(r.apiGroups).length > 0 && { apiGroups: [...listOf(r.apiGroups)] }),
  ...(listOf(r.resources).length > 0 && { resources: [...listOf(r.resources)] }),
  ...(listOf(r.resourceNames).length > 0 && { resourceNames: [...listOf(r.resourceNames)] }),
});
const nonResourceRule = (r: PolicyRule): JsonMap => ({
  verbs: [...listOf(r.verbs)],
  ...(listOf(r.nonResourceURLs).length > 0 && { nonResourceURLs: [...listOf(r.nonResourceURLs)] }),
});

/**
 * Answers a SelfSubjectRulesReview for the requesting user, or throws kube's 400 (`no namespace on
 * request` when `spec.namespace` is empty).
 *
 * @example
 * ```ts
 * selfSubjectRulesReview({ spec: { namespace: 'shop' } }, user, rules).status;
 * // { resourceRules: [...], nonResourceRules: [...], incomplete: false }
 * ```
 */
export function selfSubjectRulesReview(body: unknown, user: UserInfo, rules: RuleResolver): JsonMap {
  const kind = 'SelfSubjectRulesReview';
  const read = reviewDecoder(kind);
  const spec = read.object(read.body(body).spec, `${kind}.spec`, 'v1.SelfSubjectRulesReviewSpec');
  const namespace = read.string(spec?.namespace, 'SelfSubjectRulesReviewSpec.spec.namespace');
  if (!namespace) throw badRequest('no namespace on request');
  const r = rules(user, namespace);
  return {
    kind,
    apiVersion: 'authorization.k8s.io/v1',
    metadata: {},
    spec: {},
    status: {
      resourceRules: r.resourceRules.map(resourceRule),
      nonResourceRules: r.nonResourceRules.map(nonResourceRule),
      incomplete: r.incomplete,
      ...(r.evaluationError && { evaluationError: r.evaluationError }),
    },
  };
}
