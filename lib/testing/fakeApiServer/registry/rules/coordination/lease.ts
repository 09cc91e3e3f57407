import type { JsonObject } from '../../../resources.js';
import type { FieldError } from '../../../status.js';
import type { TypeRules } from '../../typeRules.js';
import { forbidden, invalidValue, notSupported } from '../../../schema/fieldErrors.js';
import { objectAt } from '../support/json.js';

// Lease (coordination.k8s.io/v1): ValidateLeaseSpec on create and update.

function validateLease(lease: JsonObject): FieldError[] {
  const spec = objectAt(lease, 'spec') ?? {};
  const errs: FieldError[] = [];
  if (typeof spec.leaseDurationSeconds === 'number' && spec.leaseDurationSeconds <= 0) errs.push(invalidValue('spec.leaseDurationSeconds', spec.leaseDurationSeconds, 'must be greater than 0'));
  if (typeof spec.leaseTransitions === 'number' && spec.leaseTransitions < 0) errs.push(invalidValue('spec.leaseTransitions', spec.leaseTransitions, 'must be greater than or equal to 0'));
  const strategy = spec.strategy;
  if (typeof strategy === 'string' && strategy !== 'OldestEmulationVersion') errs.push(notSupported('spec.strategy', strategy, ['OldestEmulationVersion']));
  if (typeof spec.preferredHolder === 'string' && spec.preferredHolder !== '' && (typeof strategy !== 'string' || strategy === '')) {
    errs.push(forbidden('spec.preferredHolder', 'may only be specified if `strategy` is defined'));
  }
  return errs;
}

/**
 * The Lease's rules.
 *
 * @example
 * ```ts
 * leaseRules.validateCreate?.({ spec: { leaseDurationSeconds: 0 } }); // [spec.leaseDurationSeconds: Invalid value: 0: must be greater than 0]
 * ```
 */
export const leaseRules: TypeRules = {
  validateCreate: validateLease,
  validateUpdate: (lease) => validateLease(lease),
};
