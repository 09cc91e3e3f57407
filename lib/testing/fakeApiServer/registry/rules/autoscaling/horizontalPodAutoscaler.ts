import type { JsonObject } from '../../../resources.js';
import type { FieldError } from '../../../status.js';
import type { TypeRules } from '../../typeRules.js';
import { invalidValue } from '../../../schema/fieldErrors.js';
import { decodingDefaults } from '../support/decoding.js';
import { cloneJson, ensureObject, isObject, listAt, objectAt, objectsAt, setDefault, stringAt } from '../support/json.js';
import { defaultQuantityField } from '../support/resourceLists.js';
import { validateBehavior, validateMetrics, validateObjectReference } from './metricValidation.js';

// HorizontalPodAutoscaler (autoscaling/v2 and v1, one type): v2's SetDefaults (minReplicas 1, a
// CPU 80% metric when none, filled-in behavior), v1's (minReplicas 1, and the 80% CPU target its
// conversion adds); validateHorizontalPodAutoscalerSpec.

const SCALE_UP = { stabilizationWindowSeconds: 0, selectPolicy: 'Max', policies: [{ type: 'Pods', value: 4, periodSeconds: 15 }, { type: 'Percent', value: 100, periodSeconds: 15 }] };
const SCALE_DOWN = { selectPolicy: 'Max', policies: [{ type: 'Percent', value: 100, periodSeconds: 15 }] };

/** GenerateHPAScale{Up,Down}Rules: the defaults with the user's set fields on top. */
function scalingRules(rules: unknown, defaults: JsonObject): JsonObject {
  const out = cloneJson(defaults);
  if (!isObject(rules)) return out;
  for (const key of ['selectPolicy', 'stabilizationWindowSeconds', 'policies', 'tolerance']) if (rules[key] !== undefined && rules[key] !== null) out[key] = rules[key];
  return out;
}

const isV1 = (hpa: JsonObject): boolean => stringAt(hpa, 'apiVersion') === 'autoscaling/v1';

function defaultHPA(hpa: JsonObject): void {
  const spec = ensureObject(hpa, 'spec');
  setDefault(spec, 'minReplicas', 1);
  if (isV1(hpa)) {
    // autoscaling/v1 has no metrics field: its conversion adds CPU at 80% and that reads back here.
    setDefault(spec, 'targetCPUUtilizationPercentage', 80);
    return;
  }
  if (listAt(spec, 'metrics').length === 0) {
    spec.metrics = [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } }];
  }
  for (const [metric] of objectsAt(spec, 'metrics')) {
    for (const source of ['object', 'pods', 'resource', 'containerResource', 'external']) {
      const target = objectAt(objectAt(metric, source), 'target');
      defaultQuantityField(target, 'value');
      defaultQuantityField(target, 'averageValue');
    }
  }
  const behavior = objectAt(spec, 'behavior');
  if (behavior) {
    behavior.scaleUp = scalingRules(behavior.scaleUp, SCALE_UP);
    behavior.scaleDown = scalingRules(behavior.scaleDown, SCALE_DOWN);
  }
}

function validateHPA(hpa: JsonObject): FieldError[] {
  const spec = objectAt(hpa, 'spec') ?? {};
  const errs: FieldError[] = [];
  const min = spec.minReplicas;
  const max = typeof spec.maxReplicas === 'number' ? spec.maxReplicas : 0;
  if (typeof min === 'number' && min < 1) errs.push(invalidValue('spec.minReplicas', min, 'must be greater than or equal to 1'));
  if (max < 1) errs.push(invalidValue('spec.maxReplicas', max, 'must be greater than 0'));
  if (typeof min === 'number' && max < min) errs.push(invalidValue('spec.maxReplicas', max, 'must be greater than or equal to `minReplicas`'));
  errs.push(...validateObjectReference(objectAt(spec, 'scaleTargetRef') ?? {}, 'spec.scaleTargetRef'));
  if (isV1(hpa)) {
    const target = spec.targetCPUUtilizationPercentage;
    // v1's target becomes the internal object's first metric; kube reports it there.
    if (typeof target === 'number' && target < 1) errs.push(invalidValue('spec.metrics[0].resource.target.averageUtilization', target, 'must be greater than 0'));
    return errs;
  }
  return [...errs, ...validateMetrics(spec, 'spec.metrics'), ...validateBehavior(spec, 'spec.behavior')];
}

/**
 * The HorizontalPodAutoscaler's rules (both versions).
 *
 * @example
 * ```ts
 * const hpa = { apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', spec: { maxReplicas: 5, scaleTargetRef: { kind: 'Deployment', name: 'web' } } };
 * horizontalPodAutoscalerRules.defaults?.(hpa); // minReplicas 1, metrics: CPU Utilization 80
 * ```
 */
export const horizontalPodAutoscalerRules: TypeRules = {
  defaults: decodingDefaults('HorizontalPodAutoscaler', defaultHPA),
  validateCreate: validateHPA,
  validateUpdate: (hpa) => validateHPA(hpa),
};
