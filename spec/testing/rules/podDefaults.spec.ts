// A Pod and every pod template are stored with kube's defaults (core/v1 defaults.go and the
// generated defaulters): each expected object below is what kube 1.34 stores for the input.
import { describe, expect, it } from '@jest/globals';
import { defaulted } from './ruleSupport.js';

const podDefaults = {
  dnsPolicy: 'ClusterFirst',
  restartPolicy: 'Always',
  securityContext: {},
  terminationGracePeriodSeconds: 30,
  schedulerName: 'default-scheduler',
};
const containerDefaults = { terminationMessagePath: '/dev/termination-log', terminationMessagePolicy: 'File' };

describe('Pod defaults', () => {
  it('a Pod gets SetDefaults_Pod, SetDefaults_PodSpec, container, probe, env, volume and quantity defaults', () => {
    const pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'web', namespace: 'default' },
      spec: {
        containers: [
          {
            name: 'web',
            image: 'nginx',
            ports: [{ containerPort: 80 }],
            resources: { limits: { cpu: '0.5', memory: '1024Mi' } },
            livenessProbe: { httpGet: { port: 80 } },
            env: [{ name: 'POD', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } }],
          },
        ],
        initContainers: [{ name: 'init', image: 'busybox:1.36', command: ['true'] }],
        volumes: [{ name: 'cfg', configMap: { name: 'c' } }, { name: 'scratch' }, { name: 'host', hostPath: { path: '/tmp' } }],
      },
    };
    expect(defaulted('pods', pod)).toEqual({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'web', namespace: 'default' },
      spec: {
        ...podDefaults,
        enableServiceLinks: true,
        containers: [
          {
            name: 'web',
            image: 'nginx',
            imagePullPolicy: 'Always',
            ...containerDefaults,
            ports: [{ containerPort: 80, protocol: 'TCP' }],
            resources: { limits: { cpu: '500m', memory: '1Gi' }, requests: { cpu: '500m', memory: '1Gi' } },
            livenessProbe: { httpGet: { port: 80, path: '/', scheme: 'HTTP' }, timeoutSeconds: 1, periodSeconds: 10, successThreshold: 1, failureThreshold: 3 },
            env: [{ name: 'POD', valueFrom: { fieldRef: { fieldPath: 'metadata.name', apiVersion: 'v1' } } }],
          },
        ],
        initContainers: [{ name: 'init', image: 'busybox:1.36', command: ['true'], imagePullPolicy: 'IfNotPresent', ...containerDefaults }],
        volumes: [
          { name: 'cfg', configMap: { name: 'c', defaultMode: 420 } },
          { name: 'scratch', emptyDir: {} },
          { name: 'host', hostPath: { path: '/tmp', type: '' } },
        ],
      },
    });
  });

  it('what is set is kept; requests keep their own value and only missing ones come from limits', () => {
    const pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      spec: {
        restartPolicy: 'Never',
        dnsPolicy: 'Default',
        terminationGracePeriodSeconds: 5,
        enableServiceLinks: false,
        containers: [{ name: 'c', image: 'app:1', imagePullPolicy: 'Never', resources: { limits: { cpu: '2', memory: '1Gi' }, requests: { cpu: '1' } } }],
      },
    };
    const spec = defaulted('pods', pod).spec as { [k: string]: unknown };
    expect(spec).toMatchObject({ restartPolicy: 'Never', dnsPolicy: 'Default', terminationGracePeriodSeconds: 5, enableServiceLinks: false });
    expect(spec.containers).toEqual([
      { name: 'c', image: 'app:1', imagePullPolicy: 'Never', ...containerDefaults, resources: { limits: { cpu: '2', memory: '1Gi' }, requests: { cpu: '1', memory: '1Gi' } } },
    ]);
  });

  it('host networking copies each containerPort to its hostPort', () => {
    const pod = { apiVersion: 'v1', kind: 'Pod', spec: { hostNetwork: true, containers: [{ name: 'c', image: 'x', ports: [{ containerPort: 8080 }] }] } };
    expect((defaulted('pods', pod).spec as { containers: unknown[] }).containers[0]).toMatchObject({ ports: [{ containerPort: 8080, hostPort: 8080, protocol: 'TCP' }] });
  });

  it('projected service account tokens expire after an hour; secret/downwardAPI modes are 0644', () => {
    const pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      spec: {
        containers: [{ name: 'c', image: 'x:1' }],
        volumes: [
          { name: 'token', projected: { sources: [{ serviceAccountToken: { path: 'token' } }, { downwardAPI: { items: [{ path: 'n', fieldRef: { fieldPath: 'metadata.name' } }] } }] } },
          { name: 's', secret: { secretName: 's' } },
        ],
      },
    };
    expect((defaulted('pods', pod).spec as { volumes: unknown[] }).volumes).toEqual([
      {
        name: 'token',
        projected: {
          defaultMode: 420,
          sources: [{ serviceAccountToken: { path: 'token', expirationSeconds: 3600 } }, { downwardAPI: { items: [{ path: 'n', fieldRef: { fieldPath: 'metadata.name', apiVersion: 'v1' } }] } }],
        },
      },
      { name: 's', secret: { secretName: 's', defaultMode: 420 } },
    ]);
  });

  it('a quantity that does not decode is kube\'s 400, naming the kind and version', () => {
    const pod = { apiVersion: 'v1', kind: 'Pod', spec: { containers: [{ name: 'c', image: 'x', resources: { limits: { cpu: 'lots' } } }] } };
    expect(() => defaulted('pods', pod)).toThrow(
      expect.objectContaining({
        status: expect.objectContaining({
          code: 400,
          reason: 'BadRequest',
          message: 'Pod in version "v1" cannot be handled as a Pod: quantities must match the regular expression \'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$\'',
        }),
      }),
    );
  });
});

describe('pod templates get the PodSpec defaults, not the Pod-only ones', () => {
  const template = { metadata: { labels: { app: 'a' } }, spec: { containers: [{ name: 'c', image: 'nginx:1.27', resources: { limits: { cpu: '1' } } }] } };
  const expectedTemplate = {
    metadata: { labels: { app: 'a' } },
    spec: { ...podDefaults, containers: [{ name: 'c', image: 'nginx:1.27', imagePullPolicy: 'IfNotPresent', ...containerDefaults, resources: { limits: { cpu: '1' } } }] },
  };

  it.each([
    ['deployments.apps', 'apps/v1', 'Deployment', (spec: object) => ({ template: spec })],
    ['replicasets.apps', 'apps/v1', 'ReplicaSet', (spec: object) => ({ template: spec })],
    ['statefulsets.apps', 'apps/v1', 'StatefulSet', (spec: object) => ({ template: spec })],
    ['daemonsets.apps', 'apps/v1', 'DaemonSet', (spec: object) => ({ template: spec })],
    ['jobs.batch', 'batch/v1', 'Job', (spec: object) => ({ template: spec })],
    ['cronjobs.batch', 'batch/v1', 'CronJob', (spec: object) => ({ jobTemplate: { spec: { template: spec } } })],
    ['replicationcontrollers', 'v1', 'ReplicationController', (spec: object) => ({ template: spec })],
    ['podtemplates', 'v1', 'PodTemplate', (spec: object) => spec],
  ])('%s', (id, apiVersion, kind, wrap) => {
    const body = kind === 'PodTemplate' ? { apiVersion, kind, template } : { apiVersion, kind, spec: wrap(template) };
    const out = defaulted(id, body as { [k: string]: unknown });
    const got = kind === 'PodTemplate' ? out.template : kind === 'CronJob' ? ((out.spec as { jobTemplate: { spec: { template: unknown } } }).jobTemplate.spec.template) : (out.spec as { template: unknown }).template;
    expect(got).toEqual(expectedTemplate);
  });
});
