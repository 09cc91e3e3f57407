// batch/v1 Jobs and CronJobs as `kubectl get` shows them (kube's printJob, printCronJob).
import type { JsonObject } from '../resources.js';
import { ageColumn, column, nameColumn, templateColumns } from './columns.js';
import { arr, at, createdOf, int, isDeleting, nameOf, obj, str } from './fields.js';
import { containerCells, formatLabelSelector } from './formats.js';
import { ageSince, humanDuration, parseTimestamp } from './humanDuration.js';
import type { PrintedRow, TablePrinter } from './table.js';

// The first condition of a type decides (kube's hasJobCondition).
const hasJobCondition = (job: JsonObject, type: string): boolean =>
  obj(arr(at(job, 'status', 'conditions')).find((c) => obj(c).type === type)).status === 'True';

function jobStatus(job: JsonObject): string {
  if (hasJobCondition(job, 'Complete')) return 'Complete';
  if (hasJobCondition(job, 'Failed')) return 'Failed';
  if (isDeleting(job)) return 'Terminating';
  if (hasJobCondition(job, 'Suspended')) return 'Suspended';
  if (hasJobCondition(job, 'FailureTarget')) return 'FailureTarget';
  return 'Running';
}

function completions(job: JsonObject): string {
  const succeeded = int(at(job, 'status', 'succeeded'));
  const completionsSet = typeof at(job, 'spec', 'completions') === 'number';
  const parallelism = at(job, 'spec', 'parallelism');
  // Read-time defaulting: neither set means completions 1 (and parallelism 1).
  if (completionsSet || typeof parallelism !== 'number') return `${succeeded}/${completionsSet ? int(at(job, 'spec', 'completions')) : 1}`;
  return int(parallelism) > 1 ? `${succeeded}/1 of ${int(parallelism)}` : `${succeeded}/1`;
}

function jobDuration(job: JsonObject, now: number): string {
  const start = parseTimestamp(at(job, 'status', 'startTime'));
  if (start === undefined) return '';
  const end = parseTimestamp(at(job, 'status', 'completionTime'));
  return humanDuration((end ?? now) - start);
}

/**
 * Jobs: Name, Status, Completions, Duration, Age | Containers, Images, Selector.
 *
 * @example
 * ```ts
 * jobPrinter.row(job, Date.now()).cells.slice(1, 4); // ['Complete', '1/1', '12s']
 * ```
 */
export const jobPrinter: TablePrinter = {
  columns: [
    nameColumn,
    column('Status', 'string', 'Status of the job.'),
    column('Completions'),
    column('Duration', 'string', 'Time required to complete the job.'),
    ageColumn,
    ...templateColumns(),
  ],
  row(job: JsonObject, now: number): PrintedRow {
    const [names, images] = containerCells(at(job, 'spec', 'template', 'spec', 'containers'));
    return {
      cells: [
        nameOf(job),
        jobStatus(job),
        completions(job),
        jobDuration(job, now),
        ageSince(createdOf(job), now),
        names,
        images,
        formatLabelSelector(at(job, 'spec', 'selector')),
      ],
    };
  },
};

// printBoolPtr: `True`, `False`, or `<unset>` (a string, though the column says boolean).
const boolText = (v: unknown): string => (v === true ? 'True' : v === false ? 'False' : '<unset>');

/**
 * CronJobs: Name, Schedule, Timezone, Suspend, Active (integer), Last Schedule, Age | Containers,
 * Images, Selector.
 *
 * @example
 * ```ts
 * cronJobPrinter.row(cronJob, Date.now()).cells.slice(1, 6); // ['*\/5 * * * *', '<none>', 'False', 0, '<none>']
 * ```
 */
export const cronJobPrinter: TablePrinter = {
  columns: [
    nameColumn,
    column('Schedule'),
    column('Timezone'),
    column('Suspend', 'boolean'),
    column('Active', 'integer'),
    column('Last Schedule'),
    ageColumn,
    ...templateColumns(),
  ],
  row(cj: JsonObject, now: number): PrintedRow {
    const [names, images] = containerCells(at(cj, 'spec', 'jobTemplate', 'spec', 'template', 'spec', 'containers'));
    const last = at(cj, 'status', 'lastScheduleTime');
    // suspend defaults to false when reading.
    const suspend = at(cj, 'spec', 'suspend');
    return {
      cells: [
        nameOf(cj),
        str(at(cj, 'spec', 'schedule')),
        typeof at(cj, 'spec', 'timeZone') === 'string' ? str(at(cj, 'spec', 'timeZone')) : '<none>',
        boolText(suspend === undefined ? false : suspend),
        arr(at(cj, 'status', 'active')).length,
        last === undefined || last === null ? '<none>' : ageSince(last, now),
        ageSince(createdOf(cj), now),
        names,
        images,
        formatLabelSelector(at(cj, 'spec', 'jobTemplate', 'spec', 'selector')),
      ],
    };
  },
};
