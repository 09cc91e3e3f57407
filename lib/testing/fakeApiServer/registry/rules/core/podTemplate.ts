import type { TypeRules } from '../../typeRules.js';
import { decodingDefaults } from '../support/decoding.js';
import { ensureObject } from '../support/json.js';
import { defaultPodTemplate } from './podSpecDefaults.js';
import { validatePodTemplateSpec } from './podTemplateValidation.js';

// PodTemplate (core/v1): SetObjectDefaults_PodTemplate and ValidatePodTemplate.

/**
 * The PodTemplate's rules.
 *
 * @example
 * ```ts
 * podTemplateRules.validateCreate?.({ template: { spec: {} } }); // [template.spec.containers: Required value, ...]
 * ```
 */
export const podTemplateRules: TypeRules = {
  defaults: decodingDefaults('PodTemplate', (pt) => defaultPodTemplate(ensureObject(pt, 'template'))),
  validateCreate: (pt) => validatePodTemplateSpec(pt.template ?? {}, 'template'),
  validateUpdate: (pt) => validatePodTemplateSpec(pt.template ?? {}, 'template'),
};
