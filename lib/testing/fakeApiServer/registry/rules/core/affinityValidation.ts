import type { JsonObject } from '../../../resources.js';
import type { FieldError } from '../../../status.js';
import { child, forbidden, index, invalidValue, required } from '../../../schema/fieldErrors.js';
import { invalidEach } from '../support/errors.js';
import { isObject, listAt, objectAt, objectsAt, stringAt } from '../support/json.js';
import { validateLabelSelector } from '../support/labels.js';
import { isDNS1123Label, isLabelValue, isQualifiedName } from '../support/names.js';

// A PodSpec's `affinity` (core validation's validateAffinity): node selector requirements, and
// pod (anti-)affinity terms with their selector and topology key.

function validateNodeRequirement(req: JsonObject, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const values = listAt(req, 'values');
  const operator = stringAt(req, 'operator');
  if (operator === 'In' || operator === 'NotIn') {
    if (values.length === 0) errs.push(required(child(path, 'values'), "must be specified when `operator` is 'In' or 'NotIn'"));
  } else if (operator === 'Exists' || operator === 'DoesNotExist') {
    if (values.length > 0) errs.push(forbidden(child(path, 'values'), "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
  } else if (operator === 'Gt' || operator === 'Lt') {
    if (values.length !== 1) errs.push(required(child(path, 'values'), "must be specified single value when `operator` is 'Lt' or 'Gt'"));
  } else {
    errs.push(invalidValue(child(path, 'operator'), operator, 'not a valid selector operator'));
  }
  const key = stringAt(req, 'key');
  errs.push(...invalidEach(child(path, 'key'), key, isQualifiedName(key)));
  values.forEach((v, i) => {
    if (typeof v === 'string') errs.push(...invalidEach(index(child(path, 'values'), i), v, isLabelValue(v)));
  });
  return errs;
}

function validateNodeSelectorTerm(term: JsonObject, path: string): FieldError[] {
  return objectsAt(term, 'matchExpressions').flatMap(([req, j]) => validateNodeRequirement(req, index(child(path, 'matchExpressions'), j)));
}

function validateNodeAffinity(na: JsonObject, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const requiredTerms = objectAt(na, 'requiredDuringSchedulingIgnoredDuringExecution');
  if (requiredTerms) {
    const termsPath = child(child(path, 'requiredDuringSchedulingIgnoredDuringExecution'), 'nodeSelectorTerms');
    const terms = objectsAt(requiredTerms, 'nodeSelectorTerms');
    if (listAt(requiredTerms, 'nodeSelectorTerms').length === 0) errs.push(required(termsPath, 'must have at least one node selector term'));
    for (const [term, i] of terms) errs.push(...validateNodeSelectorTerm(term, index(termsPath, i)));
  }
  for (const [pref, i] of objectsAt(na, 'preferredDuringSchedulingIgnoredDuringExecution')) {
    const p = index(child(path, 'preferredDuringSchedulingIgnoredDuringExecution'), i);
    const weight = pref.weight;
    if (typeof weight !== 'number' || weight <= 0 || weight > 100) errs.push(invalidValue(child(p, 'weight'), weight ?? 0, 'must be in the range 1-100'));
    const preference = objectAt(pref, 'preference');
    if (preference) errs.push(...validateNodeSelectorTerm(preference, child(p, 'preference')));
  }
  return errs;
}

function validatePodAffinityTerm(term: JsonObject, path: string): FieldError[] {
  const errs = validateLabelSelector(term.labelSelector, child(path, 'labelSelector'));
  errs.push(...validateLabelSelector(term.namespaceSelector, child(path, 'namespaceSelector')));
  for (const ns of listAt(term, 'namespaces')) {
    if (typeof ns === 'string') errs.push(...invalidEach(child(path, 'namespace'), ns, isDNS1123Label(ns)));
  }
  const topologyKey = stringAt(term, 'topologyKey');
  if (topologyKey === '') errs.push(required(child(path, 'topologyKey'), 'can not be empty'));
  errs.push(...invalidEach(child(path, 'topologyKey'), topologyKey, isQualifiedName(topologyKey)));
  return errs;
}

function validatePodAffinity(affinity: JsonObject, path: string): FieldError[] {
  const errs: FieldError[] = [];
  for (const [term, i] of objectsAt(affinity, 'requiredDuringSchedulingIgnoredDuringExecution')) {
    errs.push(...validatePodAffinityTerm(term, index(child(path, 'requiredDuringSchedulingIgnoredDuringExecution'), i)));
  }
  for (const [weighted, i] of objectsAt(affinity, 'preferredDuringSchedulingIgnoredDuringExecution')) {
    const p = index(child(path, 'preferredDuringSchedulingIgnoredDuringExecution'), i);
    const weight = weighted.weight;
    if (typeof weight !== 'number' || weight <= 0 || weight > 100) errs.push(invalidValue(child(p, 'weight'), weight ?? 0, 'must be in the range 1-100'));
    errs.push(...validatePodAffinityTerm(objectAt(weighted, 'podAffinityTerm') ?? {}, child(p, 'podAffinityTerm')));
  }
  return errs;
}

/**
 * `validateAffinity` for `spec.affinity`.
 *
 * @example
 * ```ts
 * validateAffinity({ podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{}] } }, 'spec.affinity');
 * // [...topologyKey: Required value: can not be empty, ...]
 * ```
 */
export function validateAffinity(affinity: unknown, path: string): FieldError[] {
  if (!isObject(affinity)) return [];
  const errs: FieldError[] = [];
  const nodeAffinity = objectAt(affinity, 'nodeAffinity');
  if (nodeAffinity) errs.push(...validateNodeAffinity(nodeAffinity, child(path, 'nodeAffinity')));
  for (const key of ['podAffinity', 'podAntiAffinity']) {
    const a = objectAt(affinity, key);
    if (a) errs.push(...validatePodAffinity(a, child(path, key)));
  }
  return errs;
}
