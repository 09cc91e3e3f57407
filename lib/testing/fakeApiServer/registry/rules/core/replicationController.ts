import type { JsonObject } from '../../../resources.js';
import type { FieldError } from '../../../status.js';
import type { TypeRules } from '../../typeRules.js';
import { child, forbidden, invalidValue, notSupported, required } from '../../../schema/fieldErrors.js';
import { decodingDefaults } from '../support/decoding.js';
import { nonNegative } from '../support/errors.js';
import { cloneJson, ensureObject, isObject, objectAt, setDefault, sortedMap, stringAt } from '../support/json.js';
import { parseSelector, selectorMatches } from '../support/labels.js';
import { defaultPodTemplate } from './podSpecDefaults.js';
import { validatePodTemplateSpec } from './podTemplateValidation.js';
import { templateWorkloadWarnings } from './podWarnings.js';

// ReplicationController (core/v1): SetDefaults_ReplicationController (selector and labels from the
// template's labels, replicas 1) and ValidateReplicationControllerSpec (a map selector, required
// and matching the template).

function defaultRC(rc: JsonObject): void {
  const spec = ensureObject(rc, 'spec');
  const template = objectAt(spec, 'template');
  const labels = objectAt(objectAt(template, 'metadata'), 'labels');
  if (labels) {
    if (!isObject(spec.selector) || Object.keys(spec.selector).length === 0) spec.selector = cloneJson(labels);
    const metadata = ensureObject(rc, 'metadata');
    if (!isObject(metadata.labels) || Object.keys(metadata.labels).length === 0) metadata.labels = cloneJson(labels);
  }
  setDefault(spec, 'replicas', 1);
  defaultPodTemplate(template);
}

function validateRC(rc: JsonObject): FieldError[] {
  const spec = objectAt(rc, 'spec') ?? {};
  const errs = nonNegative('spec.minReadySeconds', spec.minReadySeconds);
  const selector = isObject(spec.selector) ? spec.selector : {};
  if (Object.keys(selector).length === 0) errs.push(required('spec.selector'));
  if (spec.replicas === undefined || spec.replicas === null) errs.push(required('spec.replicas'));
  else errs.push(...nonNegative('spec.replicas', spec.replicas));
  const template = spec.template;
  if (!isObject(template)) return [...errs, required('spec.template')];
  const labels = objectAt(objectAt(template, 'metadata'), 'labels');
  if (Object.keys(selector).length > 0 && !selectorMatches(parseSelector({ matchLabels: selector }), labels)) {
    errs.push(invalidValue('spec.template.metadata.labels', labels ? sortedMap(labels) : null, '`selector` does not match template `labels`'));
  }
  errs.push(...validatePodTemplateSpec(template, 'spec.template'));
  const podSpec = objectAt(template, 'spec');
  const restartPolicy = stringAt(podSpec, 'restartPolicy');
  if (restartPolicy !== 'Always') errs.push(notSupported('spec.template.spec.restartPolicy', restartPolicy, ['Always']));
  if (podSpec?.activeDeadlineSeconds !== undefined && podSpec.activeDeadlineSeconds !== null) {
    errs.push(forbidden(child('spec.template.spec', 'activeDeadlineSeconds'), 'activeDeadlineSeconds in ReplicationController is not Supported'));
  }
  return errs;
}

/**
 * The ReplicationController's rules.
 *
 * @example
 * ```ts
 * const rc = { apiVersion: 'v1', kind: 'ReplicationController', spec: { template: { metadata: { labels: { app: 'a' } } } } };
 * replicationControllerRules.defaults?.(rc); // rc.spec.selector = { app: 'a' }, rc.spec.replicas = 1
 * ```
 */
export const replicationControllerRules: TypeRules = {
  defaults: decodingDefaults('ReplicationController', defaultRC),
  validateCreate: validateRC,
  validateUpdate: (rc) => validateRC(rc),
  warnings: (rc, old) =>
    templateWorkloadWarnings({
      obj: rc,
      old,
      template: objectAt(rc, 'spec')?.template,
      oldTemplate: old ? objectAt(old, 'spec')?.template : undefined,
      templatePath: 'spec.template',
      nameWarning: true,
    }),
};
