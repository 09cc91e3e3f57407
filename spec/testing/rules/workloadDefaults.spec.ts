// Workloads are stored with kube's defaults (apps/v1, batch/v1, core/v1 defaults.go): each
// expected spec below is what kube 1.34 stores for the input (templates aside, see podDefaults).
import { describe, expect, it } from '@jest/globals';
import { clone, defaulted, fakeAllocators, rulesOf } from './ruleSupport.js';

const template = { metadata: { labels: { app: 'a' } }, spec: { containers: [{ name: 'c', image: 'x:1' }] } };
const specOf = (id: string, body: { [k: string]: unknown }): { [k: string]: unknown } => {
  const spec = { ...(defaulted(id, body).spec as { [k: string]: unknown }) };
  delete spec.template;
  return spec;
};

describe('apps/v1 defaults', () => {
  it('Deployment: replicas 1, RollingUpdate 25%/25%, revisionHistoryLimit 10, progressDeadlineSeconds 600', () => {
    expect(specOf('deployments.apps', { apiVersion: 'apps/v1', kind: 'Deployment', spec: { selector: { matchLabels: { app: 'a' } }, template } })).toEqual({
      selector: { matchLabels: { app: 'a' } },
      replicas: 1,
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '25%', maxSurge: '25%' } },
      revisionHistoryLimit: 10,
      progressDeadlineSeconds: 600,
    });
  });

  it('Deployment: Recreate gets no rollingUpdate; set values are kept', () => {
    expect(specOf('deployments.apps', { apiVersion: 'apps/v1', kind: 'Deployment', spec: { replicas: 0, strategy: { type: 'Recreate' }, revisionHistoryLimit: 2, template } })).toEqual({
      replicas: 0,
      strategy: { type: 'Recreate' },
      revisionHistoryLimit: 2,
      progressDeadlineSeconds: 600,
    });
  });

  it('ReplicaSet: replicas 1', () => {
    expect(specOf('replicasets.apps', { apiVersion: 'apps/v1', kind: 'ReplicaSet', spec: { template } })).toEqual({ replicas: 1 });
  });

  it('StatefulSet: OrderedReady, RollingUpdate with partition 0, Retain/Retain, replicas 1, revisionHistoryLimit 10, claim templates Pending/Filesystem', () => {
    const spec = specOf('statefulsets.apps', {
      apiVersion: 'apps/v1',
      kind: 'StatefulSet',
      spec: { serviceName: 'db', template, volumeClaimTemplates: [{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1024Mi' } } } }] },
    });
    expect(spec).toEqual({
      serviceName: 'db',
      podManagementPolicy: 'OrderedReady',
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 0 } },
      persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Retain', whenScaled: 'Retain' },
      replicas: 1,
      revisionHistoryLimit: 10,
      volumeClaimTemplates: [
        { metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, volumeMode: 'Filesystem' }, status: { phase: 'Pending' } },
      ],
    });
  });

  it('StatefulSet: an explicit RollingUpdate without rollingUpdate stays without it (kube creates it only with the type)', () => {
    expect(specOf('statefulsets.apps', { apiVersion: 'apps/v1', kind: 'StatefulSet', spec: { updateStrategy: { type: 'RollingUpdate' }, template } })).toMatchObject({
      updateStrategy: { type: 'RollingUpdate' },
    });
  });

  it('DaemonSet: RollingUpdate with maxUnavailable 1 and maxSurge 0, revisionHistoryLimit 10', () => {
    expect(specOf('daemonsets.apps', { apiVersion: 'apps/v1', kind: 'DaemonSet', spec: { template } })).toEqual({
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 0 } },
      revisionHistoryLimit: 10,
    });
  });
});

describe('batch/v1 defaults', () => {
  const jobTemplate = { metadata: { labels: { app: 'a' } }, spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'x:1' }] } };

  it('Job: completions and parallelism 1, backoffLimit 6, NonIndexed, not suspended, TerminatingOrFailed, manualSelector false, labels from the template', () => {
    const job = defaulted('jobs.batch', { apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'j' }, spec: { template: jobTemplate } });
    expect(job.metadata).toEqual({ name: 'j', labels: { app: 'a' } });
    const spec = { ...(job.spec as { [k: string]: unknown }) };
    delete spec.template;
    expect(spec).toEqual({
      completions: 1,
      parallelism: 1,
      backoffLimit: 6,
      completionMode: 'NonIndexed',
      suspend: false,
      podReplacementPolicy: 'TerminatingOrFailed',
      manualSelector: false,
    });
  });

  it('Job: parallelism alone keeps completions unset; backoffLimitPerIndex makes backoffLimit the int32 max; a podFailurePolicy makes replacement Failed', () => {
    const spec = specOf('jobs.batch', {
      apiVersion: 'batch/v1',
      kind: 'Job',
      spec: { parallelism: 3, completionMode: 'Indexed', backoffLimitPerIndex: 1, podFailurePolicy: { rules: [{ action: 'Ignore', onPodConditions: [{ type: 'DisruptionTarget' }] }] }, template: jobTemplate },
    });
    expect(spec).toMatchObject({ parallelism: 3, backoffLimit: 2147483647, podReplacementPolicy: 'Failed', podFailurePolicy: { rules: [{ action: 'Ignore', onPodConditions: [{ type: 'DisruptionTarget', status: 'True' }] }] } });
    expect(spec).not.toHaveProperty('completions');
  });

  it('Job: the strategy generates the selector and pod labels from the uid (allocate runs PrepareForCreate)', () => {
    const job = defaulted('jobs.batch', { apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'j', uid: 'u-1' }, spec: { template: jobTemplate } });
    expect(rulesOf('jobs.batch').allocate?.(job, undefined, fakeAllocators())).toEqual([]);
    const spec = job.spec as { selector: unknown; template: { metadata: unknown } };
    expect(spec.selector).toEqual({ matchLabels: { 'batch.kubernetes.io/controller-uid': 'u-1' } });
    expect(spec.template.metadata).toEqual({
      labels: { app: 'a', 'job-name': 'j', 'batch.kubernetes.io/job-name': 'j', 'controller-uid': 'u-1', 'batch.kubernetes.io/controller-uid': 'u-1' },
    });
  });

  it('Job: a manual selector is left alone', () => {
    const job = defaulted('jobs.batch', { apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'j', uid: 'u' }, spec: { manualSelector: true, selector: { matchLabels: { app: 'a' } }, template: jobTemplate } });
    const before = clone(job);
    rulesOf('jobs.batch').allocate?.(job, undefined, fakeAllocators());
    expect(job).toEqual(before);
  });

  it('CronJob: Allow, not suspended, history 3/1; its jobTemplate keeps no Job defaults', () => {
    const cj = defaulted('cronjobs.batch', { apiVersion: 'batch/v1', kind: 'CronJob', spec: { schedule: '* * * * *', jobTemplate: { spec: { template: jobTemplate } } } });
    const spec = cj.spec as { [k: string]: unknown; jobTemplate: { spec: { [k: string]: unknown } } };
    expect({ ...spec, jobTemplate: undefined }).toEqual({
      schedule: '* * * * *',
      concurrencyPolicy: 'Allow',
      suspend: false,
      successfulJobsHistoryLimit: 3,
      failedJobsHistoryLimit: 1,
      jobTemplate: undefined,
    });
    expect(Object.keys(spec.jobTemplate.spec)).toEqual(['template']);
  });
});

describe('core/v1 ReplicationController defaults', () => {
  it('selector and labels come from the template labels, replicas 1', () => {
    const rc = defaulted('replicationcontrollers', { apiVersion: 'v1', kind: 'ReplicationController', metadata: { name: 'r' }, spec: { template } });
    expect(rc.metadata).toEqual({ name: 'r', labels: { app: 'a' } });
    expect(specOf('replicationcontrollers', { apiVersion: 'v1', kind: 'ReplicationController', spec: { template } })).toEqual({ selector: { app: 'a' }, replicas: 1 });
  });
});
