import type { JsonObject } from '../../../resources.js';
import type { FieldError } from '../../../status.js';
import type { TypeRules } from '../../typeRules.js';
import { child, invalidValue, notSupported, required } from '../../../schema/fieldErrors.js';
import { decodingDefaults } from '../support/decoding.js';
import { nonNegative } from '../support/errors.js';
import { intOrPercentValue, isNotMoreThan100Percent, validatePositiveIntOrPercent } from '../support/intOrString.js';
import { ensureObject, isObject, objectAt, objectsAt, setDefault, stringAt } from '../support/json.js';
import { parseSelector, renderSelector, validateLabelSelector } from '../support/labels.js';
import { defaultPodTemplate } from '../core/podSpecDefaults.js';
import { validatePodTemplateSpec } from '../core/podTemplateValidation.js';
import { templateWorkloadWarnings } from '../core/podWarnings.js';
import { alwaysRestartTemplate, immutableSelector, selectorMismatch, specTemplateWarningInput } from './workloadValidation.js';

// DaemonSet (apps/v1): SetDefaults_DaemonSet, ValidateDaemonSetSpec, immutable selector.

function defaultDaemonSet(obj: JsonObject): void {
  const spec = ensureObject(obj, 'spec');
  const strategy = ensureObject(spec, 'updateStrategy');
  if (strategy.type === undefined || strategy.type === null || strategy.type === '') strategy.type = 'RollingUpdate';
  if (strategy.type === 'RollingUpdate') {
    const rollingUpdate = ensureObject(strategy, 'rollingUpdate');
    setDefault(rollingUpdate, 'maxUnavailable', 1);
    setDefault(rollingUpdate, 'maxSurge', 0);
  }
  setDefault(spec, 'revisionHistoryLimit', 10);
  defaultPodTemplate(ensureObject(spec, 'template'));
}

function validateUpdateStrategy(spec: JsonObject): FieldError[] {
  const path = 'spec.updateStrategy';
  const strategy = objectAt(spec, 'updateStrategy') ?? {};
  const type = stringAt(strategy, 'type');
  if (type === 'OnDelete') return [];
  if (type !== 'RollingUpdate') {
    const ru = objectAt(strategy, 'rollingUpdate');
    const rendered = { Type: type, RollingUpdate: ru ? { MaxUnavailable: ru.maxUnavailable ?? 0, MaxSurge: ru.maxSurge ?? 0 } : null };
    return [notSupported(path, rendered, ['RollingUpdate', 'OnDelete'])];
  }
  const ru = objectAt(strategy, 'rollingUpdate');
  if (!ru) return [required(child(path, 'rollingUpdate'))];
  const ruPath = child(path, 'rollingUpdate');
  const errs = [
    ...validatePositiveIntOrPercent(ru.maxUnavailable ?? 0, child(ruPath, 'maxUnavailable')),
    ...validatePositiveIntOrPercent(ru.maxSurge ?? 0, child(ruPath, 'maxSurge')),
    ...isNotMoreThan100Percent(ru.maxUnavailable, child(ruPath, 'maxUnavailable')),
    ...isNotMoreThan100Percent(ru.maxSurge, child(ruPath, 'maxSurge')),
  ];
  const hasUnavailable = intOrPercentValue(ru.maxUnavailable) !== 0;
  const hasSurge = intOrPercentValue(ru.maxSurge) !== 0;
  if (hasUnavailable && hasSurge) errs.push(invalidValue(child(ruPath, 'maxSurge'), ru.maxSurge, 'may not be set when maxUnavailable is non-zero'));
  else if (!hasUnavailable && !hasSurge) errs.push(required(child(ruPath, 'maxUnavailable'), 'cannot be 0 when maxSurge is 0'));
  return errs;
}

function validateDaemonSetSpec(obj: JsonObject): FieldError[] {
  const spec = objectAt(obj, 'spec') ?? {};
  const template = isObject(spec.template) ? spec.template : {};
  const errs = validateLabelSelector(spec.selector, 'spec.selector');
  const selector = parseSelector(spec.selector);
  if (selector.kind !== 'invalid') errs.push(...selectorMismatch(selector, template, 'spec.template'));
  const raw = spec.selector;
  if (isObject(raw) && Object.keys(objectAt(raw, 'matchLabels') ?? {}).length + objectsAt(raw, 'matchExpressions').length === 0) {
    errs.push(invalidValue('spec.selector', renderSelector(raw), 'empty selector is invalid for daemonset'));
  }
  errs.push(...validatePodTemplateSpec(template, 'spec.template'));
  errs.push(...alwaysRestartTemplate(template, 'spec.template', 'DaemonSet'));
  errs.push(...nonNegative('spec.minReadySeconds', spec.minReadySeconds));
  errs.push(...validateUpdateStrategy(spec));
  errs.push(...nonNegative('spec.revisionHistoryLimit', spec.revisionHistoryLimit));
  return errs;
}

/**
 * The DaemonSet's rules.
 *
 * @example
 * ```ts
 * const ds = { apiVersion: 'apps/v1', kind: 'DaemonSet', spec: {} };
 * daemonSetRules.defaults?.(ds); // ds.spec.updateStrategy = { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 0 } }
 * ```
 */
export const daemonSetRules: TypeRules = {
  defaults: decodingDefaults('DaemonSet', defaultDaemonSet),
  validateCreate: validateDaemonSetSpec,
  validateUpdate: (obj, old) => [...validateDaemonSetSpec(obj), ...immutableSelector(obj, old)],
  warnings: (obj, old) => templateWorkloadWarnings(specTemplateWarningInput(obj, old, false)),
};
