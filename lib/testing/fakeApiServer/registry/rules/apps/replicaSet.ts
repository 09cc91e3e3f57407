import type { JsonObject } from '../../../resources.js';
import type { FieldError } from '../../../status.js';
import type { TypeRules } from '../../typeRules.js';
import { decodingDefaults } from '../support/decoding.js';
import { nonNegative } from '../support/errors.js';
import { ensureObject, objectAt, setDefault } from '../support/json.js';
import { defaultPodTemplate } from '../core/podSpecDefaults.js';
import { templateWorkloadWarnings } from '../core/podWarnings.js';
import { immutableSelector, specTemplateWarningInput, validateRequiredSelector, validateTemplateForReplicaSet } from './workloadValidation.js';

// ReplicaSet (apps/v1): SetDefaults_ReplicaSet, ValidateReplicaSetSpec, immutable selector.

function defaultReplicaSet(obj: JsonObject): void {
  const spec = ensureObject(obj, 'spec');
  setDefault(spec, 'replicas', 1);
  defaultPodTemplate(ensureObject(spec, 'template'));
}

function validateReplicaSetSpec(obj: JsonObject): FieldError[] {
  const spec = objectAt(obj, 'spec') ?? {};
  const errs = [...nonNegative('spec.replicas', spec.replicas), ...nonNegative('spec.minReadySeconds', spec.minReadySeconds)];
  // kube's ReplicaSet validation reuses the Deployment's words for an empty selector.
  const { errors, selector } = validateRequiredSelector(spec, 'spec', 'deployment');
  errs.push(...errors);
  if (selector) errs.push(...validateTemplateForReplicaSet(spec.template, selector, 'spec.template'));
  return errs;
}

/**
 * The ReplicaSet's rules.
 *
 * @example
 * ```ts
 * replicaSetRules.validateCreate?.({ spec: { selector: {} } }); // [..., spec.selector: Invalid value: {}: empty selector is invalid for deployment, ...]
 * ```
 */
export const replicaSetRules: TypeRules = {
  defaults: decodingDefaults('ReplicaSet', defaultReplicaSet),
  validateCreate: validateReplicaSetSpec,
  validateUpdate: (obj, old) => [...validateReplicaSetSpec(obj), ...immutableSelector(obj, old)],
  warnings: (obj, old) => templateWorkloadWarnings(specTemplateWarningInput(obj, old, true)),
};
