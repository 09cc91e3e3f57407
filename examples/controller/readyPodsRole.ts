// What the ready-pods controller may do on a cluster: the ClusterRole its ServiceAccount is bound
// to. Each rule says which part of the controller needs it; the RBAC spec runs the controller as
// that ServiceAccount under enforced RBAC, and again without one verb, to show the role is exact.
import type { V1ClusterRole, V1ClusterRoleBinding, V1PolicyRule } from '@kubernetes/client-node';

/** The ServiceAccount the controller runs as (its namespace is the caller's choice). */
export const SERVICE_ACCOUNT = 'ready-pods';

/** The rules, one concern each. */
export const readyPodsRules: V1PolicyRule[] = [
  // The informers: for (Deployments), owns (ReplicaSets, ConfigMaps), watches (Pods), in every namespace.
  { apiGroups: ['apps'], resources: ['deployments', 'replicasets'], verbs: ['get', 'list', 'watch'] },
  { apiGroups: [''], resources: ['pods', 'configmaps'], verbs: ['get', 'list', 'watch'] },
  // Writes: the condition (apply to /status), the label (JSON patch), the owned ConfigMap (apply, which may create it).
  { apiGroups: ['apps'], resources: ['deployments/status'], verbs: ['patch'] },
  { apiGroups: ['apps'], resources: ['deployments'], verbs: ['patch'] },
  { apiGroups: [''], resources: ['configmaps'], verbs: ['patch'] },
  // The event recorder: new Events, and their series.
  { apiGroups: ['events.k8s.io'], resources: ['events'], verbs: ['create', 'patch'] },
];

/** The controller's ClusterRole. */
export const readyPodsClusterRole = (rules: V1PolicyRule[] = readyPodsRules): V1ClusterRole => ({
  apiVersion: 'rbac.authorization.k8s.io/v1',
  kind: 'ClusterRole',
  metadata: { name: 'ready-pods' },
  rules,
});

/** Binds the ClusterRole to the controller's ServiceAccount in `namespace`. */
export const readyPodsBinding = (namespace: string): V1ClusterRoleBinding => ({
  apiVersion: 'rbac.authorization.k8s.io/v1',
  kind: 'ClusterRoleBinding',
  metadata: { name: 'ready-pods' },
  roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'ready-pods' },
  subjects: [{ kind: 'ServiceAccount', name: SERVICE_ACCOUNT, namespace }],
});
