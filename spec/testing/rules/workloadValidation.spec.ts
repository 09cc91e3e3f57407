// Workload validation and immutability (apps and batch validation, the apps/v1 and Job
// strategies), kube's paths and words.
import { describe, expect, it } from '@jest/globals';
import type { JsonObject } from '../../../lib/testing/fakeApiServer/resources.js';
import { clone, createCauses, defaulted, fakeAllocators, render, rulesOf, updateCauses } from './ruleSupport.js';

const podSpec = { containers: [{ name: 'c', image: 'x:1' }] };
const template = { metadata: { labels: { app: 'a' } }, spec: podSpec };
const deployment = (spec: JsonObject): JsonObject => ({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', namespace: 'default' }, spec });

describe('Deployment', () => {
  it('a valid Deployment has no causes', () => {
    expect(createCauses('deployments.apps', deployment({ selector: { matchLabels: { app: 'a' } }, template }))).toEqual([]);
  });

  it.each([
    ['no selector (kube also reports the mismatch: a nil selector matches nothing)', { template }, ['spec.selector: Required value', 'spec.template.metadata.labels: Invalid value: {"app":"a"}: `selector` does not match template `labels`']],
    ['an empty selector', { selector: {}, template }, ['spec.selector: Invalid value: {}: empty selector is invalid for deployment']],
    ['a selector that misses the labels', { selector: { matchLabels: { app: 'b' } }, template }, ['spec.template.metadata.labels: Invalid value: {"app":"a"}: `selector` does not match template `labels`']],
    [
      'a bad expression',
      { selector: { matchExpressions: [{ key: 'app', operator: 'In' }] }, template },
      [
        "spec.selector.matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'",
        'spec.selector: Invalid value: {"matchExpressions":[{"key":"app","operator":"In"}]}: invalid label selector',
      ],
    ],
    ['negative replicas, both budgets 0', { replicas: -1, selector: { matchLabels: { app: 'a' } }, template, strategy: { rollingUpdate: { maxSurge: 0, maxUnavailable: 0 } } }, [
      'spec.replicas: Invalid value: -1: must be greater than or equal to 0',
      'spec.strategy.rollingUpdate.maxUnavailable: Invalid value: 0: may not be 0 when `maxSurge` is 0',
    ]],
    ['an unknown strategy type', { selector: { matchLabels: { app: 'a' } }, template, strategy: { type: 'BlueGreen' } }, [
      'spec.strategy: Unsupported value: {"Type":"BlueGreen","RollingUpdate":null}: supported values: "Recreate", "RollingUpdate"',
    ]],
    ['rollingUpdate with Recreate', { selector: { matchLabels: { app: 'a' } }, template, strategy: { type: 'Recreate', rollingUpdate: { maxSurge: 1 } } }, [
      "spec.strategy.rollingUpdate: Forbidden: may not be specified when strategy `type` is 'Recreate'",
    ]],
    ['a template that does not always restart', { selector: { matchLabels: { app: 'a' } }, template: { ...template, spec: { ...podSpec, restartPolicy: 'OnFailure', activeDeadlineSeconds: 5 } } }, [
      'spec.template.spec.restartPolicy: Unsupported value: "OnFailure": supported values: "Always"',
      'spec.template.spec.activeDeadlineSeconds: Forbidden: activeDeadlineSeconds in ReplicaSet is not Supported',
    ]],
    ['an invalid pod template', { selector: { matchLabels: { app: 'a' } }, template: { metadata: { labels: { app: 'a' } }, spec: { containers: [{ name: 'c' }] } } }, ['spec.template.spec.containers[0].image: Required value']],
    ['a progress deadline not above minReadySeconds', { selector: { matchLabels: { app: 'a' } }, template, minReadySeconds: 700 }, ['spec.progressDeadlineSeconds: Invalid value: 600: must be greater than minReadySeconds']],
  ])('%s', (_name, spec, expected) => {
    expect(createCauses('deployments.apps', deployment(spec as JsonObject))).toEqual(expected);
  });

  it('the selector is immutable (apps/v1)', () => {
    const old = deployment({ selector: { matchLabels: { app: 'a' } }, template });
    const moved = deployment({ selector: { matchLabels: { app: 'a', tier: 'b' } }, template: { ...template, metadata: { labels: { app: 'a', tier: 'b' } } } });
    expect(updateCauses('deployments.apps', moved, old)).toEqual(['spec.selector: Invalid value: {"matchLabels":{"app":"a","tier":"b"}}: field is immutable']);
    expect(updateCauses('deployments.apps', deployment({ replicas: 5, selector: { matchLabels: { app: 'a' } }, template }), old)).toEqual([]);
  });

  it('warns about a name that is not a DNS label', () => {
    const d = defaulted('deployments.apps', { ...deployment({ selector: { matchLabels: { app: 'a' } }, template }), metadata: { name: 'web.v2' } });
    expect(rulesOf('deployments.apps').warnings?.(d, undefined)).toEqual([
      'metadata.name: this is used in Pod names and hostnames, which can result in surprising behavior; a DNS label is recommended: [must not contain dots]',
    ]);
  });
});

describe('ReplicaSet, DaemonSet, StatefulSet', () => {
  it('ReplicaSet: kube reuses the Deployment\'s words for an empty selector; the selector is immutable', () => {
    const rs = (sel: JsonObject): JsonObject => ({ apiVersion: 'apps/v1', kind: 'ReplicaSet', spec: { selector: sel, template } });
    expect(createCauses('replicasets.apps', rs({}))).toEqual(['spec.selector: Invalid value: {}: empty selector is invalid for deployment']);
    expect(updateCauses('replicasets.apps', rs({ matchLabels: { app: 'a' }, matchExpressions: [{ key: 'x', operator: 'DoesNotExist' }] }), rs({ matchLabels: { app: 'a' } }))).toEqual([
      'spec.selector: Invalid value: {"matchLabels":{"app":"a"},"matchExpressions":[{"key":"x","operator":"DoesNotExist"}]}: field is immutable',
    ]);
  });

  it('DaemonSet: a missing selector is only a mismatch; the update strategy budgets', () => {
    const ds = (spec: JsonObject): JsonObject => ({ apiVersion: 'apps/v1', kind: 'DaemonSet', spec: { template, ...spec } });
    expect(createCauses('daemonsets.apps', ds({}))).toEqual(['spec.template.metadata.labels: Invalid value: {"app":"a"}: `selector` does not match template `labels`']);
    expect(createCauses('daemonsets.apps', ds({ selector: { matchLabels: { app: 'a' } }, updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 1 } } }))).toEqual([
      'spec.updateStrategy.rollingUpdate.maxSurge: Invalid value: 1: may not be set when maxUnavailable is non-zero',
    ]);
  });

  it('StatefulSet: fields other than replicas, template, updateStrategy... are immutable; the template\'s pod spec is not validated', () => {
    const sts = (spec: JsonObject): JsonObject => ({ apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name: 'db' }, spec: { serviceName: 'db', selector: { matchLabels: { app: 'a' } }, template, ...spec } });
    expect(createCauses('statefulsets.apps', sts({ template: { metadata: { labels: { app: 'a' } }, spec: { containers: [{ name: 'c' }] } } }))).toEqual([]);
    expect(createCauses('statefulsets.apps', sts({ podManagementPolicy: 'Random', selector: {} }))).toEqual([
      "spec.podManagementPolicy: Invalid value: \"Random\": must be 'OrderedReady' or 'Parallel'",
      'spec.selector: Invalid value: {}: empty selector is invalid for statefulset',
    ]);
    expect(updateCauses('statefulsets.apps', sts({ replicas: 3, revisionHistoryLimit: 2 }), sts({}))).toEqual([]);
    expect(updateCauses('statefulsets.apps', sts({ serviceName: 'other' }), sts({}))).toEqual([
      "spec: Forbidden: updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden",
    ]);
  });
});

describe('Job', () => {
  const jobTemplate = { metadata: { labels: { app: 'a' } }, spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'x:1' }] } };
  const job = (spec: JsonObject, uid = 'u-1'): JsonObject => ({ apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'j', namespace: 'default', uid }, spec: { template: jobTemplate, ...spec } });
  /** A Job as stored: defaulted, then the strategy's selector generation. */
  const stored = (spec: JsonObject): JsonObject => {
    const j = defaulted('jobs.batch', job(spec));
    rulesOf('jobs.batch').allocate?.(j, undefined, fakeAllocators());
    return j;
  };

  it('validates as it will be stored: a generated selector, however the pipeline orders the steps', () => {
    expect(createCauses('jobs.batch', job({}))).toEqual([]);
    expect(render(rulesOf('jobs.batch').validateCreate?.(stored({})) ?? [])).toEqual([]);
  });

  it.each([
    ['a template that restarts Always', { template: { ...jobTemplate, spec: { ...jobTemplate.spec, restartPolicy: 'Always' } } }, ['spec.template.spec.restartPolicy: Required value: valid values: "OnFailure", "Never"']],
    ['negative counts', { parallelism: -1, backoffLimit: -2 }, ['spec.parallelism: Invalid value: -1: must be greater than or equal to 0', 'spec.backoffLimit: Invalid value: -2: must be greater than or equal to 0']],
    ['Indexed without completions', { completionMode: 'Indexed', parallelism: 2 }, ['spec.completions: Required value: when completion mode is Indexed']],
    [
      'a generated selector the user overrode',
      { selector: { matchLabels: { 'batch.kubernetes.io/controller-uid': 'other' } } },
      [
        'spec.selector: Invalid value: {"matchLabels":{"batch.kubernetes.io/controller-uid":"other"}}: `selector` not auto-generated',
        expect.stringMatching(/^spec\.template\.metadata\.labels: Invalid value: .*: `selector` does not match template `labels`$/),
      ],
    ],
  ])('%s', (_name, spec, expected) => {
    expect(createCauses('jobs.batch', job(spec as JsonObject))).toEqual(expected);
  });

  it('a manual selector must exist and match', () => {
    expect(createCauses('jobs.batch', job({ manualSelector: true }))).toEqual(['spec.selector: Required value', 'spec.template.metadata.labels: Invalid value: {"app":"a"}: `selector` does not match template `labels`']);
  });

  it('selector and template are immutable; parallelism is not', () => {
    const old = stored({});
    const scaled = clone(old);
    (scaled.spec as JsonObject).parallelism = 3;
    expect(render(rulesOf('jobs.batch').validateUpdate?.(scaled, old) ?? [])).toEqual([]);
    const retemplated = clone(old);
    ((retemplated.spec as { template: { spec: { containers: JsonObject[] } } }).template.spec.containers[0]).image = 'x:2';
    const causes = render(rulesOf('jobs.batch').validateUpdate?.(retemplated, old) ?? []);
    expect(causes).toHaveLength(1);
    expect(causes[0]).toMatch(/^spec\.template: Invalid value: \{.*"image":"x:2".*\}: field is immutable$/);
  });

  it('a suspended Job that never started may change its template\'s scheduling directives', () => {
    const old = stored({ suspend: true });
    const next = clone(old);
    ((next.spec as { template: { spec: JsonObject } }).template.spec).nodeSelector = { zone: 'a' };
    expect(render(rulesOf('jobs.batch').validateUpdate?.(next, old) ?? [])).toEqual([]);
    const started = { ...clone(old), status: { startTime: '2026-01-01T00:00:00Z' } };
    expect(render(rulesOf('jobs.batch').validateUpdate?.(next, started) ?? [])[0]).toMatch(/^spec\.template: Invalid value: .*: field is immutable$/);
  });
});

describe('CronJob', () => {
  const cron = (spec: JsonObject, name = 'nightly'): JsonObject => ({
    apiVersion: 'batch/v1',
    kind: 'CronJob',
    metadata: { name },
    spec: { schedule: '0 3 * * *', jobTemplate: { spec: { template: { spec: { restartPolicy: 'OnFailure', containers: [{ name: 'c', image: 'x:1' }] } } } }, ...spec },
  });

  it.each([
    ['a valid CronJob', {}, []],
    ['a schedule that does not parse', { schedule: 'every night' }, ['spec.schedule: Invalid value: "every night": expected exactly 5 fields, found 2: [every night]']],
    ['TZ in the schedule', { schedule: 'TZ=UTC 0 3 * * *' }, ['spec.schedule: Invalid value: "TZ=UTC 0 3 * * *": cannot use TZ or CRON_TZ in schedule, use timeZone field instead']],
    ['an unknown time zone', { timeZone: 'Mars/Olympus' }, ['spec.timeZone: Invalid value: "Mars/Olympus": unknown time zone Mars/Olympus']],
    ['Local', { timeZone: 'Local' }, ['spec.timeZone: Invalid value: "Local": timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones']],
    ['a jobTemplate selector', { jobTemplate: { spec: { selector: { matchLabels: { a: 'b' } }, template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'x' }] } } } } }, [
      'spec.jobTemplate.spec.selector: Invalid value: {"matchLabels":{"a":"b"}}: `selector` will be auto-generated',
    ]],
    ['an unknown concurrency policy', { concurrencyPolicy: 'Sometimes' }, ['spec.concurrencyPolicy: Unsupported value: "Sometimes": supported values: "Allow", "Forbid", "Replace"']],
  ])('%s', (_name, spec, expected) => {
    expect(createCauses('cronjobs.batch', cron(spec as JsonObject))).toEqual(expected);
  });

  it('a name longer than 52 characters is refused on create only', () => {
    const name = 'n'.repeat(53);
    expect(createCauses('cronjobs.batch', cron({}, name))).toEqual([`metadata.name: Invalid value: "${name}": must be no more than 52 characters`]);
    expect(updateCauses('cronjobs.batch', cron({}, name), cron({}, name))).toEqual([]);
  });
});

describe('ReplicationController', () => {
  it('selector and replicas are required (when the template has no labels to default from)', () => {
    expect(createCauses('replicationcontrollers', { apiVersion: 'v1', kind: 'ReplicationController', spec: { template: { spec: podSpec } } })).toEqual(['spec.selector: Required value']);
    expect(createCauses('replicationcontrollers', { apiVersion: 'v1', kind: 'ReplicationController', spec: { selector: { app: 'b' }, template } })).toEqual([
      'spec.template.metadata.labels: Invalid value: {"app":"a"}: `selector` does not match template `labels`',
    ]);
  });
});

// A pod template that is a struct in Go (every workload's but the ReplicationController's) is
// defaulted even when absent, so kube reports only what the user must give: no restartPolicy,
// dnsPolicy or terminationGracePeriodSeconds "Required value".
describe('an absent pod template', () => {
  const selector = { matchLabels: { app: 'a' } };
  const metadata = { name: 'web', namespace: 'default', uid: 'u-1' };

  it('Deployment, ReplicaSet, DaemonSet: the selector mismatch and the containers', () => {
    for (const [id, kind] of [['deployments.apps', 'Deployment'], ['replicasets.apps', 'ReplicaSet'], ['daemonsets.apps', 'DaemonSet']]) {
      expect(createCauses(id, { apiVersion: 'apps/v1', kind, metadata, spec: { selector } })).toEqual([
        'spec.template.metadata.labels: Invalid value: null: `selector` does not match template `labels`',
        'spec.template.spec.containers: Required value',
      ]);
    }
    expect(defaulted('deployments.apps', deployment({ selector })).spec).toMatchObject({
      template: { spec: { restartPolicy: 'Always', dnsPolicy: 'ClusterFirst', terminationGracePeriodSeconds: 30, schedulerName: 'default-scheduler', securityContext: {} } },
    });
  });

  it('Job and CronJob: the containers and the restart policy Jobs need', () => {
    expect(createCauses('jobs.batch', { apiVersion: 'batch/v1', kind: 'Job', metadata, spec: {} })).toEqual([
      'spec.template.spec.containers: Required value',
      'spec.template.spec.restartPolicy: Required value: valid values: "OnFailure", "Never"',
    ]);
    expect(createCauses('cronjobs.batch', { apiVersion: 'batch/v1', kind: 'CronJob', metadata, spec: { schedule: '* * * * *' } })).toEqual([
      'spec.jobTemplate.spec.template.spec.containers: Required value',
      'spec.jobTemplate.spec.template.spec.restartPolicy: Required value: valid values: "OnFailure", "Never"',
    ]);
  });

  it('Pod and PodTemplate: only the containers', () => {
    expect(createCauses('pods', { apiVersion: 'v1', kind: 'Pod', metadata })).toEqual(['spec.containers: Required value']);
    expect(createCauses('podtemplates', { apiVersion: 'v1', kind: 'PodTemplate', metadata })).toEqual(['template.spec.containers: Required value']);
  });

  it('ReplicationController: its template is a pointer, so it is required and not made up', () => {
    expect(createCauses('replicationcontrollers', { apiVersion: 'v1', kind: 'ReplicationController', metadata, spec: { selector: { app: 'a' } } })).toEqual(['spec.template: Required value']);
  });
});
