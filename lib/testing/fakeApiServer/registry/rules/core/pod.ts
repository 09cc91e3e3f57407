import type { JsonObject } from '../../../resources.js';
import type { FieldError } from '../../../status.js';
import type { TypeRules } from '../../typeRules.js';
import { child, forbidden, index, invalidValue } from '../../../schema/fieldErrors.js';
import { decodingDefaults } from '../support/decoding.js';
import { listAt, objectAt, objectsAt, stringAt } from '../support/json.js';
import { defaultPod } from './podSpecDefaults.js';
import { validatePodSpec } from './podSpecValidation.js';
import { validatePodSpecUpdate } from './podUpdate.js';
import { dnsLabelNameWarning, podSpecWarnings } from './podWarnings.js';
import { ephemeralClaimNames } from './volumeValidation.js';

// Pod (core/v1): SetObjectDefaults_Pod, ValidatePodCreate / ValidatePodUpdate beyond ObjectMeta,
// and the pod strategy's warnings.

const nameOf = (obj: JsonObject): string => stringAt(objectAt(obj, 'metadata'), 'name');

/** validatePodMetadataAndSpec's spec part, for create and update alike. */
function validatePodMetadataAndSpec(pod: JsonObject): FieldError[] {
  const spec = objectAt(pod, 'spec') ?? {};
  const errs = validatePodSpec(spec, 'spec');
  const created = ephemeralClaimNames(nameOf(pod), spec);
  for (const [v, i] of objectsAt(spec, 'volumes')) {
    const claim = stringAt(objectAt(v, 'persistentVolumeClaim'), 'claimName');
    if (claim !== '' && created.has(claim)) {
      errs.push(invalidValue(child(child(index('spec.volumes', i), 'persistentVolumeClaim'), 'claimName'), claim, 'must not reference a PVC that gets created for an ephemeral volume'));
    }
  }
  if (stringAt(spec, 'serviceAccountName') === '') {
    for (const [v, vi] of objectsAt(spec, 'volumes')) {
      for (const [source, si] of objectsAt(objectAt(v, 'projected'), 'sources')) {
        if (objectAt(source, 'serviceAccountToken')) {
          errs.push(forbidden(child(index(child(child(index('spec.volumes', vi), 'projected'), 'sources'), si), 'serviceAccountToken'), 'must not be specified when serviceAccountName is not set'));
        }
      }
    }
  }
  for (const key of ['containers', 'initContainers']) {
    for (const [c, i] of objectsAt(spec, key)) {
      const image = stringAt(c, 'image');
      if (image.trim() !== image) errs.push(invalidValue(child(index(child('spec', key), i), 'image'), image, 'must not have leading or trailing whitespace'));
    }
  }
  return errs;
}

function validatePodCreate(pod: JsonObject): FieldError[] {
  const spec = objectAt(pod, 'spec') ?? {};
  const errs = validatePodMetadataAndSpec(pod);
  if (listAt(spec, 'ephemeralContainers').length > 0) errs.push(forbidden('spec.ephemeralContainers', 'cannot be set on create'));
  if (stringAt(spec, 'nodeName') !== '' && listAt(spec, 'schedulingGates').length > 0) {
    errs.push(forbidden('spec.nodeName', 'cannot be set until all schedulingGates have been cleared'));
  }
  return errs;
}

function validatePodUpdate(pod: JsonObject, old: JsonObject): FieldError[] {
  return [...validatePodMetadataAndSpec(pod), ...validatePodSpecUpdate(objectAt(pod, 'spec') ?? {}, objectAt(old, 'spec') ?? {})];
}

/**
 * The Pod's rules.
 *
 * @example
 * ```ts
 * const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'a' }, spec: { containers: [{ name: 'c', image: 'nginx' }] } };
 * podRules.defaults?.(pod); // pod.spec.restartPolicy === 'Always'
 * ```
 */
export const podRules: TypeRules = {
  defaults: decodingDefaults('Pod', defaultPod),
  validateCreate: validatePodCreate,
  validateUpdate: validatePodUpdate,
  warnings: (pod, old) => [
    ...(old ? [] : dnsLabelNameWarning(nameOf(pod), "the Pod's hostname")),
    ...podSpecWarnings(objectAt(pod, 'spec'), 'spec'),
  ],
};
