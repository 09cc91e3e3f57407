import type { JsonObject } from '../../../resources.js';
import type { FieldError } from '../../../status.js';
import { child, invalidValue, notSupported, required, tooLong, tooMany } from '../../../schema/fieldErrors.js';
import { nonNegative } from '../support/errors.js';
import { isObject, listAt, objectAt, sortedMap, stringAt } from '../support/json.js';
import { parseSelector, renderSelector, selectorMatches, validateLabelSelector } from '../support/labels.js';
import { isDNS1123Label, isDNS1123Subdomain } from '../support/names.js';
import { validatePodTemplateSpec } from '../core/podTemplateValidation.js';

// batch validation's validateJobSpec (shared by Jobs and CronJobs' jobTemplate), the Job's own
// selector rules (ValidateJobSpec) and validateGeneratedSelector.

const MAX_INDEXED_PARALLELISM = 100000;

function validateCompletionMode(spec: JsonObject, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const mode = spec.completionMode;
  if (typeof mode === 'string') {
    if (mode !== 'NonIndexed' && mode !== 'Indexed') errs.push(notSupported(child(path, 'completionMode'), mode, ['NonIndexed', 'Indexed']));
    if (mode === 'Indexed') {
      if (typeof spec.completions !== 'number') errs.push(required(child(path, 'completions'), 'when completion mode is Indexed'));
      if (typeof spec.parallelism === 'number' && spec.parallelism > MAX_INDEXED_PARALLELISM) {
        errs.push(invalidValue(child(path, 'parallelism'), spec.parallelism, `must be less than or equal to ${MAX_INDEXED_PARALLELISM} when completion mode is Indexed`));
      }
      if (typeof spec.completions === 'number' && typeof spec.maxFailedIndexes === 'number' && spec.maxFailedIndexes > spec.completions) {
        errs.push(invalidValue(child(path, 'maxFailedIndexes'), spec.maxFailedIndexes, 'must be less than or equal to completions'));
      }
    }
  }
  if (mode === undefined || mode === null || mode === 'NonIndexed') {
    for (const key of ['backoffLimitPerIndex', 'maxFailedIndexes']) {
      if (typeof spec[key] === 'number') errs.push(invalidValue(child(path, key), spec[key], 'requires indexed completion mode'));
    }
  }
  return errs;
}

function validateRestartPolicy(spec: JsonObject, path: string): FieldError[] {
  const restartPolicy = stringAt(objectAt(objectAt(spec, 'template'), 'spec'), 'restartPolicy');
  const p = child(child(child(path, 'template'), 'spec'), 'restartPolicy');
  if (restartPolicy === 'Always' || restartPolicy === '') return [required(p, 'valid values: "OnFailure", "Never"')];
  if (restartPolicy !== 'OnFailure' && restartPolicy !== 'Never') return [notSupported(p, restartPolicy, ['OnFailure', 'Never'])];
  if (isObject(spec.podFailurePolicy) && restartPolicy !== 'Never') return [invalidValue(p, restartPolicy, 'only "Never" is supported when podFailurePolicy is specified')];
  return [];
}

/**
 * `validateJobSpec`: counts, completion mode, policies, the template and its restart policy.
 *
 * @example
 * ```ts
 * validateJobSpecFields({ template: { spec: { restartPolicy: 'Always', containers: [] } } }, 'spec');
 * ```
 */
export function validateJobSpecFields(spec: JsonObject, path: string): FieldError[] {
  const errs: FieldError[] = [];
  for (const key of ['parallelism', 'completions', 'activeDeadlineSeconds', 'backoffLimit', 'ttlSecondsAfterFinished', 'backoffLimitPerIndex']) {
    errs.push(...nonNegative(child(path, key), spec[key]));
  }
  if (typeof spec.maxFailedIndexes === 'number') {
    errs.push(...nonNegative(child(path, 'maxFailedIndexes'), spec.maxFailedIndexes));
    if (typeof spec.backoffLimitPerIndex !== 'number') errs.push(required(child(path, 'backoffLimitPerIndex'), 'when maxFailedIndexes is specified'));
  }
  const managedBy = spec.managedBy;
  if (typeof managedBy === 'string') {
    const slash = managedBy.indexOf('/');
    if (slash <= 0 || slash === managedBy.length - 1) errs.push(invalidValue(child(path, 'managedBy'), managedBy, 'must be a domain-prefixed path (such as "acme.io/foo")'));
    else errs.push(...isDNS1123Subdomain(managedBy.slice(0, slash)).map((m) => invalidValue(child(path, 'managedBy'), managedBy.slice(0, slash), m)));
    if (managedBy.length > 63) errs.push(tooLong(child(path, 'managedBy'), 63));
  }
  errs.push(...validateCompletionMode(spec, path));
  const rules = listAt(objectAt(spec, 'podFailurePolicy'), 'rules');
  if (rules.length > 20) errs.push(tooMany(child(child(path, 'podFailurePolicy'), 'rules'), rules.length, 20));
  if (isObject(spec.successPolicy) && spec.completionMode !== 'Indexed') errs.push(invalidValue(child(path, 'successPolicy'), spec.successPolicy, 'requires indexed completion mode'));
  const replacement = spec.podReplacementPolicy;
  if (typeof replacement === 'string') {
    if (isObject(spec.podFailurePolicy)) {
      if (replacement !== 'Failed') errs.push(notSupported(child(path, 'podReplacementPolicy'), replacement, ['Failed']));
    } else if (replacement !== 'Failed' && replacement !== 'TerminatingOrFailed') {
      errs.push(notSupported(child(path, 'podReplacementPolicy'), replacement, ['Failed', 'TerminatingOrFailed']));
    }
  }
  errs.push(...validatePodTemplateSpec(isObject(spec.template) ? spec.template : {}, child(path, 'template')));
  errs.push(...validateRestartPolicy(spec, path));
  return errs;
}

/**
 * `ValidateJobSpec`: the fields, a required selector matching the template's labels.
 *
 * @example
 * ```ts
 * validateJobSpec(job.spec, 'spec');
 * ```
 */
export function validateJobSpec(spec: JsonObject, path: string): FieldError[] {
  const errs = validateJobSpecFields(spec, path);
  if (spec.selector === undefined || spec.selector === null) errs.push(required(child(path, 'selector')));
  else errs.push(...validateLabelSelector(spec.selector, child(path, 'selector')));
  const selector = parseSelector(spec.selector);
  const labels = objectAt(objectAt(objectAt(spec, 'template'), 'metadata'), 'labels');
  if (selector.kind !== 'invalid' && !selectorMatches(selector, labels)) {
    errs.push(invalidValue(child(child(child(path, 'template'), 'metadata'), 'labels'), labels ? sortedMap(labels) : null, '`selector` does not match template `labels`'));
  }
  return errs;
}

function hasLabel(labels: JsonObject | undefined, key: string, expected: string): FieldError[] {
  const p = `spec.template.metadata.labels[${key}]`;
  if (!labels || !(key in labels)) return [required(p, `must be '${expected}'`)];
  return labels[key] === expected ? [] : [invalidValue(p, sortedMap(labels), `must be '${expected}'`)];
}

/**
 * `validateGeneratedSelector`: with a generated selector, the template carries the Job's uid and
 * name labels and the selector selects them.
 *
 * @example
 * ```ts
 * validateGeneratedSelector(job, true);
 * ```
 */
export function validateGeneratedSelector(job: JsonObject, requirePrefixedLabels: boolean): FieldError[] {
  const spec = objectAt(job, 'spec') ?? {};
  if (spec.manualSelector === true || spec.selector === undefined || spec.selector === null) return [];
  const metadata = objectAt(job, 'metadata');
  const uid = stringAt(metadata, 'uid');
  const name = stringAt(metadata, 'name');
  const errs: FieldError[] = uid === '' ? [required('metadata.uid')] : [];
  const labels = objectAt(objectAt(objectAt(spec, 'template'), 'metadata'), 'labels');
  errs.push(...hasLabel(labels, 'controller-uid', uid), ...hasLabel(labels, 'job-name', name));
  const expected: JsonObject = {};
  if (requirePrefixedLabels) {
    errs.push(...hasLabel(labels, 'batch.kubernetes.io/controller-uid', uid), ...hasLabel(labels, 'batch.kubernetes.io/job-name', name));
    expected['batch.kubernetes.io/controller-uid'] = uid;
    expected['batch.kubernetes.io/job-name'] = name;
  }
  expected['controller-uid'] = uid;
  expected['job-name'] = name;
  const selector = parseSelector(spec.selector);
  if (selector.kind !== 'invalid' && !selectorMatches(selector, expected)) errs.push(invalidValue('spec.selector', renderSelector(spec.selector), '`selector` not auto-generated'));
  return errs;
}

/**
 * `ValidateJob` beyond ObjectMeta: the generated selector, the spec, and an Indexed Job's last
 * pod hostname.
 *
 * @example
 * ```ts
 * validateJob(job, true);
 * ```
 */
export function validateJob(job: JsonObject, requirePrefixedLabels: boolean): FieldError[] {
  const spec = objectAt(job, 'spec') ?? {};
  const errs = [...validateGeneratedSelector(job, requirePrefixedLabels), ...validateJobSpec(spec, 'spec')];
  if (spec.completionMode === 'Indexed' && typeof spec.completions === 'number' && spec.completions > 0) {
    const name = stringAt(objectAt(job, 'metadata'), 'name');
    const hostname = `${name}-${spec.completions - 1}`;
    if (isDNS1123Label(hostname).length > 0) errs.push(invalidValue('metadata.name', name, `will not able to create pod with invalid DNS label: ${hostname}`));
  }
  return errs;
}
