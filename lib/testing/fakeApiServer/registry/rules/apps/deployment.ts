import type { JsonObject } from '../../../resources.js';
import type { FieldError } from '../../../status.js';
import type { TypeRules } from '../../typeRules.js';
import { child, forbidden, invalidValue, notSupported, required } from '../../../schema/fieldErrors.js';
import { decodingDefaults } from '../support/decoding.js';
import { nonNegative } from '../support/errors.js';
import { intOrPercentValue, isNotMoreThan100Percent, validatePositiveIntOrPercent } from '../support/intOrString.js';
import { ensureObject, isObject, objectAt, setDefault, stringAt } from '../support/json.js';
import { defaultPodTemplate } from '../core/podSpecDefaults.js';
import { templateWorkloadWarnings } from '../core/podWarnings.js';
import { immutableSelector, specTemplateWarningInput, validateRequiredSelector, validateTemplateForReplicaSet } from './workloadValidation.js';

// Deployment (apps/v1): SetDefaults_Deployment, ValidateDeploymentSpec, the apps/v1 strategy's
// immutable selector and its warnings.

function defaultDeployment(obj: JsonObject): void {
  const spec = ensureObject(obj, 'spec');
  setDefault(spec, 'replicas', 1);
  const strategy = ensureObject(spec, 'strategy');
  if (strategy.type === undefined || strategy.type === null || strategy.type === '') strategy.type = 'RollingUpdate';
  if (strategy.type === 'RollingUpdate') {
    const rollingUpdate = ensureObject(strategy, 'rollingUpdate');
    setDefault(rollingUpdate, 'maxUnavailable', '25%');
    setDefault(rollingUpdate, 'maxSurge', '25%');
  }
  setDefault(spec, 'revisionHistoryLimit', 10);
  setDefault(spec, 'progressDeadlineSeconds', 600);
  defaultPodTemplate(ensureObject(spec, 'template'));
}

/** The internal DeploymentStrategy as kube prints it in "Unsupported value" (Go field names). */
function renderStrategy(strategy: JsonObject): unknown {
  const ru = objectAt(strategy, 'rollingUpdate');
  return { Type: stringAt(strategy, 'type'), RollingUpdate: ru ? { MaxUnavailable: ru.maxUnavailable ?? 0, MaxSurge: ru.maxSurge ?? 0 } : null };
}

function validateStrategy(spec: JsonObject): FieldError[] {
  const strategy = objectAt(spec, 'strategy') ?? {};
  const path = 'spec.strategy';
  const type = stringAt(strategy, 'type');
  if (type === 'Recreate') {
    return strategy.rollingUpdate !== undefined && strategy.rollingUpdate !== null ? [forbidden(child(path, 'rollingUpdate'), "may not be specified when strategy `type` is 'Recreate'")] : [];
  }
  if (type !== 'RollingUpdate') return [notSupported(path, renderStrategy(strategy), ['Recreate', 'RollingUpdate'])];
  const ru = objectAt(strategy, 'rollingUpdate');
  if (!ru) return [required(child(path, 'rollingUpdate'), 'this should be defaulted and never be nil')];
  const ruPath = child(path, 'rollingUpdate');
  const errs = [...validatePositiveIntOrPercent(ru.maxUnavailable ?? 0, child(ruPath, 'maxUnavailable')), ...validatePositiveIntOrPercent(ru.maxSurge ?? 0, child(ruPath, 'maxSurge'))];
  if (intOrPercentValue(ru.maxUnavailable) === 0 && intOrPercentValue(ru.maxSurge) === 0) {
    errs.push(invalidValue(child(ruPath, 'maxUnavailable'), ru.maxUnavailable ?? 0, 'may not be 0 when `maxSurge` is 0'));
  }
  errs.push(...isNotMoreThan100Percent(ru.maxUnavailable, child(ruPath, 'maxUnavailable')));
  return errs;
}

function validateDeploymentSpec(obj: JsonObject): FieldError[] {
  const spec = objectAt(obj, 'spec') ?? {};
  const errs = nonNegative('spec.replicas', spec.replicas);
  const { errors, selector } = validateRequiredSelector(spec, 'spec', 'deployment');
  errs.push(...errors);
  if (selector) errs.push(...validateTemplateForReplicaSet(spec.template, selector, 'spec.template'));
  errs.push(...validateStrategy(spec));
  errs.push(...nonNegative('spec.minReadySeconds', spec.minReadySeconds));
  errs.push(...nonNegative('spec.revisionHistoryLimit', spec.revisionHistoryLimit));
  if (isObject(spec.rollbackTo)) errs.push(...nonNegative('spec.rollback.version', spec.rollbackTo.revision));
  const deadline = spec.progressDeadlineSeconds;
  if (typeof deadline === 'number') {
    errs.push(...nonNegative('spec.progressDeadlineSeconds', deadline));
    const minReady = typeof spec.minReadySeconds === 'number' ? spec.minReadySeconds : 0;
    if (deadline <= minReady) errs.push(invalidValue('spec.progressDeadlineSeconds', deadline, 'must be greater than minReadySeconds'));
  }
  return errs;
}

/**
 * The Deployment's rules.
 *
 * @example
 * ```ts
 * const d = { apiVersion: 'apps/v1', kind: 'Deployment', spec: { template: { spec: { containers: [] } } } };
 * deploymentRules.defaults?.(d); // d.spec.replicas === 1, d.spec.strategy.rollingUpdate.maxSurge === '25%'
 * ```
 */
export const deploymentRules: TypeRules = {
  defaults: decodingDefaults('Deployment', defaultDeployment),
  validateCreate: validateDeploymentSpec,
  validateUpdate: (obj, old) => [...validateDeploymentSpec(obj), ...immutableSelector(obj, old)],
  warnings: (obj, old) => templateWorkloadWarnings(specTemplateWarningInput(obj, old, true)),
};
