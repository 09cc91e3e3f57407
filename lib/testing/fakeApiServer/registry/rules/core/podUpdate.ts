import type { JsonObject } from '../../../resources.js';
import type { FieldError } from '../../../status.js';
import { child, forbidden, index, invalidValue, required } from '../../../schema/fieldErrors.js';
import { cloneJson, listAt, objectsAt, semanticEqual, stringAt } from '../support/json.js';
import { inclusiveRangeError } from '../support/names.js';
import { validateOnlyAddedTolerations } from './tolerations.js';

// core validation's ValidatePodUpdate beyond the full spec validation: a Pod's spec is immutable
// but for container images, activeDeadlineSeconds (only down), added tolerations, removed
// scheduling gates and a negative grace period raised to 1. Kube appends a diff of the specs
// to the message; it is Go's rendering of internal structs, so the message stops before it.

const MAX_INT32 = 2147483647;

/**
 * The fields kube names as mutable in a Pod update's Forbidden message.
 *
 * @example
 * ```ts
 * `pod updates may not change fields other than ${UPDATABLE_POD_SPEC_FIELDS}`;
 * ```
 */
export const UPDATABLE_POD_SPEC_FIELDS =
  '`spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)';

function containerUpdates(spec: JsonObject, oldSpec: JsonObject, key: string): { errors: FieldError[]; stop: boolean } {
  const path = child('spec', key);
  if (listAt(spec, key).length !== listAt(oldSpec, key).length) return { errors: [forbidden(path, 'pod updates may not add or remove containers')], stop: true };
  const errors: FieldError[] = [];
  for (const [c, i] of objectsAt(spec, key)) {
    const image = stringAt(c, 'image');
    if (image === '') errors.push(required(child(index(path, i), 'image')));
    if (image.trim() !== image) errors.push(invalidValue(child(index(path, i), 'image'), image, 'must not have leading or trailing whitespace'));
  }
  return { errors, stop: false };
}

function activeDeadline(spec: JsonObject, oldSpec: JsonObject): FieldError[] {
  const path = 'spec.activeDeadlineSeconds';
  const value = spec.activeDeadlineSeconds;
  const old = oldSpec.activeDeadlineSeconds;
  if (typeof value === 'number') {
    if (value < 0 || value > MAX_INT32) return [invalidValue(path, value, inclusiveRangeError(0, MAX_INT32))];
    if (typeof old === 'number' && old < value) return [invalidValue(path, value, 'must be less than or equal to previous value')];
    return [];
  }
  return typeof old === 'number' ? [invalidValue(path, null, 'must not update from a positive integer to nil value')] : [];
}

function addedSchedulingGates(spec: JsonObject, oldSpec: JsonObject): FieldError[] {
  const old = new Set(objectsAt(oldSpec, 'schedulingGates').map(([g]) => stringAt(g, 'name')));
  return objectsAt(spec, 'schedulingGates')
    .filter(([g]) => !old.has(stringAt(g, 'name')))
    .map(([g, i]) => forbidden(child(index('spec.schedulingGates', i), 'name'), `only deletion is allowed, but found new scheduling gate '${stringAt(g, 'name')}'`));
}

/** The new spec with its mutable fields taken from the old one, for the equality check. */
function munged(spec: JsonObject, oldSpec: JsonObject): JsonObject {
  const m = cloneJson(spec);
  for (const key of ['containers', 'initContainers']) {
    const old = listAt(oldSpec, key);
    for (const [c, i] of objectsAt(m, key)) {
      const o = old[i];
      c.image = o && typeof o === 'object' ? (o as JsonObject).image : undefined;
    }
  }
  m.activeDeadlineSeconds = oldSpec.activeDeadlineSeconds;
  m.schedulingGates = oldSpec.schedulingGates;
  m.tolerations = oldSpec.tolerations;
  const oldGrace = oldSpec.terminationGracePeriodSeconds;
  if (typeof oldGrace === 'number' && oldGrace < 0 && m.terminationGracePeriodSeconds === 1) m.terminationGracePeriodSeconds = oldGrace;
  return m;
}

/**
 * The update-only causes of ValidatePodUpdate (the full spec validation runs besides).
 *
 * @example
 * ```ts
 * validatePodSpecUpdate({ containers: [{ name: 'a', image: 'x', ports: [] }], restartPolicy: 'Never' }, oldSpec);
 * // [spec: Forbidden: pod updates may not change fields other than ...]
 * ```
 */
export function validatePodSpecUpdate(spec: JsonObject, oldSpec: JsonObject): FieldError[] {
  const containers = containerUpdates(spec, oldSpec, 'containers');
  if (containers.stop) return containers.errors;
  const inits = containerUpdates(spec, oldSpec, 'initContainers');
  const errors = [...containers.errors, ...inits.errors];
  if (inits.stop) return errors;
  const deadline = activeDeadline(spec, oldSpec);
  errors.push(...deadline);
  if (deadline.length > 0 && typeof spec.activeDeadlineSeconds === 'number') return errors;
  errors.push(...validateOnlyAddedTolerations(spec, oldSpec, 'spec.tolerations'));
  errors.push(...addedSchedulingGates(spec, oldSpec));
  if (!semanticEqual(munged(spec, oldSpec), oldSpec)) {
    errors.push(forbidden('spec', `pod updates may not change fields other than ${UPDATABLE_POD_SPEC_FIELDS}`));
  }
  return errors;
}
