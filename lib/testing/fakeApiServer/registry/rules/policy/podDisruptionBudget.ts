import type { JsonObject } from '../../../resources.js';
import type { FieldError } from '../../../status.js';
import type { TypeRules } from '../../typeRules.js';
import { invalidValue, notSupported } from '../../../schema/fieldErrors.js';
import { isNotMoreThan100Percent, validatePositiveIntOrPercent } from '../support/intOrString.js';
import { objectAt } from '../support/json.js';
import { renderSelector, validateLabelSelector } from '../support/labels.js';

// PodDisruptionBudget (policy/v1): no defaults; ValidatePodDisruptionBudgetSpec on create and
// update (the spec is mutable since 1.15).

function validatePDB(pdb: JsonObject): FieldError[] {
  const spec = objectAt(pdb, 'spec') ?? {};
  const errs: FieldError[] = [];
  const has = (k: string): boolean => spec[k] !== undefined && spec[k] !== null;
  if (has('minAvailable') && has('maxUnavailable')) {
    // The internal PodDisruptionBudgetSpec, printed with Go's field names.
    const rendered = { MinAvailable: spec.minAvailable, Selector: spec.selector === undefined ? null : renderSelector(spec.selector), MaxUnavailable: spec.maxUnavailable, UnhealthyPodEvictionPolicy: spec.unhealthyPodEvictionPolicy ?? null };
    errs.push(invalidValue('spec', rendered, 'minAvailable and maxUnavailable cannot be both set'));
  }
  for (const key of ['minAvailable', 'maxUnavailable']) {
    if (!has(key)) continue;
    errs.push(...validatePositiveIntOrPercent(spec[key], `spec.${key}`), ...isNotMoreThan100Percent(spec[key], `spec.${key}`));
  }
  errs.push(...validateLabelSelector(spec.selector, 'spec.selector'));
  const policy = spec.unhealthyPodEvictionPolicy;
  if (typeof policy === 'string' && policy !== 'AlwaysAllow' && policy !== 'IfHealthyBudget') errs.push(notSupported('spec.unhealthyPodEvictionPolicy', policy, ['AlwaysAllow', 'IfHealthyBudget']));
  return errs;
}

/**
 * The PodDisruptionBudget's rules.
 *
 * @example
 * ```ts
 * podDisruptionBudgetRules.validateCreate?.({ spec: { minAvailable: '150%' } }); // [spec.minAvailable: Invalid value: "150%": must not be greater than 100%]
 * ```
 */
export const podDisruptionBudgetRules: TypeRules = {
  validateCreate: validatePDB,
  validateUpdate: (pdb) => validatePDB(pdb),
};
