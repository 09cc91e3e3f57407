// kube's printers of Namespaces, Nodes, ConfigMaps, Secrets, ServiceAccounts, Leases, Events (core
// and events.k8s.io), PVCs, PVs, StorageClasses, PDBs, HPAs and RBAC bindings.
import { describe, expect, it } from '@jest/globals';
import { configMapPrinter, leasePrinter, namespacePrinter, nodePrinter, secretPrinter, serviceAccountPrinter } from '../../../lib/testing/fakeApiServer/printers/cluster.js';
import { eventPrinter, eventsV1Printer } from '../../../lib/testing/fakeApiServer/printers/events.js';
import { hpaPrinter, pdbPrinter } from '../../../lib/testing/fakeApiServer/printers/policy.js';
import { clusterRoleBindingPrinter, roleBindingPrinter } from '../../../lib/testing/fakeApiServer/printers/rbac.js';
import { pvcPrinter, pvPrinter, storageClassPrinter } from '../../../lib/testing/fakeApiServer/printers/storage.js';
import type { TablePrinter } from '../../../lib/testing/fakeApiServer/printers/table.js';
import type { JsonObject } from '../../../lib/testing/fakeApiServer/resources.js';
import { minutesAgo, NOW, object } from './fixtures.js';

const names = (p: TablePrinter): string[] => p.columns.map((c) => (c.priority > 0 ? `${c.name}*` : c.name));

describe('column sets (* = wide)', () => {
  it.each<[string, TablePrinter, string[]]>([
    ['namespaces', namespacePrinter, ['Name', 'Status', 'Age']],
    ['nodes', nodePrinter, ['Name', 'Status', 'Roles', 'Age', 'Version', 'Internal-IP*', 'External-IP*', 'OS-Image*', 'Kernel-Version*', 'Container-Runtime*']],
    ['configmaps', configMapPrinter, ['Name', 'Data', 'Age']],
    ['secrets', secretPrinter, ['Name', 'Type', 'Data', 'Age']],
    ['serviceaccounts', serviceAccountPrinter, ['Name', 'Secrets', 'Age']],
    ['leases', leasePrinter, ['Name', 'Holder', 'Age']],
    ['events', eventPrinter, ['Last Seen', 'Type', 'Reason', 'Object', 'Subobject*', 'Source*', 'Message', 'First Seen*', 'Count*', 'Name*']],
    ['events.k8s.io events', eventsV1Printer, ['Last Seen', 'Type', 'Reason', 'Object', 'Subobject*', 'Source*', 'Message', 'First Seen*', 'Count*', 'Name*']],
    ['persistentvolumeclaims', pvcPrinter, ['Name', 'Status', 'Volume', 'Capacity', 'Access Modes', 'StorageClass', 'VolumeAttributesClass', 'Age', 'VolumeMode*']],
    [
      'persistentvolumes',
      pvPrinter,
      ['Name', 'Capacity', 'Access Modes', 'Reclaim Policy', 'Status', 'Claim', 'StorageClass', 'VolumeAttributesClass', 'Reason', 'Age', 'VolumeMode*'],
    ],
    ['storageclasses', storageClassPrinter, ['Name', 'Provisioner', 'ReclaimPolicy', 'VolumeBindingMode', 'AllowVolumeExpansion', 'Age']],
    ['poddisruptionbudgets', pdbPrinter, ['Name', 'Min Available', 'Max Unavailable', 'Allowed Disruptions', 'Age']],
    ['horizontalpodautoscalers', hpaPrinter, ['Name', 'Reference', 'Targets', 'MinPods', 'MaxPods', 'Replicas', 'Age']],
    ['rolebindings', roleBindingPrinter, ['Name', 'Role', 'Age', 'Users*', 'Groups*', 'ServiceAccounts*']],
    ['clusterrolebindings', clusterRoleBindingPrinter, ['Name', 'Role', 'Age', 'Users*', 'Groups*', 'ServiceAccounts*']],
  ])('%s', (_t, printer, expected) => {
    expect(names(printer)).toEqual(expected);
  });

  it('gives events their Name last, still formatted as a name', () => {
    expect(eventPrinter.columns.at(-1)).toMatchObject({ name: 'Name', format: 'name', priority: 1 });
  });
});

describe('rows', () => {
  it.each<[string, TablePrinter, JsonObject, ReadonlyArray<unknown>]>([
    ['a namespace', namespacePrinter, object('shop', { status: { phase: 'Active' } }), ['shop', 'Active', '5m']],
    ['a terminating namespace', namespacePrinter, object('old', { status: { phase: 'Terminating' } }), ['old', 'Terminating', '5m']],
    ['a namespace without status reads Active', namespacePrinter, object('new', {}), ['new', 'Active', '5m']],
    [
      'a ready control-plane node',
      nodePrinter,
      object('node-1', {
        status: {
          conditions: [{ type: 'MemoryPressure', status: 'False' }, { type: 'Ready', status: 'True' }],
          addresses: [{ type: 'Hostname', address: 'node-1' }, { type: 'InternalIP', address: '172.18.0.2' }],
          nodeInfo: { kubeletVersion: 'v1.33.1', osImage: 'Debian GNU/Linux 12 (bookworm)', kernelVersion: '6.8.0', containerRuntimeVersion: 'containerd://2.1.1' },
        },
      }, { labels: { 'node-role.kubernetes.io/control-plane': '', 'kubernetes.io/role': 'master', 'node-role.kubernetes.io/': 'x' } }),
      ['node-1', 'Ready', 'control-plane,master', '5m', 'v1.33.1', '172.18.0.2', '<none>', 'Debian GNU/Linux 12 (bookworm)', '6.8.0', 'containerd://2.1.1'],
    ],
    [
      'a cordoned node that is not ready',
      nodePrinter,
      object('node-2', { spec: { unschedulable: true }, status: { conditions: [{ type: 'Ready', status: 'Unknown' }], addresses: [{ type: 'ExternalIP', address: '198.51.100.7' }] } }),
      ['node-2', 'NotReady,SchedulingDisabled', '<none>', '5m', '', '<none>', '198.51.100.7', '<unknown>', '<unknown>', '<unknown>'],
    ],
    ['a node without conditions', nodePrinter, object('node-3', {}), ['node-3', 'Unknown', '<none>', '5m', '', '<none>', '<none>', '<unknown>', '<unknown>', '<unknown>']],
    ['a configmap counts data and binaryData', configMapPrinter, object('cfg', { data: { a: '1', b: '2' }, binaryData: { c: 'AA==' } }), ['cfg', 3, '5m']],
    ['an empty configmap', configMapPrinter, object('cfg', {}), ['cfg', 0, '5m']],
    ['a TLS secret', secretPrinter, object('tls', { type: 'kubernetes.io/tls', data: { 'tls.crt': 'eA==', 'tls.key': 'eQ==' } }), ['tls', 'kubernetes.io/tls', 2, '5m']],
    ['a secret with stringData', secretPrinter, object('s', { data: { a: 'eA==' }, stringData: { a: 'x', b: 'y' } }), ['s', 'Opaque', 2, '5m']],
    ['a service account', serviceAccountPrinter, object('default', {}), ['default', 0, '5m']],
    ['a service account listing a secret', serviceAccountPrinter, object('builder', { secrets: [{ name: 'builder-token' }] }), ['builder', 1, '5m']],
    ['a held lease', leasePrinter, object('controller', { spec: { holderIdentity: 'pod-a_1234' } }), ['controller', 'pod-a_1234', '5m']],
    ['a free lease', leasePrinter, object('controller', { spec: {} }), ['controller', '', '5m']],
  ])('%s', (_what, printer, o, cells) => {
    expect(printer.row(o, NOW).cells).toEqual(cells);
  });
});

describe('events', () => {
  it.each<[string, JsonObject, ReadonlyArray<unknown>]>([
    [
      'a recorded event (record.EventRecorder)',
      object('web-0.17f2', {
        involvedObject: { kind: 'Pod', name: 'web-0', namespace: 'shop', fieldPath: 'spec.containers{app}' },
        reason: 'Pulled',
        message: '  Successfully pulled image "nginx"\n',
        type: 'Normal',
        source: { component: 'kubelet', host: 'node-1' },
        firstTimestamp: minutesAgo(4),
        lastTimestamp: minutesAgo(2),
        count: 3,
      }),
      ['2m', 'Normal', 'Pulled', 'pod/web-0', 'spec.containers{app}', 'kubelet, node-1', 'Successfully pulled image "nginx"', '4m', 3, 'web-0.17f2'],
    ],
    [
      'a new-API event seen once (no count, no last timestamp)',
      object('ev1', {
        involvedObject: { kind: 'Deployment', name: 'web' },
        reason: 'ScalingReplicaSet',
        message: 'Scaled up',
        type: 'Normal',
        eventTime: '2026-05-01T11:57:00.000000Z',
        reportingComponent: 'deployment-controller',
        reportingInstance: '',
      }),
      ['3m', 'Normal', 'ScalingReplicaSet', 'deployment/web', '', 'deployment-controller', 'Scaled up', '3m', 1, 'ev1'],
    ],
    [
      'a series: its count and last observed time',
      object('ev2', {
        involvedObject: { kind: 'Node' },
        reason: 'Rebooted',
        type: 'Warning',
        eventTime: minutesAgo(10),
        series: { count: 7, lastObservedTime: minutesAgo(1) },
        reportingComponent: 'kubelet',
        reportingInstance: 'node-1',
      }),
      ['60s', 'Warning', 'Rebooted', 'node', '', 'kubelet, node-1', '', '10m', 7, 'ev2'],
    ],
    ['an event without times', object('ev3', { involvedObject: { kind: 'Pod', name: 'p' } }), ['<unknown>', '', '', 'pod/p', '', '', '', '<unknown>', 1, 'ev3']],
  ])('%s', (_what, ev, cells) => {
    expect(eventPrinter.row(ev, NOW).cells).toEqual(cells);
  });

  it('prints events.k8s.io/v1 Events through kube’s conversion to the core shape', () => {
    const ev = object('web.1', {
      apiVersion: 'events.k8s.io/v1',
      kind: 'Event',
      regarding: { kind: 'Pod', name: 'web-0', fieldPath: 'spec.containers{app}' },
      reason: 'Started',
      note: 'Started container app',
      type: 'Normal',
      action: 'Start',
      eventTime: minutesAgo(6),
      reportingController: 'kubelet',
      reportingInstance: 'node-1',
      deprecatedFirstTimestamp: minutesAgo(4),
      deprecatedLastTimestamp: minutesAgo(1),
      deprecatedCount: 2,
    });
    expect(eventsV1Printer.row(ev, NOW).cells).toEqual(['60s', 'Normal', 'Started', 'pod/web-0', 'spec.containers{app}', 'kubelet, node-1', 'Started container app', '4m', 2, 'web.1']);
    expect(eventsV1Printer.row(object('e', { regarding: { kind: 'Pod', name: 'a' }, note: 'n', eventTime: minutesAgo(2), series: { count: 4, lastObservedTime: minutesAgo(1) } }), NOW).cells).toEqual([
      '60s',
      '',
      '',
      'pod/a',
      '',
      '',
      'n',
      '2m',
      4,
      'e',
    ]);
  });
});

describe('storage', () => {
  it.each<[string, TablePrinter, JsonObject, ReadonlyArray<unknown>]>([
    [
      'a pending claim',
      pvcPrinter,
      object('data', { spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, storageClassName: 'standard' }, status: { phase: 'Pending' } }),
      ['data', 'Pending', '', '', '', 'standard', '<unset>', '5m', 'Filesystem'],
    ],
    [
      'a bound claim shows capacity and access modes from status',
      pvcPrinter,
      object('data', {
        spec: { volumeName: 'pv-1', volumeMode: 'Block', volumeAttributesClassName: 'gold' },
        status: { phase: 'Bound', capacity: { storage: '2Gi' }, accessModes: ['ReadWriteOncePod', 'ReadWriteMany', 'ReadWriteOnce'] },
      }, { annotations: { 'volume.beta.kubernetes.io/storage-class': 'legacy' } }),
      ['data', 'Bound', 'pv-1', '2Gi', 'RWO,RWX,RWOP', 'legacy', 'gold', '5m', 'Block'],
    ],
    [
      'a claim being deleted',
      pvcPrinter,
      object('data', { spec: {}, status: { phase: 'Bound' } }, { deletionTimestamp: minutesAgo(0) }),
      ['data', 'Terminating', '', '', '', '', '<unset>', '5m', 'Filesystem'],
    ],
    [
      'a bound volume',
      pvPrinter,
      object('pv-1', {
        spec: { capacity: { storage: '2Gi' }, accessModes: ['ReadOnlyMany'], claimRef: { namespace: 'shop', name: 'data' }, storageClassName: 'standard' },
        status: { phase: 'Bound' },
      }),
      ['pv-1', '2Gi', 'ROX', 'Retain', 'Bound', 'shop/data', 'standard', '<unset>', '', '5m', 'Filesystem'],
    ],
    [
      'the default storage class',
      storageClassPrinter,
      object('standard', { provisioner: 'rancher.io/local-path', volumeBindingMode: 'WaitForFirstConsumer' }, { annotations: { 'storageclass.kubernetes.io/is-default-class': 'true' } }),
      ['standard (default)', 'rancher.io/local-path', 'Delete', 'WaitForFirstConsumer', false, '5m'],
    ],
    [
      'another storage class',
      storageClassPrinter,
      object('fast', { provisioner: 'csi.example.com', reclaimPolicy: 'Retain', allowVolumeExpansion: true }),
      ['fast', 'csi.example.com', 'Retain', 'Immediate', true, '5m'],
    ],
  ])('%s', (_what, printer, o, cells) => {
    expect(printer.row(o, NOW).cells).toEqual(cells);
  });
});

describe('policy and autoscaling', () => {
  it.each<[string, TablePrinter, JsonObject, ReadonlyArray<unknown>]>([
    ['a PDB with minAvailable', pdbPrinter, object('web', { spec: { minAvailable: 2 }, status: { disruptionsAllowed: 1 } }), ['web', '2', 'N/A', 1, '5m']],
    ['a PDB with maxUnavailable in percent', pdbPrinter, object('web', { spec: { maxUnavailable: '25%' } }), ['web', 'N/A', '25%', 0, '5m']],
    [
      'an HPA before metrics arrive: CPU utilization target',
      hpaPrinter,
      object('web', {
        spec: { scaleTargetRef: { kind: 'Deployment', name: 'web' }, minReplicas: 2, maxReplicas: 10, metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } }] },
        status: { currentReplicas: 2 },
      }),
      ['web', 'Deployment/web', 'cpu: <unknown>/80%', '2', 10, 2, '5m'],
    ],
    [
      'an HPA with current metrics of each kind, then two more',
      hpaPrinter,
      object('web', {
        spec: {
          scaleTargetRef: { kind: 'StatefulSet', name: 'db' },
          maxReplicas: 5,
          metrics: [
            { type: 'Resource', resource: { name: 'memory', target: { type: 'AverageValue', averageValue: '512Mi' } } },
            { type: 'Pods', pods: { metric: { name: 'qps' }, target: { type: 'AverageValue', averageValue: '100' } } },
            { type: 'External', external: { metric: { name: 'queue' }, target: { type: 'Value', value: '30' } } },
            { type: 'Object', object: { metric: { name: 'rps' }, target: { type: 'AverageValue', averageValue: '10' } } },
          ],
        },
        status: {
          currentReplicas: 3,
          currentMetrics: [{ type: 'Resource', resource: { name: 'memory', current: { averageValue: '300Mi' } } }, { type: 'Pods', pods: { current: { averageValue: '85' } } }],
        },
      }),
      ['web', 'StatefulSet/db', 'memory: 300Mi/512Mi, 85/100 + 2 more...', '1', 5, 3, '5m'],
    ],
    [
      'an HPA target without utilization: <auto>',
      hpaPrinter,
      object('web', { spec: { scaleTargetRef: { kind: 'Deployment', name: 'w' }, maxReplicas: 3, metrics: [{ type: 'ContainerResource', containerResource: { name: 'cpu', container: 'app', target: { type: 'Utilization' } } }, { type: 'Custom' }] } }),
      ['web', 'Deployment/w', 'cpu: <unknown>/<auto>, <unknown type>', '1', 3, 0, '5m'],
    ],
    [
      'an HPA with external and object values',
      hpaPrinter,
      object('web', {
        spec: {
          scaleTargetRef: { kind: 'Deployment', name: 'w' },
          maxReplicas: 3,
          metrics: [{ type: 'External', external: { target: { averageValue: '2' } } }, { type: 'Object', object: { target: { value: '7' } } }],
        },
        status: { currentMetrics: [{ type: 'External', external: { current: { averageValue: '1' } } }, { type: 'Object', object: { current: { value: '6' } } }] },
      }),
      ['web', 'Deployment/w', '1/2 (avg), 6/7', '1', 3, 0, '5m'],
    ],
    [
      'an autoscaling/v1 HPA',
      hpaPrinter,
      object('web', { spec: { scaleTargetRef: { kind: 'Deployment', name: 'web' }, maxReplicas: 4, targetCPUUtilizationPercentage: 50 }, status: { currentReplicas: 1, currentCPUUtilizationPercentage: 12 } }),
      ['web', 'Deployment/web', 'cpu: 12%/50%', '1', 4, 1, '5m'],
    ],
    [
      'an HPA without metrics reads as v2’s default, 80% CPU',
      hpaPrinter,
      object('web', { spec: { scaleTargetRef: { kind: 'Deployment', name: 'web' }, maxReplicas: 4 } }),
      ['web', 'Deployment/web', 'cpu: <unknown>/80%', '1', 4, 0, '5m'],
    ],
  ])('%s', (_what, printer, o, cells) => {
    expect(printer.row(o, NOW).cells).toEqual(cells);
  });
});

describe('rbac bindings', () => {
  it('lists users, groups and service accounts (namespace/name) wide', () => {
    const rb = object('readers', {
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' },
      subjects: [
        { kind: 'User', name: 'alice' },
        { kind: 'ServiceAccount', name: 'ctrl', namespace: 'shop' },
        { kind: 'Group', name: 'devs' },
        { kind: 'User', name: 'bob' },
        { kind: 'ServiceAccount', name: 'default', namespace: 'kube-system' },
      ],
    });
    expect(roleBindingPrinter.row(rb, NOW).cells).toEqual(['readers', 'ClusterRole/view', '5m', 'alice, bob', 'devs', 'shop/ctrl, kube-system/default']);
    expect(clusterRoleBindingPrinter.row(object('admins', { roleRef: { kind: 'ClusterRole', name: 'cluster-admin' } }), NOW).cells).toEqual([
      'admins',
      'ClusterRole/cluster-admin',
      '5m',
      '',
      '',
      '',
    ]);
  });
});
