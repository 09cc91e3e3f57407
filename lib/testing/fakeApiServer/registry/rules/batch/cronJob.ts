import type { JsonObject } from '../../../resources.js';
import type { FieldError } from '../../../status.js';
import type { TypeRules } from '../../typeRules.js';
import { child, invalidValue, notSupported, required } from '../../../schema/fieldErrors.js';
import { decodingDefaults } from '../support/decoding.js';
import { nonNegative } from '../support/errors.js';
import { ensureObject, objectAt, setDefault, stringAt } from '../support/json.js';
import { renderSelector } from '../support/labels.js';
import { defaultPodTemplate } from '../core/podSpecDefaults.js';
import { templateWorkloadWarnings } from '../core/podWarnings.js';
import { cronScheduleError, isTimeZone } from './cronSchedule.js';
import { defaultPodFailurePolicy } from './job.js';
import { validateJobSpecFields } from './jobValidation.js';

// CronJob (batch/v1): SetDefaults_CronJob (the jobTemplate's pod template and failure policy are
// defaulted, not its Job spec), ValidateCronJobCreate / ValidateCronJobUpdate.

const CONCURRENCY = ['Allow', 'Forbid', 'Replace'];

function defaultCronJob(obj: JsonObject): void {
  const spec = ensureObject(obj, 'spec');
  if (typeof spec.concurrencyPolicy !== 'string' || spec.concurrencyPolicy === '') spec.concurrencyPolicy = 'Allow';
  setDefault(spec, 'suspend', false);
  setDefault(spec, 'successfulJobsHistoryLimit', 3);
  setDefault(spec, 'failedJobsHistoryLimit', 1);
  const jobSpec = ensureObject(ensureObject(spec, 'jobTemplate'), 'spec');
  defaultPodFailurePolicy(jobSpec);
  defaultPodTemplate(ensureObject(jobSpec, 'template'));
}

function validateSchedule(spec: JsonObject, oldSpec: JsonObject | undefined): FieldError[] {
  const schedule = stringAt(spec, 'schedule');
  if (schedule === '') return [required('spec.schedule')];
  const errs: FieldError[] = [];
  const err = cronScheduleError(schedule);
  if (err) errs.push(invalidValue('spec.schedule', schedule, err));
  const allowTZ = oldSpec !== undefined && stringAt(oldSpec, 'schedule').includes('TZ');
  if (allowTZ && schedule.includes('TZ') && typeof spec.timeZone === 'string') errs.push(invalidValue('spec.schedule', schedule, 'cannot use both timeZone field and TZ or CRON_TZ in schedule'));
  else if (!allowTZ && schedule.includes('TZ')) errs.push(invalidValue('spec.schedule', schedule, 'cannot use TZ or CRON_TZ in schedule, use timeZone field instead'));
  return errs;
}

function validateTimeZone(timeZone: unknown): FieldError[] {
  if (typeof timeZone !== 'string') return [];
  const path = 'spec.timeZone';
  if (timeZone === '') return [invalidValue(path, timeZone, 'timeZone must be nil or non-empty string')];
  for (const part of timeZone.split('/')) {
    if (part === '.' || part === '..' || part.startsWith('-') || !/^[A-Za-z.\-_0-9+]{1,14}$/.test(part)) return [invalidValue(path, timeZone, `unknown time zone ${timeZone}`)];
  }
  if (timeZone.toLowerCase() === 'local') return [invalidValue(path, timeZone, 'timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones')];
  return isTimeZone(timeZone) ? [] : [invalidValue(path, timeZone, `unknown time zone ${timeZone}`)];
}

function validateCronJobSpec(obj: JsonObject, old: JsonObject | undefined): FieldError[] {
  const spec = objectAt(obj, 'spec') ?? {};
  const oldSpec = old ? (objectAt(old, 'spec') ?? {}) : undefined;
  const errs = validateSchedule(spec, oldSpec);
  errs.push(...nonNegative('spec.startingDeadlineSeconds', spec.startingDeadlineSeconds));
  if (!oldSpec || oldSpec.timeZone !== spec.timeZone) errs.push(...validateTimeZone(spec.timeZone));
  const policy = stringAt(spec, 'concurrencyPolicy');
  if (policy === '') errs.push(required('spec.concurrencyPolicy'));
  else if (!CONCURRENCY.includes(policy)) errs.push(notSupported('spec.concurrencyPolicy', policy, CONCURRENCY));
  const jobSpec = objectAt(objectAt(spec, 'jobTemplate'), 'spec') ?? {};
  const jobSpecPath = 'spec.jobTemplate.spec';
  errs.push(...validateJobSpecFields(jobSpec, jobSpecPath));
  if (jobSpec.selector !== undefined && jobSpec.selector !== null) errs.push(invalidValue(child(jobSpecPath, 'selector'), renderSelector(jobSpec.selector), '`selector` will be auto-generated'));
  if (jobSpec.manualSelector === true) errs.push(notSupported(child(jobSpecPath, 'manualSelector'), true, ['nil', 'false']));
  errs.push(...nonNegative('spec.successfulJobsHistoryLimit', spec.successfulJobsHistoryLimit));
  errs.push(...nonNegative('spec.failedJobsHistoryLimit', spec.failedJobsHistoryLimit));
  return errs;
}

function validateCronJobCreate(obj: JsonObject): FieldError[] {
  const errs = validateCronJobSpec(obj, undefined);
  const name = stringAt(objectAt(obj, 'metadata'), 'name');
  // The controller appends an 11-character suffix to make Job names (at most 63).
  if (name.length > 52) errs.push(invalidValue('metadata.name', name, 'must be no more than 52 characters'));
  return errs;
}

/**
 * The CronJob's rules.
 *
 * @example
 * ```ts
 * cronJobRules.validateCreate?.({ spec: { schedule: 'every minute', jobTemplate: {} } });
 * // [spec.schedule: Invalid value: "every minute": expected exactly 5 fields, found 2: [every minute], ...]
 * ```
 */
export const cronJobRules: TypeRules = {
  defaults: decodingDefaults('CronJob', defaultCronJob),
  validateCreate: validateCronJobCreate,
  validateUpdate: (obj, old) => validateCronJobSpec(obj, old),
  warnings: (obj, old) => {
    const template = (o: JsonObject | undefined): unknown => objectAt(objectAt(objectAt(o, 'spec'), 'jobTemplate'), 'spec')?.template;
    return templateWorkloadWarnings({ obj, old, template: template(obj), oldTemplate: template(old), templatePath: 'spec.jobTemplate.spec.template', nameWarning: true });
  },
};
