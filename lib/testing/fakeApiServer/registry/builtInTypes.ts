import { coreEventFieldSelectors, eventsV1FieldSelectors } from './events.js';
import { toType, type JsonObject, type ResourceDefinition, type ResourceType } from '../resources.js';

const path = (...keys: string[]) => (obj: JsonObject): string | undefined => {
  let v: unknown = obj;
  for (const k of keys) v = v && typeof v === 'object' ? (v as JsonObject)[k] : undefined;
  return v === undefined || v === null ? undefined : String(v);
};

const core = (plural: string, kind: string, namespaced: boolean, shortNames: string[], flags: Partial<ResourceType> = {}, fields: ResourceDefinition['fieldSelectors'] = {}) =>
  toType({ group: '', version: 'v1', plural, kind, namespaced, shortNames, fieldSelectors: fields }, true, flags);
const apps = (plural: string, kind: string, shortNames: string[], fields: ResourceDefinition['fieldSelectors'] = {}) =>
  toType({ group: 'apps', version: 'v1', plural, kind, namespaced: true, shortNames, fieldSelectors: fields }, true, { setsGeneration: true });

/** The built-in types served by default (core/v1, apps/v1, batch/v1 Jobs, rbac.authorization.k8s.io/v1, coordination.k8s.io/v1 Leases and events.k8s.io/v1). */
export const builtInResourceTypes: ReadonlyArray<ResourceType> = Object.freeze([
  core('pods', 'Pod', true, ['po'], { returnsDeletedObject: true, setsGeneration: true }, {
    'spec.nodeName': path('spec', 'nodeName'),
    'spec.restartPolicy': path('spec', 'restartPolicy'),
    'spec.schedulerName': path('spec', 'schedulerName'),
    'spec.serviceAccountName': path('spec', 'serviceAccountName'),
    'status.phase': path('status', 'phase'),
    'status.podIP': path('status', 'podIP'),
    'status.nominatedNodeName': path('status', 'nominatedNodeName'),
  }),
  core('configmaps', 'ConfigMap', true, ['cm']),
  core('secrets', 'Secret', true, [], {}, { type: path('type') }),
  core('namespaces', 'Namespace', false, ['ns'], {}, { 'status.phase': path('status', 'phase') }),
  core('nodes', 'Node', false, ['no'], {}, { 'spec.unschedulable': path('spec', 'unschedulable') }),
  core('services', 'Service', true, ['svc']),
  core('serviceaccounts', 'ServiceAccount', true, ['sa'], { returnsDeletedObject: true }),
  core('events', 'Event', true, ['ev'], {}, coreEventFieldSelectors),
  core('endpoints', 'Endpoints', true, ['ep']),
  core('persistentvolumeclaims', 'PersistentVolumeClaim', true, ['pvc']),
  apps('deployments', 'Deployment', ['deploy']),
  apps('replicasets', 'ReplicaSet', ['rs'], { 'status.replicas': path('status', 'replicas') }),
  apps('statefulsets', 'StatefulSet', ['sts']),
  apps('daemonsets', 'DaemonSet', ['ds']),
  // Leader election and sharding membership (coordination.k8s.io/v1); no short name, as in kube.
  toType({ group: 'coordination.k8s.io', version: 'v1', plural: 'leases', kind: 'Lease', namespaced: true }, true, { setsGeneration: false }),
  // batch/v1 Jobs and rbac.authorization.k8s.io/v1: what `kubectl create job|role|rolebinding` write.
  toType({ group: 'batch', version: 'v1', plural: 'jobs', kind: 'Job', namespaced: true }, true, { setsGeneration: true }),
  toType({ group: 'rbac.authorization.k8s.io', version: 'v1', plural: 'roles', kind: 'Role', namespaced: true }, true, { setsGeneration: false }),
  toType({ group: 'rbac.authorization.k8s.io', version: 'v1', plural: 'rolebindings', kind: 'RoleBinding', namespaced: true }, true, { setsGeneration: false }),
  toType({ group: 'rbac.authorization.k8s.io', version: 'v1', plural: 'clusterroles', kind: 'ClusterRole', namespaced: false }, true, { setsGeneration: false }),
  toType({ group: 'rbac.authorization.k8s.io', version: 'v1', plural: 'clusterrolebindings', kind: 'ClusterRoleBinding', namespaced: false }, true, { setsGeneration: false }),
  // events.k8s.io/v1: what event recorders write (client-go's tools/events, kube-rs's Recorder).
  toType({ group: 'events.k8s.io', version: 'v1', plural: 'events', kind: 'Event', namespaced: true, shortNames: ['ev'], fieldSelectors: eventsV1FieldSelectors }, true, {
    setsGeneration: false,
  }),
]);

