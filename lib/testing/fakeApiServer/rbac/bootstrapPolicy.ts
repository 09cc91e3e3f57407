// The ClusterRoles and ClusterRoleBindings kube-apiserver writes at start (KK
// plugin/pkg/auth/authorizer/rbac/bootstrappolicy, testdata/cluster-roles.yaml and
// cluster-role-bindings.yaml): the user-facing roles (cluster-admin, and admin / edit / view, which
// aggregate the system:aggregate-to-* roles), the discovery and self-review roles every
// authenticated user is bound to, and the ServiceAccount issuer discovery. The node, controller and
// kube-system roles are left out: no kubelet or controller-manager authenticates to this server.
import type { PolicyRule, RbacBinding, RbacRole } from './rbacObjects.js';

const metadata = (name: string, labels: { [k: string]: string } = {}) => ({
  name,
  labels: { 'kubernetes.io/bootstrapping': 'rbac-defaults', ...labels },
  annotations: { 'rbac.authorization.kubernetes.io/autoupdate': 'true' },
});
const r = (apiGroups: string[], resources: string[], verbs: string[]): PolicyRule => ({ apiGroups, resources, verbs });
const urls = (nonResourceURLs: string[], verbs: string[]): PolicyRule => ({ nonResourceURLs, verbs });
const READ = ['get', 'list', 'watch'];
const WRITE = ['create', 'delete', 'deletecollection', 'patch', 'update'];
const ALL_VERBS = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];
const aggregated = (name: string, to: string, labels: { [k: string]: string } = {}) => ({
  apiVersion: 'rbac.authorization.k8s.io/v1',
  kind: 'ClusterRole',
  metadata: metadata(name, labels),
  aggregationRule: { clusterRoleSelectors: [{ matchLabels: { [`rbac.authorization.k8s.io/aggregate-to-${to}`]: 'true' } }] },
  rules: [] as PolicyRule[],
});
const role = (name: string, rules: PolicyRule[], labels: { [k: string]: string } = {}) => ({
  apiVersion: 'rbac.authorization.k8s.io/v1',
  kind: 'ClusterRole',
  metadata: metadata(name, labels),
  rules,
});

/**
 * The bootstrap ClusterRoles, before aggregation fills admin, edit and view.
 *
 * @example
 * ```ts
 * bootstrapClusterRoles.find((r) => r.metadata?.name === 'view')?.aggregationRule;
 * ```
 */
export const bootstrapClusterRoles: ReadonlyArray<RbacRole & { readonly apiVersion: string; readonly kind: string }> = [
  aggregated('admin', 'admin'),
  role('cluster-admin', [r(['*'], ['*'], ['*']), urls(['*'], ['*'])]),
  aggregated('edit', 'edit', { 'rbac.authorization.k8s.io/aggregate-to-admin': 'true' }),
  aggregated('view', 'view', { 'rbac.authorization.k8s.io/aggregate-to-edit': 'true' }),
  role('system:aggregate-to-admin', [r(['authorization.k8s.io'], ['localsubjectaccessreviews'], ['create']), r(['rbac.authorization.k8s.io'], ['rolebindings', 'roles'], ALL_VERBS)], {
    'rbac.authorization.k8s.io/aggregate-to-admin': 'true',
  }),
  role(
    'system:aggregate-to-edit',
    [
      r([''], ['pods/attach', 'pods/exec', 'pods/portforward', 'pods/proxy', 'secrets', 'services/proxy'], READ),
      r([''], ['serviceaccounts'], ['impersonate']),
      r([''], ['pods', 'pods/attach', 'pods/exec', 'pods/portforward', 'pods/proxy'], WRITE),
      r([''], ['pods/eviction'], ['create']),
      r([''], ['configmaps', 'events', 'persistentvolumeclaims', 'replicationcontrollers', 'replicationcontrollers/scale', 'secrets', 'serviceaccounts', 'services', 'services/proxy'], WRITE),
      r([''], ['serviceaccounts/token'], ['create']),
      r(['apps'], ['daemonsets', 'deployments', 'deployments/rollback', 'deployments/scale', 'replicasets', 'replicasets/scale', 'statefulsets', 'statefulsets/scale'], WRITE),
      r(['autoscaling'], ['horizontalpodautoscalers'], WRITE),
      r(['batch'], ['cronjobs', 'jobs'], WRITE),
      r(['extensions'], ['daemonsets', 'deployments', 'deployments/rollback', 'deployments/scale', 'ingresses', 'networkpolicies', 'replicasets', 'replicasets/scale', 'replicationcontrollers/scale'], WRITE),
      r(['policy'], ['poddisruptionbudgets'], WRITE),
      r(['networking.k8s.io'], ['ingresses', 'networkpolicies'], WRITE),
      r(['coordination.k8s.io'], ['leases'], ALL_VERBS),
    ],
    { 'rbac.authorization.k8s.io/aggregate-to-edit': 'true' },
  ),
  role(
    'system:aggregate-to-view',
    [
      r([''], ['configmaps', 'endpoints', 'persistentvolumeclaims', 'persistentvolumeclaims/status', 'pods', 'replicationcontrollers', 'replicationcontrollers/scale', 'serviceaccounts', 'services', 'services/status'], READ),
      r([''], ['bindings', 'events', 'limitranges', 'namespaces/status', 'pods/log', 'pods/status', 'replicationcontrollers/status', 'resourcequotas', 'resourcequotas/status'], READ),
      r([''], ['namespaces'], READ),
      r(['discovery.k8s.io'], ['endpointslices'], READ),
      r(['apps'], ['controllerrevisions', 'daemonsets', 'daemonsets/status', 'deployments', 'deployments/scale', 'deployments/status', 'replicasets', 'replicasets/scale', 'replicasets/status', 'statefulsets', 'statefulsets/scale', 'statefulsets/status'], READ),
      r(['autoscaling'], ['horizontalpodautoscalers', 'horizontalpodautoscalers/status'], READ),
      r(['batch'], ['cronjobs', 'cronjobs/status', 'jobs', 'jobs/status'], READ),
      r(['extensions'], ['daemonsets', 'daemonsets/status', 'deployments', 'deployments/scale', 'deployments/status', 'ingresses', 'ingresses/status', 'networkpolicies', 'replicasets', 'replicasets/scale', 'replicasets/status', 'replicationcontrollers/scale'], READ),
      r(['policy'], ['poddisruptionbudgets', 'poddisruptionbudgets/status'], READ),
      r(['networking.k8s.io'], ['ingresses', 'ingresses/status', 'networkpolicies'], READ),
    ],
    { 'rbac.authorization.k8s.io/aggregate-to-view': 'true' },
  ),
  role('system:auth-delegator', [r(['authentication.k8s.io'], ['tokenreviews'], ['create']), r(['authorization.k8s.io'], ['subjectaccessreviews'], ['create'])]),
  role('system:basic-user', [r(['authorization.k8s.io'], ['selfsubjectaccessreviews', 'selfsubjectrulesreviews'], ['create']), r(['authentication.k8s.io'], ['selfsubjectreviews'], ['create'])]),
  role('system:discovery', [urls(['/api', '/api/*', '/apis', '/apis/*', '/healthz', '/livez', '/openapi', '/openapi/*', '/readyz', '/version', '/version/'], ['get'])]),
  role('system:monitoring', [urls(['/healthz', '/healthz/*', '/livez', '/livez/*', '/metrics', '/metrics/slis', '/readyz', '/readyz/*'], ['get'])]),
  role('system:public-info-viewer', [urls(['/healthz', '/livez', '/readyz', '/version', '/version/'], ['get'])]),
  role('system:service-account-issuer-discovery', [urls(['/.well-known/openid-configuration', '/openid/v1/jwks'], ['get'])]),
];

const group = (name: string) => ({ apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name });
const binding = (name: string, subjects: ReturnType<typeof group>[]) => ({
  apiVersion: 'rbac.authorization.k8s.io/v1',
  kind: 'ClusterRoleBinding',
  metadata: metadata(name),
  roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name },
  subjects,
});

/**
 * The bootstrap ClusterRoleBindings: cluster-admin to `system:masters`, discovery and the self
 * reviews to every authenticated user, public info to anyone.
 *
 * @example
 * ```ts
 * bootstrapClusterRoleBindings.map((b) => b.metadata?.name); // ['cluster-admin', 'system:basic-user', ...]
 * ```
 */
export const bootstrapClusterRoleBindings: ReadonlyArray<RbacBinding & { readonly apiVersion: string; readonly kind: string }> = [
  binding('cluster-admin', [group('system:masters')]),
  binding('system:basic-user', [group('system:authenticated')]),
  binding('system:discovery', [group('system:authenticated')]),
  binding('system:monitoring', [group('system:monitoring')]),
  binding('system:public-info-viewer', [group('system:authenticated'), group('system:unauthenticated')]),
  binding('system:service-account-issuer-discovery', [group('system:serviceaccounts')]),
];
