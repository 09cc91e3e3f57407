// A Pod's create and update validation: every cause at once, with kube's paths and words
// (core validation's ValidatePodCreate / ValidatePodUpdate).
import { describe, expect, it } from '@jest/globals';
import type { JsonObject } from '../../../lib/testing/fakeApiServer/resources.js';
import { createCauses, defaulted, rulesOf, updateCauses } from './ruleSupport.js';

const pod = (spec: JsonObject, name = 'web'): JsonObject => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default' }, spec });
const container = (c: JsonObject = {}): JsonObject => ({ name: 'c', image: 'nginx:1.27', ...c });

describe('Pod create validation', () => {
  it('a valid Pod has no causes', () => {
    expect(createCauses('pods', pod({ containers: [container({ ports: [{ containerPort: 80, name: 'http' }] })] }))).toEqual([]);
  });

  it.each([
    ['no containers', { containers: [] }, ['spec.containers: Required value']],
    ['a container without name or image', { containers: [{}] }, ['spec.containers[0].name: Required value', 'spec.containers[0].image: Required value']],
    ['a container name that is not a DNS label', { containers: [container({ name: 'Web_1' })] }, [expect.stringMatching(/^spec\.containers\[0\]\.name: Invalid value: "Web_1": a lowercase RFC 1123 label must consist of/)]],
    ['two containers with one name', { containers: [container(), container()] }, ['spec.containers[1].name: Duplicate value: "c"']],
    [
      'bad ports',
      { containers: [container({ ports: [{ containerPort: 0 }, { containerPort: 70000, protocol: 'HTTP', name: 'web_1' }] })] },
      [
        'spec.containers[0].ports[0].containerPort: Required value',
        'spec.containers[0].ports[1].name: Invalid value: "web_1": must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)',
        'spec.containers[0].ports[1].containerPort: Invalid value: 70000: must be between 1 and 65535, inclusive',
        'spec.containers[0].ports[1].protocol: Unsupported value: "HTTP": supported values: "SCTP", "TCP", "UDP"',
      ],
    ],
    [
      'a mount of a missing volume and a mount path used twice',
      { containers: [container({ volumeMounts: [{ name: 'data', mountPath: '/d' }, { name: 'cfg', mountPath: '/d' }] })], volumes: [{ name: 'cfg', configMap: { name: 'c' } }] },
      ['spec.containers[0].volumeMounts[0].name: Not found: "data"', 'spec.containers[0].volumeMounts[1].mountPath: Invalid value: "/d": must be unique'],
    ],
    [
      'a volume with two sources and one without a required field',
      { containers: [container()], volumes: [{ name: 'a', emptyDir: {}, hostPath: { path: '/x' } }, { name: 'b', secret: {} }] },
      ['spec.volumes[0].hostPath: Forbidden: may not specify more than 1 volume type', 'spec.volumes[1].secret.secretName: Required value'],
    ],
    ['requests above limits', { containers: [container({ resources: { limits: { cpu: '1' }, requests: { cpu: '1500m' } } })] }, ['spec.containers[0].resources.requests: Invalid value: "1500m": must be less than or equal to cpu limit of 1']],
    ['a negative request', { containers: [container({ resources: { requests: { memory: '-1Gi' } } })] }, ['spec.containers[0].resources.requests[memory]: Invalid value: "-1Gi": must be greater than or equal to 0']],
    ['an unknown restart policy and pull policy', { restartPolicy: 'Sometimes', containers: [container({ imagePullPolicy: 'Maybe' })] }, [
      'spec.containers[0].imagePullPolicy: Unsupported value: "Maybe": supported values: "Always", "IfNotPresent", "Never"',
      'spec.restartPolicy: Unsupported value: "Sometimes": supported values: "Always", "OnFailure", "Never"',
    ]],
    [
      'a probe without a handler and a liveness successThreshold above 1',
      { containers: [container({ livenessProbe: { successThreshold: 2 }, readinessProbe: { exec: { command: ['true'] }, tcpSocket: { port: 80 } } })] },
      [
        'spec.containers[0].livenessProbe: Required value: must specify a handler type',
        'spec.containers[0].livenessProbe.successThreshold: Invalid value: 2: must be 1',
        'spec.containers[0].readinessProbe.tcpSocket: Forbidden: may not specify more than 1 handler type',
      ],
    ],
    ['an env var without a name and one with two sources', { containers: [container({ env: [{ value: 'x' }, { name: 'A', valueFrom: { fieldRef: { fieldPath: 'metadata.name' }, secretKeyRef: { name: 's', key: 'k' } } }] })] }, [
      'spec.containers[0].env[0].name: Required value',
      'spec.containers[0].env[1].valueFrom: Invalid value: "": may not have more than one field specified at a time',
    ]],
    ['an unsupported downward API field', { containers: [container({ env: [{ name: 'A', valueFrom: { fieldRef: { fieldPath: 'spec.hostname' } } }] })] }, [
      'spec.containers[0].env[0].valueFrom.fieldRef.fieldPath: Unsupported value: "spec.hostname": supported values: "metadata.name", "metadata.namespace", "metadata.uid", "spec.nodeName", "spec.serviceAccountName", "status.hostIP", "status.hostIPs", "status.podIP", "status.podIPs"',
    ]],
    ['an init container with a probe', { containers: [container()], initContainers: [container({ name: 'i', readinessProbe: { exec: { command: ['x'] } } })] }, [
      'spec.initContainers[0].readinessProbe: Forbidden: may not be set for init containers without restartPolicy=Always',
    ]],
    ['a toleration without key that is not Exists', { containers: [container()], tolerations: [{ operator: 'Equal', value: 'x', effect: 'NoRun' }] }, [
      'spec.tolerations[0].operator: Invalid value: "Equal": operator must be Exists when `key` is empty, which means "match all values and all keys"',
      'spec.tolerations[0].effect: Unsupported value: "NoRun": supported values: "NoSchedule", "PreferNoSchedule", "NoExecute"',
    ]],
    ['an anti-affinity term without a topology key', { containers: [container()], affinity: { podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ labelSelector: { matchLabels: { app: 'a' } } }] } } }, [
      'spec.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].topologyKey: Required value: can not be empty',
      expect.stringMatching(/^spec\.affinity\.podAntiAffinity\.requiredDuringSchedulingIgnoredDuringExecution\[0\]\.topologyKey: Invalid value: "": name part must be non-empty/),
      expect.stringMatching(/^spec\.affinity\.podAntiAffinity\.requiredDuringSchedulingIgnoredDuringExecution\[0\]\.topologyKey: Invalid value: "": name part must consist of alphanumeric/),
    ]],
    ['ephemeral containers on create', { containers: [container()], ephemeralContainers: [{ name: 'debug', image: 'busybox' }] }, ['spec.ephemeralContainers: Forbidden: cannot be set on create']],
    ['a service account token volume without serviceAccountName', { containers: [container()], volumes: [{ name: 't', projected: { sources: [{ serviceAccountToken: { path: 't' } }] } }] }, [
      'spec.volumes[0].projected.sources[0].serviceAccountToken: Forbidden: must not be specified when serviceAccountName is not set',
    ]],
  ])('%s', (_name, spec, expected) => {
    expect(createCauses('pods', pod(spec as JsonObject))).toEqual(expected);
  });

  it('one 422 lists every cause', () => {
    expect(createCauses('pods', pod({ restartPolicy: 'Sometimes', containers: [{ name: 'a' }, { image: 'x' }] }))).toEqual([
      'spec.containers[0].image: Required value',
      'spec.containers[1].name: Required value',
      'spec.restartPolicy: Unsupported value: "Sometimes": supported values: "Always", "OnFailure", "Never"',
    ]);
  });

  it('a name that is not a DNS label is a warning, as are env entries hiding earlier ones', () => {
    const p = defaulted('pods', pod({ containers: [container({ env: [{ name: 'A', value: '1' }, { name: 'A', value: '2' }] })] }, 'web.v2'));
    expect(rulesOf('pods').warnings?.(p, undefined)).toEqual([
      "metadata.name: this is used in the Pod's hostname, which can result in surprising behavior; a DNS label is recommended: [must not contain dots]",
      'spec.containers[0].env[1]: hides previous definition of "A", which may be dropped when using apply',
    ]);
  });
});

describe('Pod update validation: the spec is immutable but for its few mutable fields', () => {
  const old = pod({ activeDeadlineSeconds: 600, tolerations: [{ key: 'a', operator: 'Exists' }], containers: [container()] });
  const FORBIDDEN =
    'spec: Forbidden: pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)';

  it('images, a lower deadline and added tolerations may change', () => {
    expect(updateCauses('pods', pod({ activeDeadlineSeconds: 60, tolerations: [{ key: 'a', operator: 'Exists' }, { key: 'b', operator: 'Exists' }], containers: [container({ image: 'nginx:1.28' })] }), old)).toEqual([]);
  });

  it('any other change is refused with kube\'s message (without the diff kube appends)', () => {
    expect(updateCauses('pods', pod({ activeDeadlineSeconds: 600, tolerations: [{ key: 'a', operator: 'Exists' }], containers: [container({ env: [{ name: 'A', value: '1' }] })] }), old)).toEqual([FORBIDDEN]);
    expect(updateCauses('pods', pod({ activeDeadlineSeconds: 600, tolerations: [{ key: 'a', operator: 'Exists' }], restartPolicy: 'Never', containers: [container()] }), old)).toEqual([FORBIDDEN]);
  });

  it('adding a container, raising the deadline, removing a toleration', () => {
    expect(updateCauses('pods', pod({ activeDeadlineSeconds: 600, tolerations: [{ key: 'a', operator: 'Exists' }], containers: [container(), container({ name: 'd' })] }), old)).toEqual([
      'spec.containers: Forbidden: pod updates may not add or remove containers',
    ]);
    expect(updateCauses('pods', pod({ activeDeadlineSeconds: 900, tolerations: [{ key: 'a', operator: 'Exists' }], containers: [container()] }), old)).toEqual([
      'spec.activeDeadlineSeconds: Invalid value: 900: must be less than or equal to previous value',
    ]);
    expect(updateCauses('pods', pod({ activeDeadlineSeconds: 600, containers: [container()] }), old)).toEqual([
      'spec.tolerations: Forbidden: existing toleration can not be modified except its tolerationSeconds',
    ]);
  });

  it('an image cannot be emptied', () => {
    expect(updateCauses('pods', pod({ activeDeadlineSeconds: 600, tolerations: [{ key: 'a', operator: 'Exists' }], containers: [container({ image: '' })] }), old)).toEqual([
      'spec.containers[0].image: Required value',
      'spec.containers[0].image: Required value',
    ]);
  });
});
