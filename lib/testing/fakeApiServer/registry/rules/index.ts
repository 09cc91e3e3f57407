import type { TypeRules } from '../typeRules.js';
import { deploymentRules } from './apps/deployment.js';
import { daemonSetRules } from './apps/daemonSet.js';
import { replicaSetRules } from './apps/replicaSet.js';
import { statefulSetRules } from './apps/statefulSet.js';
import { horizontalPodAutoscalerRules } from './autoscaling/horizontalPodAutoscaler.js';
import { cronJobRules } from './batch/cronJob.js';
import { jobRules } from './batch/job.js';
import { leaseRules } from './coordination/lease.js';
import { configMapRules } from './core/configMap.js';
import { endpointsRules } from './core/endpoints.js';
import { namespaceRules } from './core/namespace.js';
import { pvcRules } from './core/persistentVolumeClaim.js';
import { podRules } from './core/pod.js';
import { podTemplateRules } from './core/podTemplate.js';
import { replicationControllerRules } from './core/replicationController.js';
import { secretRules } from './core/secret.js';
import { serviceRules } from './core/service.js';
import { endpointSliceRules } from './discovery/endpointSlice.js';
import { ingressRules } from './networking/ingress.js';
import { networkPolicyRules } from './networking/networkPolicy.js';
import { podDisruptionBudgetRules } from './policy/podDisruptionBudget.js';
import { clusterRoleBindingRules, roleBindingRules } from './rbac/bindings.js';
import { clusterRoleRules, roleRules } from './rbac/roles.js';
import { admissionPolicyRules } from './admissionregistration/admissionPolicies.js';
import { webhookConfigurationRules } from './admissionregistration/webhookConfigurations.js';

export { NODE_PORT_RANGE, SERVICE_CLUSTER_IP_RANGE } from './core/serviceAllocation.js';

// The built-in types' rules, by type id: kube's defaulting (pkg/apis/*/v1/defaults.go and the
// generated defaulters), validation and immutability (pkg/apis/*/validation, registry
// strategies) as of Kubernetes 1.34, the version the fake server reports.

/**
 * Every built-in type's {@link TypeRules}, keyed by type id (`pods`, `deployments.apps`, ...).
 *
 * @example
 * ```ts
 * const rules = builtInTypeRules.get('deployments.apps');
 * rules?.defaults?.(deployment); // deployment.spec.replicas === 1, ...
 * ```
 */
export const builtInTypeRules: ReadonlyMap<string, TypeRules> = new Map<string, TypeRules>([
  ['pods', podRules],
  ['podtemplates', podTemplateRules],
  ['replicationcontrollers', replicationControllerRules],
  ['services', serviceRules],
  ['endpoints', endpointsRules],
  ['configmaps', configMapRules],
  ['secrets', secretRules],
  ['namespaces', namespaceRules],
  // kube checks a ServiceAccount's metadata only.
  ['serviceaccounts', {}],
  ['persistentvolumeclaims', pvcRules],
  ['deployments.apps', deploymentRules],
  ['replicasets.apps', replicaSetRules],
  ['statefulsets.apps', statefulSetRules],
  ['daemonsets.apps', daemonSetRules],
  ['jobs.batch', jobRules],
  ['cronjobs.batch', cronJobRules],
  ['ingresses.networking.k8s.io', ingressRules],
  ['networkpolicies.networking.k8s.io', networkPolicyRules],
  ['poddisruptionbudgets.policy', podDisruptionBudgetRules],
  ['horizontalpodautoscalers.autoscaling', horizontalPodAutoscalerRules],
  ['leases.coordination.k8s.io', leaseRules],
  ['roles.rbac.authorization.k8s.io', roleRules],
  ['clusterroles.rbac.authorization.k8s.io', clusterRoleRules],
  ['rolebindings.rbac.authorization.k8s.io', roleBindingRules],
  ['clusterrolebindings.rbac.authorization.k8s.io', clusterRoleBindingRules],
  ['endpointslices.discovery.k8s.io', endpointSliceRules],
  ...webhookConfigurationRules,
  ...admissionPolicyRules,
]);
