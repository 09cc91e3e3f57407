// kube's printers by resource type (pkg/printers/internalversion's AddHandlers): the built-in types
// kubectl users see most have kube's columns; every other type prints with the default convertor
// (Name, Created At); custom resources print from their CRD's printer columns.
import { daemonSetPrinter, deploymentPrinter, replicaSetPrinter, replicationControllerPrinter, statefulSetPrinter } from './workloads.js';
import {
  controllerRevisionPrinter,
  csrPrinter,
  podTemplatePrinter,
  priorityClassPrinter,
  resourceQuotaPrinter,
  runtimeClassPrinter,
  validatingAdmissionPolicyPrinter,
  webhookConfigurationPrinter,
} from './admin.js';
import { cronJobPrinter, jobPrinter } from './batch.js';
import { configMapPrinter, leasePrinter, namespacePrinter, nodePrinter, secretPrinter, serviceAccountPrinter } from './cluster.js';
import { defaultPrinter } from './defaultConvertor.js';
import { eventPrinter, eventsV1Printer } from './events.js';
import { endpointSlicePrinter, endpointsPrinter, ingressClassPrinter, ingressPrinter, networkPolicyPrinter, servicePrinter } from './network.js';
import { podPrinter } from './pods.js';
import { hpaPrinter, pdbPrinter } from './policy.js';
import { clusterRoleBindingPrinter, roleBindingPrinter } from './rbac.js';
import { pvcPrinter, pvPrinter, storageClassPrinter } from './storage.js';
import type { TablePrinter } from './table.js';

export type { IncludeObject, PrintedRow, Table, TableCell, TableColumnDefinition, TableGroupVersion, TablePrinter, TableRow, TableRowCondition } from './table.js';
export { includeObjectOption, tableOfList, tableOfObject, type TableListMeta, type TableRequest } from './buildTable.js';
export { customResourcePrinter, printerColumnsOf, type PrinterColumn } from './customResourceColumns.js';
export { defaultPrinter } from './defaultConvertor.js';
export { humanDuration } from './humanDuration.js';
export { tableWatch, type WatchEventObject } from './watchTables.js';

/**
 * The built-in printers by resource type id (`pods`, `deployments.apps`, `events.events.k8s.io`, ...).
 * Roles, ClusterRoles and CustomResourceDefinitions are not here: kube prints them with the default
 * convertor (Name, Created At), as every type missing from this map.
 *
 * @example
 * ```ts
 * builtInPrinters.get('deployments.apps')?.columns.map((c) => c.name); // ['Name', 'Ready', 'Up-to-date', ...]
 * ```
 */
export const builtInPrinters: ReadonlyMap<string, TablePrinter> = new Map<string, TablePrinter>([
  ['pods', podPrinter],
  ['replicationcontrollers', replicationControllerPrinter],
  ['services', servicePrinter],
  ['endpoints', endpointsPrinter],
  ['configmaps', configMapPrinter],
  ['secrets', secretPrinter],
  ['serviceaccounts', serviceAccountPrinter],
  ['namespaces', namespacePrinter],
  ['nodes', nodePrinter],
  ['events', eventPrinter],
  ['persistentvolumeclaims', pvcPrinter],
  ['persistentvolumes', pvPrinter],
  ['deployments.apps', deploymentPrinter],
  ['replicasets.apps', replicaSetPrinter],
  ['statefulsets.apps', statefulSetPrinter],
  ['daemonsets.apps', daemonSetPrinter],
  ['jobs.batch', jobPrinter],
  ['cronjobs.batch', cronJobPrinter],
  ['endpointslices.discovery.k8s.io', endpointSlicePrinter],
  ['ingresses.networking.k8s.io', ingressPrinter],
  ['ingressclasses.networking.k8s.io', ingressClassPrinter],
  ['networkpolicies.networking.k8s.io', networkPolicyPrinter],
  ['poddisruptionbudgets.policy', pdbPrinter],
  ['horizontalpodautoscalers.autoscaling', hpaPrinter],
  ['leases.coordination.k8s.io', leasePrinter],
  ['events.events.k8s.io', eventsV1Printer],
  ['rolebindings.rbac.authorization.k8s.io', roleBindingPrinter],
  ['clusterrolebindings.rbac.authorization.k8s.io', clusterRoleBindingPrinter],
  ['storageclasses.storage.k8s.io', storageClassPrinter],
  ['podtemplates', podTemplatePrinter],
  ['resourcequotas', resourceQuotaPrinter],
  ['controllerrevisions.apps', controllerRevisionPrinter],
  ['mutatingwebhookconfigurations.admissionregistration.k8s.io', webhookConfigurationPrinter],
  ['validatingwebhookconfigurations.admissionregistration.k8s.io', webhookConfigurationPrinter],
  ['validatingadmissionpolicies.admissionregistration.k8s.io', validatingAdmissionPolicyPrinter],
  ['priorityclasses.scheduling.k8s.io', priorityClassPrinter],
  ['runtimeclasses.node.k8s.io', runtimeClassPrinter],
  ['certificatesigningrequests.certificates.k8s.io', csrPrinter],
]);

/**
 * The printer of a built-in type by id: kube's columns where kube has a printer, else the default
 * convertor's (Name, Created At).
 *
 * @example
 * ```ts
 * printerFor('roles.rbac.authorization.k8s.io') === defaultPrinter; // true
 * ```
 */
export const printerFor = (typeId: string): TablePrinter => builtInPrinters.get(typeId) ?? defaultPrinter;
