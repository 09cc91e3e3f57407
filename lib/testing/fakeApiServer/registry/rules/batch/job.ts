import type { JsonObject } from '../../../resources.js';
import type { FieldError } from '../../../status.js';
import type { TypeRules } from '../../typeRules.js';
import { child, invalidValue } from '../../../schema/fieldErrors.js';
import { decodingDefaults } from '../support/decoding.js';
import { FIELD_IMMUTABLE } from '../support/errors.js';
import { cloneJson, ensureObject, isObject, objectAt, objectsAt, semanticEqual, setDefault, stringAt } from '../support/json.js';
import { renderSelector } from '../support/labels.js';
import { defaultPodTemplate } from '../core/podSpecDefaults.js';
import { templateWorkloadWarnings } from '../core/podWarnings.js';
import { validateJob, validateJobSpec } from './jobValidation.js';

// Job (batch/v1): SetDefaults_Job, the strategy's selector generation (PrepareForCreate, which
// needs the uid: it runs from `allocate`, and validation runs it on a copy so the order the
// pipeline calls them in does not matter), ValidateJob and ValidateJobUpdate.

const MAX_INT32 = 2147483647;

/**
 * SetDefaults_PodFailurePolicyOnPodConditionsPattern for every rule of a podFailurePolicy.
 *
 * @example
 * ```ts
 * defaultPodFailurePolicy(jobSpec); // each onPodConditions pattern gets status: 'True'
 * ```
 */
export function defaultPodFailurePolicy(spec: JsonObject): void {
  for (const [rule] of objectsAt(objectAt(spec, 'podFailurePolicy'), 'rules')) {
    for (const [pattern] of objectsAt(rule, 'onPodConditions')) {
      if (typeof pattern.status !== 'string' || pattern.status === '') pattern.status = 'True';
    }
  }
}

function defaultJob(job: JsonObject): void {
  const spec = ensureObject(job, 'spec');
  if ((spec.completions === undefined || spec.completions === null) && (spec.parallelism === undefined || spec.parallelism === null)) {
    spec.completions = 1;
    spec.parallelism = 1;
  }
  setDefault(spec, 'parallelism', 1);
  setDefault(spec, 'backoffLimit', typeof spec.backoffLimitPerIndex === 'number' ? MAX_INT32 : 6);
  const templateLabels = objectAt(objectAt(objectAt(spec, 'template'), 'metadata'), 'labels');
  const metadata = ensureObject(job, 'metadata');
  if (templateLabels && (!isObject(metadata.labels) || Object.keys(metadata.labels).length === 0)) metadata.labels = cloneJson(templateLabels);
  setDefault(spec, 'completionMode', 'NonIndexed');
  setDefault(spec, 'suspend', false);
  setDefault(spec, 'podReplacementPolicy', isObject(spec.podFailurePolicy) ? 'Failed' : 'TerminatingOrFailed');
  setDefault(spec, 'manualSelector', false);
  defaultPodFailurePolicy(spec);
  defaultPodTemplate(ensureObject(spec, 'template'));
}

/**
 * The Job strategy's `generateSelector` (unless `manualSelector`): the template gets the
 * `controller-uid`/`job-name` labels (legacy and `batch.kubernetes.io/` ones) the user did not
 * set, the selector the uid label. Needs `metadata.uid`.
 *
 * @example
 * ```ts
 * prepareJobForCreate(job); // job.spec.selector.matchLabels['batch.kubernetes.io/controller-uid'] === job.metadata.uid
 * ```
 */
export function prepareJobForCreate(job: JsonObject): void {
  const spec = ensureObject(job, 'spec');
  if (spec.manualSelector === true) return;
  const metadata = objectAt(job, 'metadata');
  const uid = stringAt(metadata, 'uid');
  const name = stringAt(metadata, 'name');
  const templateMeta = ensureObject(ensureObject(spec, 'template'), 'metadata');
  const labels = ensureObject(templateMeta, 'labels');
  for (const key of ['job-name', 'batch.kubernetes.io/job-name']) if (!(key in labels)) labels[key] = name;
  for (const key of ['controller-uid', 'batch.kubernetes.io/controller-uid']) if (!(key in labels)) labels[key] = uid;
  const selector = ensureObject(spec, 'selector');
  const matchLabels = ensureObject(selector, 'matchLabels');
  if (!('batch.kubernetes.io/controller-uid' in matchLabels)) matchLabels['batch.kubernetes.io/controller-uid'] = uid;
}

function preparedCopy(job: JsonObject): JsonObject {
  const copy = cloneJson(job);
  prepareJobForCreate(copy);
  return copy;
}

/** The old template with the fields a suspended, never-started Job may change taken from the new one. */
function comparableOldTemplate(template: unknown, oldTemplate: unknown): unknown {
  const t = cloneJson(isObject(oldTemplate) ? oldTemplate : {});
  const n = isObject(template) ? template : {};
  const tSpec = ensureObject(t, 'spec');
  const nSpec = objectAt(n, 'spec') ?? {};
  const nAffinity = objectAt(nSpec, 'affinity');
  const oAffinity = objectAt(tSpec, 'affinity');
  if (!nAffinity && oAffinity) {
    delete oAffinity.nodeAffinity;
    if (Object.keys(oAffinity).length === 0) delete tSpec.affinity;
  } else if (nAffinity && !oAffinity) tSpec.affinity = { nodeAffinity: nAffinity.nodeAffinity };
  else if (nAffinity && oAffinity) oAffinity.nodeAffinity = nAffinity.nodeAffinity;
  for (const key of ['nodeSelector', 'tolerations', 'schedulingGates']) tSpec[key] = nSpec[key];
  const tMeta = ensureObject(t, 'metadata');
  const nMeta = objectAt(n, 'metadata') ?? {};
  tMeta.annotations = nMeta.annotations;
  tMeta.labels = nMeta.labels;
  return t;
}

function validateJobUpdate(job: JsonObject, old: JsonObject): FieldError[] {
  const spec = objectAt(job, 'spec') ?? {};
  const oldSpec = objectAt(old, 'spec') ?? {};
  const oldLabels = objectAt(objectAt(objectAt(oldSpec, 'template'), 'metadata'), 'labels') ?? {};
  const requirePrefixed = 'batch.kubernetes.io/job-name' in oldLabels && 'batch.kubernetes.io/controller-uid' in oldLabels;
  // kube's strategy validates the spec twice on update (ValidateJob, then ValidateJobSpecUpdate).
  const errs = [...validateJob(job, requirePrefixed), ...validateJobSpec(spec, 'spec')];
  errs.push(...validateCompletionsUpdate(spec, oldSpec));
  if (!semanticEqual(spec.selector, oldSpec.selector)) errs.push(invalidValue('spec.selector', renderSelector(spec.selector), FIELD_IMMUTABLE));
  const startTime = objectAt(old, 'status')?.startTime;
  const mutableScheduling = oldSpec.suspend === true && (startTime === undefined || startTime === null);
  const oldTemplate = mutableScheduling ? comparableOldTemplate(spec.template, oldSpec.template) : oldSpec.template;
  if (!semanticEqual(spec.template, oldTemplate)) errs.push(invalidValue('spec.template', spec.template ?? null, FIELD_IMMUTABLE));
  for (const key of ['completionMode', 'podFailurePolicy', 'backoffLimitPerIndex', 'managedBy', 'successPolicy']) {
    if (!semanticEqual(spec[key], oldSpec[key])) errs.push(invalidValue(child('spec', key), spec[key] ?? null, FIELD_IMMUTABLE));
  }
  return errs;
}

/** `validateCompletions` with ElasticIndexedJob (GA): an Indexed Job may change completions together with parallelism. */
function validateCompletionsUpdate(spec: JsonObject, oldSpec: JsonObject): FieldError[] {
  if (semanticEqual(spec.completions, oldSpec.completions)) return [];
  if (spec.completionMode !== 'Indexed') return [invalidValue('spec.completions', spec.completions ?? null, FIELD_IMMUTABLE)];
  if (typeof spec.completions !== 'number') return [];
  return spec.completions !== spec.parallelism ? [invalidValue('spec.completions', spec.completions, 'can only be modified in tandem with spec.parallelism')] : [];
}

/**
 * The Job's rules.
 *
 * @example
 * ```ts
 * const job = { apiVersion: 'batch/v1', kind: 'Job', spec: { template: { spec: { restartPolicy: 'Never', containers: [] } } } };
 * jobRules.defaults?.(job); // completions 1, parallelism 1, backoffLimit 6, completionMode NonIndexed, ...
 * ```
 */
export const jobRules: TypeRules = {
  defaults: decodingDefaults('Job', defaultJob),
  validateCreate: (job) => validateJob(preparedCopy(job), true),
  validateUpdate: validateJobUpdate,
  allocate: (job, old) => {
    if (!old) prepareJobForCreate(job);
    return [];
  },
  warnings: (job, old) =>
    templateWorkloadWarnings({
      obj: job,
      old,
      template: objectAt(job, 'spec')?.template,
      oldTemplate: old ? objectAt(old, 'spec')?.template : undefined,
      templatePath: 'spec.template',
      nameWarning: true,
    }),
};
