// Namespaces, Nodes, ConfigMaps, Secrets, ServiceAccounts and Leases as `kubectl get` shows them
// (kube's printNamespace, printNode, printConfigMap, printSecret, printServiceAccount, printLease).
import type { JsonObject } from '../resources.js';
import { ageColumn, column, nameColumn, wide } from './columns.js';
import { arr, at, createdOf, nameOf, obj, str } from './fields.js';
import { ageSince } from './humanDuration.js';
import type { PrintedRow, TablePrinter } from './table.js';

const age = (o: JsonObject, now: number): string => ageSince(createdOf(o), now);
const keyCount = (v: unknown): number => Object.keys(obj(v)).length;

/**
 * Namespaces: Name, Status (the phase; `Active` when unset, as kube defaults it on read), Age.
 *
 * @example
 * ```ts
 * namespacePrinter.row(ns, Date.now()).cells[1]; // 'Active'
 * ```
 */
export const namespacePrinter: TablePrinter = {
  columns: [nameColumn, column('Status', 'string', 'The status of the namespace'), ageColumn],
  row: (ns: JsonObject, now: number): PrintedRow => ({ cells: [nameOf(ns), str(at(ns, 'status', 'phase')) || 'Active', age(ns, now)] }),
};

// Roles from `node-role.kubernetes.io/<role>` label keys and the `kubernetes.io/role` label's value, sorted.
function nodeRoles(node: JsonObject): string {
  const roles = new Set<string>();
  for (const [k, v] of Object.entries(obj(at(node, 'metadata', 'labels')))) {
    if (k.startsWith('node-role.kubernetes.io/') && k.length > 'node-role.kubernetes.io/'.length) roles.add(k.slice('node-role.kubernetes.io/'.length));
    else if (k === 'kubernetes.io/role' && str(v) !== '') roles.add(str(v));
  }
  return roles.size === 0 ? '<none>' : [...roles].sort().join(',');
}

function nodeStatus(node: JsonObject): string {
  const ready = arr(at(node, 'status', 'conditions')).map(obj).find((c) => c.type === 'Ready');
  const status = [ready === undefined ? 'Unknown' : ready.status === 'True' ? 'Ready' : 'NotReady'];
  if (at(node, 'spec', 'unschedulable') === true) status.push('SchedulingDisabled');
  return status.join(',');
}

const nodeAddress = (node: JsonObject, type: string): string =>
  str(arr(at(node, 'status', 'addresses')).map(obj).find((a) => a.type === type)?.address) || '<none>';

/**
 * Nodes: Name, Status, Roles, Age, Version | Internal-IP, External-IP, OS-Image, Kernel-Version,
 * Container-Runtime.
 *
 * @example
 * ```ts
 * nodePrinter.row(node, Date.now()).cells.slice(1, 3); // ['Ready', 'control-plane']
 * ```
 */
export const nodePrinter: TablePrinter = {
  columns: [
    nameColumn,
    column('Status', 'string', 'The status of the node'),
    column('Roles', 'string', 'The roles of the node'),
    ageColumn,
    column('Version'),
    wide('Internal-IP'),
    wide('External-IP'),
    wide('OS-Image'),
    wide('Kernel-Version'),
    wide('Container-Runtime'),
  ],
  row(node: JsonObject, now: number): PrintedRow {
    const info = (field: string): string => str(at(node, 'status', 'nodeInfo', field));
    return {
      cells: [
        nameOf(node),
        nodeStatus(node),
        nodeRoles(node),
        age(node, now),
        info('kubeletVersion'),
        nodeAddress(node, 'InternalIP'),
        nodeAddress(node, 'ExternalIP'),
        info('osImage') || '<unknown>',
        info('kernelVersion') || '<unknown>',
        info('containerRuntimeVersion') || '<unknown>',
      ],
    };
  },
};

/**
 * ConfigMaps: Name, Data (the number of `data` and `binaryData` keys), Age.
 *
 * @example
 * ```ts
 * configMapPrinter.row(cm, Date.now()).cells[1]; // 2
 * ```
 */
export const configMapPrinter: TablePrinter = {
  columns: [nameColumn, column('Data'), ageColumn],
  row: (cm: JsonObject, now: number): PrintedRow => ({ cells: [nameOf(cm), keyCount(cm.data) + keyCount(cm.binaryData), age(cm, now)] }),
};

/**
 * Secrets: Name, Type, Data (the number of keys, `stringData` merged as kube's conversion does), Age.
 *
 * @example
 * ```ts
 * secretPrinter.row(secret, Date.now()).cells.slice(1, 3); // ['Opaque', 1]
 * ```
 */
export const secretPrinter: TablePrinter = {
  columns: [nameColumn, column('Type'), column('Data'), ageColumn],
  row(secret: JsonObject, now: number): PrintedRow {
    const keys = new Set([...Object.keys(obj(secret.data)), ...Object.keys(obj(secret.stringData))]);
    return { cells: [nameOf(secret), str(secret.type) || 'Opaque', keys.size, age(secret, now)] };
  },
};

/**
 * ServiceAccounts: Name, Secrets (how many are listed), Age.
 *
 * @example
 * ```ts
 * serviceAccountPrinter.row(sa, Date.now()).cells[1]; // 0
 * ```
 */
export const serviceAccountPrinter: TablePrinter = {
  columns: [nameColumn, column('Secrets'), ageColumn],
  row: (sa: JsonObject, now: number): PrintedRow => ({ cells: [nameOf(sa), arr(sa.secrets).length, age(sa, now)] }),
};

/**
 * Leases: Name, Holder (`spec.holderIdentity`), Age.
 *
 * @example
 * ```ts
 * leasePrinter.row(lease, Date.now()).cells[1]; // 'controller-7c9f'
 * ```
 */
export const leasePrinter: TablePrinter = {
  columns: [nameColumn, column('Holder'), ageColumn],
  row: (lease: JsonObject, now: number): PrintedRow => ({ cells: [nameOf(lease), str(at(lease, 'spec', 'holderIdentity')), age(lease, now)] }),
};
