import type { JsonObject } from '../../../resources.js';
import type { FieldError } from '../../../status.js';
import type { TypeRules } from '../../typeRules.js';
import { index, invalidValue, required } from '../../../schema/fieldErrors.js';
import { listAt, objectAt, objectsAt } from '../support/json.js';
import { validateLabelSelector } from '../support/labels.js';

// Role and ClusterRole (rbac.authorization.k8s.io/v1): ValidatePolicyRule for each rule, and a
// ClusterRole's aggregation rule. Unknown verbs and resources are stored as kube stores them.

function validatePolicyRule(rule: JsonObject, namespaced: boolean, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (listAt(rule, 'verbs').length === 0) errs.push(required(`${path}.verbs`, 'verbs must contain at least one value'));
  const urls = listAt(rule, 'nonResourceURLs');
  if (urls.length > 0) {
    if (namespaced) errs.push(invalidValue(`${path}.nonResourceURLs`, urls, 'namespaced rules cannot apply to non-resource URLs'));
    if (listAt(rule, 'apiGroups').length > 0 || listAt(rule, 'resources').length > 0 || listAt(rule, 'resourceNames').length > 0) {
      errs.push(invalidValue(`${path}.nonResourceURLs`, urls, 'rules cannot apply to both regular resources and non-resource URLs'));
    }
    return errs;
  }
  if (listAt(rule, 'apiGroups').length === 0) errs.push(required(`${path}.apiGroups`, 'resource rules must supply at least one api group'));
  if (listAt(rule, 'resources').length === 0) errs.push(required(`${path}.resources`, 'resource rules must supply at least one resource'));
  return errs;
}

const validateRules = (role: JsonObject, namespaced: boolean): FieldError[] =>
  objectsAt(role, 'rules').flatMap(([rule, i]) => validatePolicyRule(rule, namespaced, index('rules', i)));

function validateClusterRole(role: JsonObject): FieldError[] {
  const errs = validateRules(role, false);
  const aggregation = objectAt(role, 'aggregationRule');
  if (aggregation) {
    const selectors = listAt(aggregation, 'clusterRoleSelectors');
    if (selectors.length === 0) errs.push(required('aggregationRule.clusterRoleSelectors', 'at least one clusterRoleSelector required if aggregationRule is non-nil'));
    selectors.forEach((s, i) => errs.push(...validateLabelSelector(s, index('aggregationRule.clusterRoleSelectors', i))));
  }
  return errs;
}

/**
 * The Role's rules.
 *
 * @example
 * ```ts
 * roleRules.validateCreate?.({ rules: [{ verbs: ['get'] }] });
 * // [rules[0].apiGroups: Required value: ..., rules[0].resources: Required value: ...]
 * ```
 */
export const roleRules: TypeRules = {
  validateCreate: (role) => validateRules(role, true),
  validateUpdate: (role) => validateRules(role, true),
};

/**
 * The ClusterRole's rules.
 *
 * @example
 * ```ts
 * clusterRoleRules.validateCreate?.({ aggregationRule: {} }); // [aggregationRule.clusterRoleSelectors: Required value: ...]
 * ```
 */
export const clusterRoleRules: TypeRules = {
  validateCreate: validateClusterRole,
  validateUpdate: (role) => validateClusterRole(role),
};
