// RoleBindings and ClusterRoleBindings as `kubectl get` shows them (kube's printRoleBinding,
// printClusterRoleBinding and SubjectsStrings). Roles and ClusterRoles have no printer in kube:
// they print with the default convertor (Name, Created At).
import type { JsonObject } from '../resources.js';
import { ageColumn, column, nameColumn, wide } from './columns.js';
import { arr, at, createdOf, nameOf, obj, str } from './fields.js';
import { ageSince } from './humanDuration.js';
import type { PrintedRow, TablePrinter } from './table.js';

function bindingRow(binding: JsonObject, now: number): PrintedRow {
  const subjects = arr(binding.subjects).map(obj);
  const of = (kind: string, text: (s: JsonObject) => string): string =>
    subjects.filter((s) => s.kind === kind).map(text).join(', ');
  return {
    cells: [
      nameOf(binding),
      `${str(at(binding, 'roleRef', 'kind'))}/${str(at(binding, 'roleRef', 'name'))}`,
      ageSince(createdOf(binding), now),
      of('User', (s) => str(s.name)),
      of('Group', (s) => str(s.name)),
      of('ServiceAccount', (s) => `${str(s.namespace)}/${str(s.name)}`),
    ],
  };
}

/**
 * RoleBindings: Name, Role (`Kind/name`), Age | Users, Groups, ServiceAccounts (`namespace/name`).
 *
 * @example
 * ```ts
 * roleBindingPrinter.row(rb, Date.now()).cells[1]; // 'ClusterRole/view'
 * ```
 */
export const roleBindingPrinter: TablePrinter = {
  columns: [
    nameColumn,
    column('Role'),
    ageColumn,
    wide('Users', 'string', 'Users in the roleBinding'),
    wide('Groups', 'string', 'Groups in the roleBinding'),
    wide('ServiceAccounts', 'string', 'ServiceAccounts in the roleBinding'),
  ],
  row: bindingRow,
};

/**
 * ClusterRoleBindings: as RoleBindings.
 *
 * @example
 * ```ts
 * clusterRoleBindingPrinter.row(crb, Date.now()).cells[1]; // 'ClusterRole/cluster-admin'
 * ```
 */
export const clusterRoleBindingPrinter: TablePrinter = {
  columns: [
    nameColumn,
    column('Role'),
    ageColumn,
    wide('Users', 'string', 'Users in the clusterRoleBinding'),
    wide('Groups', 'string', 'Groups in the clusterRoleBinding'),
    wide('ServiceAccounts', 'string', 'ServiceAccounts in the clusterRoleBinding'),
  ],
  row: bindingRow,
};
