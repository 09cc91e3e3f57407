import type { JsonObject } from '../../../resources.js';
import type { FieldError } from '../../../status.js';
import { child, forbidden, invalidValue, notSupported, required } from '../../../schema/fieldErrors.js';
import { FIELD_IMMUTABLE } from '../support/errors.js';
import { isObject, objectAt, objectsAt, semanticEqual, sortedMap, stringAt } from '../support/json.js';
import { parseSelector, renderSelector, selectorIsEmpty, selectorMatches, validateLabelSelector, type ParsedSelector } from '../support/labels.js';
import { validatePodTemplateSpec } from '../core/podTemplateValidation.js';
import type { TemplateWarningInput } from '../core/podWarnings.js';

// What apps validation checks alike for the controllers of pods: a required, non-empty
// selector that parses and matches the template's labels, the template itself, and (apps/v1
// strategies) a selector that never changes.

/**
 * The selector checks of Deployment, ReplicaSet and StatefulSet (`kind` names it in "empty
 * selector is invalid for <kind>"); returns the causes and the parsed selector when it parses.
 *
 * @example
 * ```ts
 * validateRequiredSelector({ selector: {} }, 'spec', 'deployment');
 * // errors: [spec.selector: Invalid value: {}: empty selector is invalid for deployment]
 * ```
 */
export function validateRequiredSelector(
  spec: JsonObject,
  path: string,
  kind: string,
  invalidDetail = 'invalid label selector',
): { errors: FieldError[]; selector?: ParsedSelector } {
  const errors: FieldError[] = [];
  const raw = spec.selector;
  const selPath = child(path, 'selector');
  if (raw === undefined || raw === null) errors.push(required(selPath));
  else {
    errors.push(...validateLabelSelector(raw, selPath));
    if (isObject(raw) && Object.keys(objectAt(raw, 'matchLabels') ?? {}).length + objectsAt(raw, 'matchExpressions').length === 0) {
      errors.push(invalidValue(selPath, renderSelector(raw), `empty selector is invalid for ${kind}`));
    }
  }
  const selector = parseSelector(raw);
  if (selector.kind === 'invalid') {
    errors.push(invalidValue(selPath, renderSelector(raw), invalidDetail));
    return { errors };
  }
  return { errors, selector };
}

/**
 * `` `selector` does not match template `labels` `` when a non-empty selector misses the
 * template's labels (a nil selector matches nothing, so it is reported too).
 *
 * @example
 * ```ts
 * selectorMismatch(parseSelector({ matchLabels: { app: 'a' } }), template, 'spec.template');
 * ```
 */
export function selectorMismatch(selector: ParsedSelector, template: unknown, templatePath: string): FieldError[] {
  if (selectorIsEmpty(selector)) return [];
  const labels = objectAt(objectAt(isObject(template) ? template : undefined, 'metadata'), 'labels');
  if (selectorMatches(selector, labels)) return [];
  return [invalidValue(child(child(templatePath, 'metadata'), 'labels'), labels ? sortedMap(labels) : null, '`selector` does not match template `labels`')];
}

/**
 * The template rules of workloads whose pods always restart: `restartPolicy: Always`, no
 * `activeDeadlineSeconds` (`kind` names the workload in kube's message).
 *
 * @example
 * ```ts
 * alwaysRestartTemplate(template, 'spec.template', 'ReplicaSet');
 * ```
 */
export function alwaysRestartTemplate(template: unknown, templatePath: string, kind: string): FieldError[] {
  const spec = objectAt(isObject(template) ? template : undefined, 'spec');
  const errs: FieldError[] = [];
  const restartPolicy = stringAt(spec, 'restartPolicy');
  const specPath = child(templatePath, 'spec');
  if (restartPolicy !== 'Always') errs.push(notSupported(child(specPath, 'restartPolicy'), restartPolicy, ['Always']));
  if (spec?.activeDeadlineSeconds !== undefined && spec.activeDeadlineSeconds !== null) {
    errs.push(forbidden(child(specPath, 'activeDeadlineSeconds'), `activeDeadlineSeconds in ${kind} is not Supported`));
  }
  return errs;
}

/**
 * `ValidatePodTemplateSpecForReplicaSet` (Deployments and ReplicaSets): labels against the
 * selector, the template, and the always-restart rules.
 *
 * @example
 * ```ts
 * validateTemplateForReplicaSet(spec.template, selector, 'spec.template');
 * ```
 */
export function validateTemplateForReplicaSet(template: unknown, selector: ParsedSelector, templatePath: string): FieldError[] {
  // The template is a struct (not a pointer) in Deployment and ReplicaSet: absent means empty.
  const t = isObject(template) ? template : {};
  return [...selectorMismatch(selector, t, templatePath), ...validatePodTemplateSpec(t, templatePath), ...alwaysRestartTemplate(t, templatePath, 'ReplicaSet')];
}

/**
 * The apps/v1 strategies' rule that `spec.selector` never changes.
 *
 * @example
 * ```ts
 * immutableSelector(newObj, oldObj); // [spec.selector: Invalid value: {"matchLabels":{"app":"b"}}: field is immutable]
 * ```
 */
export function immutableSelector(obj: JsonObject, old: JsonObject): FieldError[] {
  const selector = objectAt(obj, 'spec')?.selector;
  if (semanticEqual(selector, objectAt(old, 'spec')?.selector)) return [];
  return [invalidValue('spec.selector', renderSelector(selector), FIELD_IMMUTABLE)];
}

/**
 * The warning input of a workload whose template is at `spec.template`.
 *
 * @example
 * ```ts
 * templateWorkloadWarnings(specTemplateWarningInput(deployment, undefined, true));
 * ```
 */
export const specTemplateWarningInput = (obj: JsonObject, old: JsonObject | undefined, nameWarning: boolean): TemplateWarningInput => ({
  obj,
  old,
  template: objectAt(obj, 'spec')?.template,
  oldTemplate: old ? objectAt(old, 'spec')?.template : undefined,
  templatePath: 'spec.template',
  nameWarning,
});
