import type { JsonObject } from '../../../resources.js';
import type { FieldError } from '../../../status.js';
import type { TypeRules } from '../../typeRules.js';
import { child, forbidden, invalidValue, notSupported, required } from '../../../schema/fieldErrors.js';
import { decodingDefaults } from '../support/decoding.js';
import { nonNegative } from '../support/errors.js';
import { intOrPercentValue, isNotMoreThan100Percent, validatePositiveIntOrPercent } from '../support/intOrString.js';
import { cloneJson, ensureObject, isObject, objectAt, objectsAt, semanticEqual, setDefault, stringAt } from '../support/json.js';
import { validateAnnotations, validateLabels } from '../support/labels.js';
import { defaultPersistentVolumeClaimSpec, defaultPodTemplate } from '../core/podSpecDefaults.js';
import { templateWorkloadWarnings } from '../core/podWarnings.js';
import { alwaysRestartTemplate, selectorMismatch, specTemplateWarningInput, validateRequiredSelector } from './workloadValidation.js';

// StatefulSet (apps/v1): SetDefaults_StatefulSet (kube 1.34: MaxUnavailableStatefulSet is alpha,
// so no maxUnavailable default), ValidateStatefulSetSpec (the template's PodSpec is not
// validated, as in kube) and the update rule on the spec's immutable fields.

/** The fields a StatefulSet update may change, in kube's message. */
const MUTABLE = ['replicas', 'ordinals', 'template', 'updateStrategy', 'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy', 'minReadySeconds'];

function defaultStatefulSet(obj: JsonObject): void {
  const spec = ensureObject(obj, 'spec');
  if (typeof spec.podManagementPolicy !== 'string' || spec.podManagementPolicy === '') spec.podManagementPolicy = 'OrderedReady';
  const strategy = ensureObject(spec, 'updateStrategy');
  if (strategy.type === undefined || strategy.type === null || strategy.type === '') {
    strategy.type = 'RollingUpdate';
    setDefault(strategy, 'rollingUpdate', {});
  }
  const rollingUpdate = objectAt(strategy, 'rollingUpdate');
  if (strategy.type === 'RollingUpdate' && rollingUpdate) setDefault(rollingUpdate, 'partition', 0);
  const retention = ensureObject(spec, 'persistentVolumeClaimRetentionPolicy');
  for (const key of ['whenDeleted', 'whenScaled']) if (typeof retention[key] !== 'string' || retention[key] === '') retention[key] = 'Retain';
  setDefault(spec, 'replicas', 1);
  setDefault(spec, 'revisionHistoryLimit', 10);
  defaultPodTemplate(ensureObject(spec, 'template'));
  for (const [claim] of objectsAt(spec, 'volumeClaimTemplates')) {
    const status = ensureObject(claim, 'status');
    if (typeof status.phase !== 'string' || status.phase === '') status.phase = 'Pending';
    defaultPersistentVolumeClaimSpec(ensureObject(claim, 'spec'));
  }
}

function validateRetention(spec: JsonObject): FieldError[] {
  const policy = objectAt(spec, 'persistentVolumeClaimRetentionPolicy');
  if (!policy) return [];
  return ['whenDeleted', 'whenScaled'].flatMap((key) => {
    const v = stringAt(policy, key);
    return v === 'Retain' || v === 'Delete' ? [] : [notSupported(child('spec.persistentVolumeClaimRetentionPolicy', key), v, ['Retain', 'Delete'])];
  });
}

function validateUpdateStrategy(spec: JsonObject): FieldError[] {
  const path = 'spec.updateStrategy';
  const strategy = objectAt(spec, 'updateStrategy') ?? {};
  const ru = objectAt(strategy, 'rollingUpdate');
  const renderedRU = ru ? { Partition: ru.partition ?? 0, MaxUnavailable: ru.maxUnavailable ?? null } : null;
  switch (stringAt(strategy, 'type')) {
    case '':
      return [required(path)];
    case 'OnDelete':
      return ru ? [invalidValue(child(path, 'rollingUpdate'), renderedRU, "only allowed for updateStrategy 'RollingUpdate'")] : [];
    case 'RollingUpdate': {
      if (!ru) return [];
      const ruPath = child(path, 'rollingUpdate');
      const errs = nonNegative(child(ruPath, 'partition'), ru.partition);
      if (ru.maxUnavailable !== undefined && ru.maxUnavailable !== null) {
        const p = child(ruPath, 'maxUnavailable');
        errs.push(...validatePositiveIntOrPercent(ru.maxUnavailable, p));
        if (intOrPercentValue(ru.maxUnavailable) === 0) errs.push(invalidValue(p, ru.maxUnavailable, 'cannot be 0'));
        errs.push(...isNotMoreThan100Percent(ru.maxUnavailable, p));
      }
      return errs;
    }
    default:
      return [invalidValue(path, { Type: stringAt(strategy, 'type'), RollingUpdate: renderedRU }, "must be 'RollingUpdate' or 'OnDelete'")];
  }
}

function validateStatefulSetSpec(obj: JsonObject): FieldError[] {
  const spec = objectAt(obj, 'spec') ?? {};
  const errs: FieldError[] = [];
  const policy = stringAt(spec, 'podManagementPolicy');
  if (policy === '') errs.push(required('spec.podManagementPolicy'));
  else if (policy !== 'OrderedReady' && policy !== 'Parallel') errs.push(invalidValue('spec.podManagementPolicy', policy, "must be 'OrderedReady' or 'Parallel'"));
  errs.push(...validateUpdateStrategy(spec), ...validateRetention(spec));
  errs.push(...nonNegative('spec.replicas', spec.replicas), ...nonNegative('spec.minReadySeconds', spec.minReadySeconds));
  const ordinals = objectAt(spec, 'ordinals');
  if (ordinals) errs.push(...nonNegative('spec.ordinals.start', ordinals.start));
  const template = isObject(spec.template) ? spec.template : {};
  const { errors, selector } = validateRequiredSelector(spec, 'spec', 'statefulset', '');
  errs.push(...errors);
  if (selector) {
    const metadata = objectAt(template, 'metadata');
    errs.push(...selectorMismatch(selector, template, 'spec.template'));
    errs.push(...validateLabels(metadata?.labels, 'spec.template.labels'), ...validateAnnotations(metadata?.annotations, 'spec.template.annotations'));
  }
  errs.push(...alwaysRestartTemplate(template, 'spec.template', 'StatefulSet'));
  return errs;
}

function validateStatefulSetUpdate(obj: JsonObject, old: JsonObject): FieldError[] {
  const spec = cloneJson(objectAt(obj, 'spec') ?? {});
  const oldSpec = objectAt(old, 'spec') ?? {};
  for (const key of MUTABLE) spec[key] = oldSpec[key];
  const errs = validateStatefulSetSpec(obj);
  if (!semanticEqual(spec, oldSpec)) {
    errs.push(forbidden('spec', `updates to statefulset spec for fields other than ${MUTABLE.slice(0, -1).map((f) => `'${f}'`).join(', ')} and 'minReadySeconds' are forbidden`));
  }
  return errs;
}

/**
 * The StatefulSet's rules.
 *
 * @example
 * ```ts
 * const sts = { apiVersion: 'apps/v1', kind: 'StatefulSet', spec: {} };
 * statefulSetRules.defaults?.(sts); // podManagementPolicy OrderedReady, updateStrategy RollingUpdate (partition 0), replicas 1
 * ```
 */
export const statefulSetRules: TypeRules = {
  defaults: decodingDefaults('StatefulSet', defaultStatefulSet),
  validateCreate: validateStatefulSetSpec,
  validateUpdate: validateStatefulSetUpdate,
  warnings: (obj, old) => templateWorkloadWarnings(specTemplateWarningInput(obj, old, false)),
};
