// The apps/v1 workloads (and v1 ReplicationControllers) as `kubectl get` shows them (kube's
// printDeployment, printReplicaSet, printStatefulSet, printDaemonSet, printReplicationController).
import type { JsonObject } from '../resources.js';
import { ageColumn, column, nameColumn, templateColumns } from './columns.js';
import { at, createdOf, int, nameOf } from './fields.js';
import { containerCells, formatLabels, formatLabelSelector, selectorString } from './formats.js';
import { ageSince } from './humanDuration.js';
import type { PrintedRow, TablePrinter } from './table.js';

// spec.replicas defaults to 1 when reading (kube defaults on every read of the stored object).
const desired = (o: JsonObject): number => (typeof at(o, 'spec', 'replicas') === 'number' ? int(at(o, 'spec', 'replicas')) : 1);
const status = (o: JsonObject, field: string): number => int(at(o, 'status', field));
const templateContainers = (o: JsonObject): [string, string] => containerCells(at(o, 'spec', 'template', 'spec', 'containers'));

/**
 * Deployments: Name, Ready (`ready/desired`), Up-to-date, Available, Age | Containers, Images, Selector.
 *
 * @example
 * ```ts
 * deploymentPrinter.row(deployment, Date.now()).cells.slice(0, 4); // ['web', '2/3', 3, 2]
 * ```
 */
export const deploymentPrinter: TablePrinter = {
  columns: [
    nameColumn,
    column('Ready', 'string', 'Number of the pod with ready state'),
    column('Up-to-date'),
    column('Available'),
    ageColumn,
    ...templateColumns(),
  ],
  row(d: JsonObject, now: number): PrintedRow {
    const [names, images] = templateContainers(d);
    return {
      cells: [
        nameOf(d),
        `${status(d, 'readyReplicas')}/${desired(d)}`,
        status(d, 'updatedReplicas'),
        status(d, 'availableReplicas'),
        ageSince(createdOf(d), now),
        names,
        images,
        selectorString(at(d, 'spec', 'selector')) ?? '<invalid>',
      ],
    };
  },
};

/**
 * ReplicaSets: Name, Desired, Current, Ready (integers), Age | Containers, Images, Selector.
 *
 * @example
 * ```ts
 * replicaSetPrinter.row(rs, Date.now()).cells.slice(1, 4); // [3, 3, 2]
 * ```
 */
export const replicaSetPrinter: TablePrinter = {
  columns: [nameColumn, column('Desired', 'integer'), column('Current', 'integer'), column('Ready', 'integer'), ageColumn, ...templateColumns()],
  row(rs: JsonObject, now: number): PrintedRow {
    const [names, images] = templateContainers(rs);
    return {
      cells: [
        nameOf(rs),
        desired(rs),
        status(rs, 'replicas'),
        status(rs, 'readyReplicas'),
        ageSince(createdOf(rs), now),
        names,
        images,
        formatLabelSelector(at(rs, 'spec', 'selector')),
      ],
    };
  },
};

/**
 * ReplicationControllers: as ReplicaSets, the selector a label map.
 *
 * @example
 * ```ts
 * replicationControllerPrinter.row(rc, Date.now()).cells[7]; // 'app=web'
 * ```
 */
export const replicationControllerPrinter: TablePrinter = {
  columns: replicaSetPrinter.columns,
  row(rc: JsonObject, now: number): PrintedRow {
    const [names, images] = templateContainers(rc);
    return {
      cells: [
        nameOf(rc),
        desired(rc),
        status(rc, 'replicas'),
        status(rc, 'readyReplicas'),
        ageSince(createdOf(rc), now),
        names,
        images,
        formatLabels(at(rc, 'spec', 'selector')),
      ],
    };
  },
};

/**
 * StatefulSets: Name, Ready (`ready/desired`), Age | Containers, Images.
 *
 * @example
 * ```ts
 * statefulSetPrinter.row(sts, Date.now()).cells[1]; // '1/3'
 * ```
 */
export const statefulSetPrinter: TablePrinter = {
  columns: [nameColumn, column('Ready', 'string', 'Number of the pod with ready state'), ageColumn, ...templateColumns(false)],
  row(sts: JsonObject, now: number): PrintedRow {
    const [names, images] = templateContainers(sts);
    return { cells: [nameOf(sts), `${status(sts, 'readyReplicas')}/${desired(sts)}`, ageSince(createdOf(sts), now), names, images] };
  },
};

/**
 * DaemonSets: Name, Desired, Current, Ready, Up-to-date, Available (integers), Node Selector, Age |
 * Containers, Images, Selector.
 *
 * @example
 * ```ts
 * daemonSetPrinter.row(ds, Date.now()).cells[6]; // 'kubernetes.io/os=linux'
 * ```
 */
export const daemonSetPrinter: TablePrinter = {
  columns: [
    nameColumn,
    column('Desired', 'integer'),
    column('Current', 'integer'),
    column('Ready', 'integer'),
    column('Up-to-date', 'integer'),
    column('Available', 'integer'),
    column('Node Selector'),
    ageColumn,
    ...templateColumns(),
  ],
  row(ds: JsonObject, now: number): PrintedRow {
    const [names, images] = templateContainers(ds);
    return {
      cells: [
        nameOf(ds),
        status(ds, 'desiredNumberScheduled'),
        status(ds, 'currentNumberScheduled'),
        status(ds, 'numberReady'),
        status(ds, 'updatedNumberScheduled'),
        status(ds, 'numberAvailable'),
        formatLabels(at(ds, 'spec', 'template', 'spec', 'nodeSelector')),
        ageSince(createdOf(ds), now),
        names,
        images,
        formatLabelSelector(at(ds, 'spec', 'selector')),
      ],
    };
  },
};
