import type { FieldError } from '../../../status.js';
import { child, forbidden, required } from '../../../schema/fieldErrors.js';
import { isObject, listAt, objectAt } from '../support/json.js';
import { validateAnnotations, validateLabels } from '../support/labels.js';
import { validatePodSpec } from './podSpecValidation.js';

// core validation's ValidatePodTemplateSpec: the template's labels and annotations (kube reports
// them at `<template>.labels`, not under `metadata`), its PodSpec, and no ephemeral containers.

/**
 * `ValidatePodTemplateSpec` at `path` (e.g. `spec.template`).
 *
 * @example
 * ```ts
 * validatePodTemplateSpec(deployment.spec.template, 'spec.template');
 * ```
 */
export function validatePodTemplateSpec(template: unknown, path: string): FieldError[] {
  if (!isObject(template)) return [required(path)];
  const metadata = objectAt(template, 'metadata');
  const spec = objectAt(template, 'spec') ?? {};
  const errs = [...validateLabels(metadata?.labels, child(path, 'labels')), ...validateAnnotations(metadata?.annotations, child(path, 'annotations'))];
  errs.push(...validatePodSpec(spec, child(path, 'spec')));
  if (listAt(spec, 'ephemeralContainers').length > 0) {
    errs.push(forbidden(child(child(path, 'spec'), 'ephemeralContainers'), 'ephemeral containers not allowed in pod template'));
  }
  return errs;
}
