import type { JsonObject } from '../../../resources.js';
import type { FieldError } from '../../../status.js';
import { child, forbidden, index, invalidValue, notSupported, required } from '../../../schema/fieldErrors.js';
import { invalidEach } from '../support/errors.js';
import { objectAt, objectsAt, stringAt } from '../support/json.js';
import { isDNS1123Label, isPathSegmentName } from '../support/names.js';
import { parseQuantity } from '../support/quantities.js';

// autoscaling validation's metric specs and scaling behavior (HorizontalPodAutoscaler v2).

const SOURCE_TYPES = ['ContainerResource', 'External', 'Object', 'Pods', 'Resource'];
const SOURCE_FIELDS: ReadonlyArray<[string, string]> = [
  ['object', 'Object'],
  ['external', 'External'],
  ['pods', 'Pods'],
  ['resource', 'Resource'],
  ['containerResource', 'ContainerResource'],
];
const MAX_STABILIZATION_WINDOW = 3600;
const MAX_PERIOD = 1800;

const positive = (v: unknown): boolean => {
  const q = typeof v === 'string' || typeof v === 'number' ? parseQuantity(v) : undefined;
  return q !== undefined && !q.negative && q.mantissa !== 0n;
};

function validateTarget(target: JsonObject, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const type = stringAt(target, 'type');
  if (type === '') errs.push(required(child(path, 'type'), 'must specify a metric target type'));
  if (type !== 'Utilization' && type !== 'Value' && type !== 'AverageValue') errs.push(invalidValue(child(path, 'type'), type, 'must be either Utilization, Value, or AverageValue'));
  for (const key of ['value', 'averageValue']) {
    if (target[key] !== undefined && target[key] !== null && !positive(target[key])) errs.push(invalidValue(child(path, key), target[key], 'must be positive'));
  }
  const util = target.averageUtilization;
  if (typeof util === 'number' && util < 1) errs.push(invalidValue(child(path, 'averageUtilization'), util, 'must be greater than 0'));
  return errs;
}

function validateIdentifier(metric: JsonObject, path: string): FieldError[] {
  const name = stringAt(metric, 'name');
  return name === '' ? [required(child(path, 'name'), 'must specify a metric name')] : invalidEach(child(path, 'name'), name, isPathSegmentName(name));
}

const isSet = (o: JsonObject, k: string): boolean => o[k] !== undefined && o[k] !== null;

function validateSource(kind: string, src: JsonObject, path: string): FieldError[] {
  const target = objectAt(src, 'target') ?? {};
  const tPath = child(path, 'target');
  const errs: FieldError[] = [];
  if (kind === 'resource' || kind === 'containerResource') {
    if (stringAt(src, 'name') === '') errs.push(required(child(path, 'name'), 'must specify a resource name'));
    if (kind === 'containerResource') {
      const container = stringAt(src, 'container');
      if (container === '') errs.push(required(child(path, 'container'), 'must specify a container'));
      else errs.push(...invalidEach(child(path, 'container'), container, isDNS1123Label(container)));
    }
    errs.push(...validateTarget(target, tPath));
    if (!isSet(target, 'averageUtilization') && !isSet(target, 'averageValue')) errs.push(required(child(tPath, 'averageUtilization'), 'must set either a target raw value or a target utilization'));
    if (isSet(target, 'averageUtilization') && isSet(target, 'averageValue')) errs.push(forbidden(child(tPath, 'averageValue'), 'may not set both a target raw value and a target utilization'));
    return errs;
  }
  if (kind === 'object') {
    const ref = objectAt(src, 'describedObject') ?? {};
    errs.push(...validateObjectReference(ref, child(path, 'describedObject')));
  }
  errs.push(...validateIdentifier(objectAt(src, 'metric') ?? {}, child(path, 'metric')), ...validateTarget(target, tPath));
  if (kind === 'object' && !isSet(target, 'value') && !isSet(target, 'averageValue')) errs.push(required(child(tPath, 'averageValue'), 'must set either a target value or averageValue'));
  if (kind === 'external') {
    if (!isSet(target, 'value') && !isSet(target, 'averageValue')) errs.push(required(child(tPath, 'averageValue'), 'must set either a target value for metric or a per-pod target'));
    if (isSet(target, 'value') && isSet(target, 'averageValue')) errs.push(forbidden(child(tPath, 'value'), 'may not set both a target value for metric and a per-pod target'));
  }
  if (kind === 'pods' && !isSet(target, 'averageValue')) errs.push(required(child(tPath, 'averageValue'), 'must specify a positive target averageValue'));
  return errs;
}

/**
 * `ValidateCrossVersionObjectReference` (the scale target, an Object metric's object).
 *
 * @example
 * ```ts
 * validateObjectReference({}, 'spec.scaleTargetRef'); // [spec.scaleTargetRef.kind: Required value, spec.scaleTargetRef.name: Required value]
 * ```
 */
export function validateObjectReference(ref: JsonObject, path: string): FieldError[] {
  const errs: FieldError[] = [];
  for (const key of ['kind', 'name']) {
    const v = stringAt(ref, key);
    if (v === '') errs.push(required(child(path, key)));
    else errs.push(...invalidEach(child(path, key), v, isPathSegmentName(v)));
  }
  const apiVersion = stringAt(ref, 'apiVersion');
  if (apiVersion.split('/').length > 2) errs.push(invalidValue(child(path, 'apiVersion'), apiVersion, `unexpected GroupVersion string: ${apiVersion}`));
  return errs;
}

/**
 * `validateMetricSpec` for each of `spec.metrics`, and the scale-to-zero rule.
 *
 * @example
 * ```ts
 * validateMetrics({ metrics: [{ type: 'Resource' }] }, 'spec.metrics');
 * // [spec.metrics[0].resource: Required value: must populate information for the given metric source]
 * ```
 */
export function validateMetrics(spec: JsonObject, path: string): FieldError[] {
  const errs: FieldError[] = [];
  let objectOrExternal = false;
  for (const [metric, i] of objectsAt(spec, 'metrics')) {
    const p = index(path, i);
    const type = stringAt(metric, 'type');
    if (type === '') errs.push(required(child(p, 'type'), 'must specify a metric source type'));
    if (!SOURCE_TYPES.includes(type)) errs.push(notSupported(child(p, 'type'), type, SOURCE_TYPES));
    const present = SOURCE_FIELDS.filter(([k]) => objectAt(metric, k));
    if (present.length > 0) errs.push(...validateSource(present[0][0], objectAt(metric, present[0][0]) ?? {}, child(p, present[0][0])));
    const expected = SOURCE_FIELDS.find(([, t]) => t === type);
    if (expected && !objectAt(metric, expected[0])) errs.push(required(child(p, expected[0]), 'must populate information for the given metric source'));
    if (!expected) errs.push(notSupported(child(p, 'type'), type, SOURCE_TYPES));
    if (present.length !== 1) for (const [k] of present) if (k !== expected?.[0]) errs.push(forbidden(child(p, k), 'must populate the given metric source only'));
    if (type === 'Object' || type === 'External') objectOrExternal = true;
  }
  if (spec.minReplicas === 0 && !objectOrExternal) errs.push(forbidden(path, 'must specify at least one Object or External metric to support scaling to zero replicas'));
  return errs;
}

function validateRules(rules: JsonObject | undefined, path: string): FieldError[] {
  if (!rules) return [];
  const errs: FieldError[] = [];
  const window = rules.stabilizationWindowSeconds;
  if (typeof window === 'number' && window < 0) errs.push(invalidValue(child(path, 'stabilizationWindowSeconds'), window, 'must be greater than or equal to zero'));
  if (typeof window === 'number' && window > MAX_STABILIZATION_WINDOW) errs.push(invalidValue(child(path, 'stabilizationWindowSeconds'), window, `must be less than or equal to ${MAX_STABILIZATION_WINDOW}`));
  const select = rules.selectPolicy;
  if (typeof select === 'string' && !['Disabled', 'Max', 'Min'].includes(select)) errs.push(notSupported(child(path, 'selectPolicy'), select, ['Disabled', 'Max', 'Min']));
  const policies = objectsAt(rules, 'policies');
  if (policies.length === 0) errs.push(required(child(path, 'policies'), 'must specify at least one Policy'));
  for (const [policy, i] of policies) {
    const p = index(child(path, 'policies'), i);
    const type = stringAt(policy, 'type');
    if (type !== 'Pods' && type !== 'Percent') errs.push(notSupported(child(p, 'type'), type, ['Percent', 'Pods']));
    const value = typeof policy.value === 'number' ? policy.value : 0;
    if (value <= 0) errs.push(invalidValue(child(p, 'value'), value, 'must be greater than zero'));
    const period = typeof policy.periodSeconds === 'number' ? policy.periodSeconds : 0;
    if (period <= 0) errs.push(invalidValue(child(p, 'periodSeconds'), period, 'must be greater than zero'));
    if (period > MAX_PERIOD) errs.push(invalidValue(child(p, 'periodSeconds'), period, `must be less than or equal to ${MAX_PERIOD}`));
  }
  return errs;
}

/**
 * `validateBehavior`: each scaling direction's window, select policy and policies.
 *
 * @example
 * ```ts
 * validateBehavior({ behavior: { scaleUp: { policies: [] } } }, 'spec.behavior');
 * ```
 */
export function validateBehavior(spec: JsonObject, path: string): FieldError[] {
  const behavior = objectAt(spec, 'behavior');
  if (!behavior) return [];
  return [...validateRules(objectAt(behavior, 'scaleUp'), child(path, 'scaleUp')), ...validateRules(objectAt(behavior, 'scaleDown'), child(path, 'scaleDown'))];
}
