import type { Resource } from '../listwatch/resource.js';

const core = (plural: string, kind: string, namespaced = true): Resource =>
  Object.freeze({ group: '', version: 'v1', plural, kind, namespaced });
const grouped = (group: string, version: string, plural: string, kind: string, namespaced = true): Resource =>
  Object.freeze({ group, version, plural, kind, namespaced });

/**
 * The common built-in resources, as {@link Resource}s for `listWatch` and `informerFor`. The shared
 * informer factory's typed accessors (`pods()`, `deployments()`, ...) use these.
 *
 * @example
 * ```ts
 * const lw = listWatch<V1Pod>(kubeConfig, builtInResources.pods, { namespace: 'default' });
 * const nodes = factory.informerFor<V1Node>(builtInResources.nodes);
 * ```
 */
export const builtInResources = Object.freeze({
  pods: core('pods', 'Pod'),
  configMaps: core('configmaps', 'ConfigMap'),
  secrets: core('secrets', 'Secret'),
  services: core('services', 'Service'),
  endpoints: core('endpoints', 'Endpoints'),
  events: core('events', 'Event'),
  serviceAccounts: core('serviceaccounts', 'ServiceAccount'),
  persistentVolumeClaims: core('persistentvolumeclaims', 'PersistentVolumeClaim'),
  persistentVolumes: core('persistentvolumes', 'PersistentVolume', false),
  nodes: core('nodes', 'Node', false),
  namespaces: core('namespaces', 'Namespace', false),
  deployments: grouped('apps', 'v1', 'deployments', 'Deployment'),
  replicaSets: grouped('apps', 'v1', 'replicasets', 'ReplicaSet'),
  statefulSets: grouped('apps', 'v1', 'statefulsets', 'StatefulSet'),
  daemonSets: grouped('apps', 'v1', 'daemonsets', 'DaemonSet'),
  jobs: grouped('batch', 'v1', 'jobs', 'Job'),
  cronJobs: grouped('batch', 'v1', 'cronjobs', 'CronJob'),
  ingresses: grouped('networking.k8s.io', 'v1', 'ingresses', 'Ingress'),
  customResourceDefinitions: grouped('apiextensions.k8s.io', 'v1', 'customresourcedefinitions', 'CustomResourceDefinition', false),
});

/**
 * A resource's name as kubectl writes it: `plural` for the core group, `plural.group` otherwise
 * (`pods`, `deployments.apps`). The shared informer factory's `resyncPeriods` are keyed by it.
 *
 * @example
 * ```ts
 * resourceName(builtInResources.deployments); // 'deployments.apps'
 * ```
 */
export function resourceName(resource: Resource): string {
  return resource.group === '' ? resource.plural : `${resource.plural}.${resource.group}`;
}
