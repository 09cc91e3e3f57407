// kube's printers of Deployments, ReplicaSets, ReplicationControllers, StatefulSets, DaemonSets,
// Jobs and CronJobs: the cells `kubectl get [-o wide]` prints, unset fields read with kube's defaults.
import { describe, expect, it } from '@jest/globals';
import { cronJobPrinter, jobPrinter } from '../../../lib/testing/fakeApiServer/printers/batch.js';
import type { TablePrinter } from '../../../lib/testing/fakeApiServer/printers/table.js';
import {
  daemonSetPrinter,
  deploymentPrinter,
  replicaSetPrinter,
  replicationControllerPrinter,
  statefulSetPrinter,
} from '../../../lib/testing/fakeApiServer/printers/workloads.js';
import type { JsonObject } from '../../../lib/testing/fakeApiServer/resources.js';
import { minutesAgo, NOW, object } from './fixtures.js';

const template = { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'app', image: 'nginx:1.27' }, { name: 'log', image: 'busybox' }] } };
const selector = { matchLabels: { app: 'web' }, matchExpressions: [{ key: 'tier', operator: 'In', values: ['fe', 'be'] }] };

describe('workload printers', () => {
  it.each<[string, TablePrinter, string[]]>([
    ['deployments', deploymentPrinter, ['Name', 'Ready', 'Up-to-date', 'Available', 'Age', 'Containers', 'Images', 'Selector']],
    ['replicasets', replicaSetPrinter, ['Name', 'Desired', 'Current', 'Ready', 'Age', 'Containers', 'Images', 'Selector']],
    ['statefulsets', statefulSetPrinter, ['Name', 'Ready', 'Age', 'Containers', 'Images']],
    [
      'daemonsets',
      daemonSetPrinter,
      ['Name', 'Desired', 'Current', 'Ready', 'Up-to-date', 'Available', 'Node Selector', 'Age', 'Containers', 'Images', 'Selector'],
    ],
    ['jobs', jobPrinter, ['Name', 'Status', 'Completions', 'Duration', 'Age', 'Containers', 'Images', 'Selector']],
    ['cronjobs', cronJobPrinter, ['Name', 'Schedule', 'Timezone', 'Suspend', 'Active', 'Last Schedule', 'Age', 'Containers', 'Images', 'Selector']],
  ])('%s have kube columns, Containers onwards wide', (_t, printer, names) => {
    expect(printer.columns.map((c) => c.name)).toEqual(names);
    const wideFrom = names.indexOf('Containers');
    expect(printer.columns.map((c) => c.priority)).toEqual(names.map((_n, i) => (i >= wideFrom ? 1 : 0)));
  });

  it('types integer columns as kube does', () => {
    expect(replicaSetPrinter.columns.filter((c) => c.type === 'integer').map((c) => c.name)).toEqual(['Desired', 'Current', 'Ready']);
    expect(daemonSetPrinter.columns.filter((c) => c.type === 'integer').map((c) => c.name)).toEqual(['Desired', 'Current', 'Ready', 'Up-to-date', 'Available']);
    expect(cronJobPrinter.columns.find((c) => c.name === 'Suspend')?.type).toBe('boolean');
  });

  it.each<[string, TablePrinter, JsonObject, ReadonlyArray<unknown>]>([
    [
      'a deployment rolling out',
      deploymentPrinter,
      object('web', { spec: { replicas: 3, selector, template }, status: { readyReplicas: 2, updatedReplicas: 3, availableReplicas: 2 } }),
      ['web', '2/3', 3, 2, '5m', 'app,log', 'nginx:1.27,busybox', 'app=web,tier in (be,fe)'],
    ],
    [
      'a new deployment without replicas or status',
      deploymentPrinter,
      object('web', { spec: { template: { spec: { containers: [] } } } }),
      ['web', '0/1', 0, 0, '5m', '', '', ''],
    ],
    [
      'a deployment with a selector kube cannot parse',
      deploymentPrinter,
      object('web', { spec: { replicas: 0, selector: { matchExpressions: [{ key: 'a', operator: 'Near', values: ['x'] }] } } }),
      ['web', '0/0', 0, 0, '5m', '', '', '<invalid>'],
    ],
    [
      'a replicaset',
      replicaSetPrinter,
      object('web-7c9f', { spec: { replicas: 2, selector: { matchLabels: { app: 'web', 'pod-template-hash': '7c9f' } }, template }, status: { replicas: 2, readyReplicas: 1 } }),
      ['web-7c9f', 2, 2, 1, '5m', 'app,log', 'nginx:1.27,busybox', 'app=web,pod-template-hash=7c9f'],
    ],
    [
      'a replicaset without a selector',
      replicaSetPrinter,
      object('bare', { spec: { replicas: 0 } }),
      ['bare', 0, 0, 0, '5m', '', '', '<none>'],
    ],
    [
      'a replication controller',
      replicationControllerPrinter,
      object('old', { spec: { replicas: 1, selector: { app: 'old' }, template }, status: { replicas: 1, readyReplicas: 1 } }),
      ['old', 1, 1, 1, '5m', 'app,log', 'nginx:1.27,busybox', 'app=old'],
    ],
    [
      'a statefulset',
      statefulSetPrinter,
      object('db', { spec: { replicas: 3, template }, status: { readyReplicas: 1 } }),
      ['db', '1/3', '5m', 'app,log', 'nginx:1.27,busybox'],
    ],
    [
      'a daemonset with a node selector',
      daemonSetPrinter,
      object('agent', {
        spec: { selector: { matchLabels: { app: 'agent' } }, template: { spec: { nodeSelector: { 'kubernetes.io/os': 'linux', disk: 'ssd' }, containers: [{ name: 'a', image: 'agent:1' }] } } },
        status: { desiredNumberScheduled: 3, currentNumberScheduled: 3, numberReady: 2, updatedNumberScheduled: 3, numberAvailable: 2 },
      }),
      ['agent', 3, 3, 2, 3, 2, 'disk=ssd,kubernetes.io/os=linux', '5m', 'a', 'agent:1', 'app=agent'],
    ],
    [
      'a daemonset without node selector',
      daemonSetPrinter,
      object('agent', { spec: { template: { spec: { containers: [] } } } }),
      ['agent', 0, 0, 0, 0, 0, '<none>', '5m', '', '', '<none>'],
    ],
  ])('%s', (_what, printer, o, cells) => {
    expect(printer.row(o, NOW).cells).toEqual(cells);
  });
});

describe('job printer', () => {
  const job = (spec: JsonObject, status: JsonObject, meta: JsonObject = {}): JsonObject =>
    object('migrate', { spec: { template: { spec: { containers: [{ name: 'm', image: 'tool' }] } }, selector: { matchLabels: { 'batch.kubernetes.io/controller-uid': 'u1' } }, ...spec }, status }, meta);

  it.each<[string, JsonObject, ReadonlyArray<unknown>]>([
    ['a job that has not started', job({}, {}), ['migrate', 'Running', '0/1', '', '5m']],
    ['a running job, started 3 minutes ago', job({ completions: 3, parallelism: 3 }, { startTime: minutesAgo(3), succeeded: 1 }), ['migrate', 'Running', '1/3', '3m', '5m']],
    [
      'a complete job lasts from start to completion',
      job({ completions: 1 }, { startTime: minutesAgo(4), completionTime: minutesAgo(2), succeeded: 1, conditions: [{ type: 'Complete', status: 'True' }] }),
      ['migrate', 'Complete', '1/1', '2m', '5m'],
    ],
    ['a work queue job (parallelism only)', job({ parallelism: 4 }, { succeeded: 2 }), ['migrate', 'Running', '2/1 of 4', '', '5m']],
    ['parallelism 1 only', job({ parallelism: 1 }, {}), ['migrate', 'Running', '0/1', '', '5m']],
    ['a failed job', job({}, { conditions: [{ type: 'Failed', status: 'True' }] }), ['migrate', 'Failed', '0/1', '', '5m']],
    ['a suspended job', job({ suspend: true }, { conditions: [{ type: 'Suspended', status: 'True' }] }), ['migrate', 'Suspended', '0/1', '', '5m']],
    ['a job being deleted', job({}, { conditions: [{ type: 'Suspended', status: 'True' }] }, { deletionTimestamp: minutesAgo(0) }), ['migrate', 'Terminating', '0/1', '', '5m']],
    ['a job about to fail', job({}, { conditions: [{ type: 'FailureTarget', status: 'True' }] }), ['migrate', 'FailureTarget', '0/1', '', '5m']],
    ['a condition False does not count', job({}, { conditions: [{ type: 'Complete', status: 'False' }] }), ['migrate', 'Running', '0/1', '', '5m']],
  ])('%s', (_what, j, cells) => {
    expect(jobPrinter.row(j, NOW).cells.slice(0, 5)).toEqual(cells);
  });

  it('prints containers, images and selector wide', () => {
    expect(jobPrinter.row(job({}, {}), NOW).cells.slice(5)).toEqual(['m', 'tool', 'batch.kubernetes.io/controller-uid=u1']);
  });
});

describe('cronjob printer', () => {
  const jobTemplate = { spec: { template: { spec: { containers: [{ name: 'b', image: 'backup' }] } } } };
  it.each<[string, JsonObject, ReadonlyArray<unknown>]>([
    [
      'a new cronjob',
      object('backup', { spec: { schedule: '*/5 * * * *', jobTemplate } }),
      ['backup', '*/5 * * * *', '<none>', 'False', 0, '<none>', '5m', 'b', 'backup', '<none>'],
    ],
    [
      'a suspended cronjob with a time zone that ran and is running',
      object('backup', {
        spec: { schedule: '0 3 * * *', timeZone: 'Europe/Paris', suspend: true, jobTemplate },
        status: { active: [{ name: 'backup-1' }], lastScheduleTime: minutesAgo(1) },
      }),
      ['backup', '0 3 * * *', 'Europe/Paris', 'True', 1, '60s', '5m', 'b', 'backup', '<none>'],
    ],
  ])('%s', (_what, cj, cells) => {
    expect(cronJobPrinter.row(cj, NOW).cells).toEqual(cells);
  });
});
