// The meta.k8s.io Table (apimachinery's metav1.Table): what kube-apiserver answers to
// `Accept: application/json;as=Table;g=meta.k8s.io;v=v1` and what `kubectl get` prints.
import type { JsonObject } from '../resources.js';

/**
 * One cell: a string, a number, a boolean or null (a CRD column whose path is missing).
 *
 * @example
 * ```ts
 * const cells: TableCell[] = ['web-0', '1/1', 'Running', '0', '5m'];
 * ```
 */
export type TableCell = string | number | boolean | null;

/**
 * A column of a Table. `priority` 0 shows by default, higher only with `kubectl get -o wide`; `type` is
 * an OpenAPI type (`string`, `integer`, `number`, `boolean`, `date`), `format` a hint (`name`).
 *
 * @example
 * ```ts
 * const ip: TableColumnDefinition = { name: 'IP', type: 'string', format: '', description: '', priority: 1 };
 * ```
 */
export interface TableColumnDefinition {
  readonly name: string;
  readonly type: string;
  readonly format: string;
  readonly description: string;
  readonly priority: number;
}

/**
 * A condition of a row: kube marks a finished pod's row `Completed` (`kubectl get` hides it unless
 * `--show-all`-like output asks for it).
 *
 * @example
 * ```ts
 * const done: TableRowCondition = { type: 'Completed', status: 'True', reason: 'Succeeded', message: 'The pod has completed successfully.' };
 * ```
 */
export interface TableRowCondition {
  readonly type: 'Completed';
  readonly status: 'True' | 'False' | 'Unknown';
  readonly reason?: string;
  readonly message?: string;
}

/**
 * A row: one cell per column, optional conditions, and the object as `includeObject` asked
 * (PartialObjectMetadata by default, the whole object, or null).
 *
 * @example
 * ```ts
 * const row: TableRow = { cells: ['a', '2026-05-01T10:00:00Z'], object: null };
 * ```
 */
export interface TableRow {
  readonly cells: ReadonlyArray<TableCell>;
  readonly conditions?: ReadonlyArray<TableRowCondition>;
  readonly object: JsonObject | null;
}

/**
 * What `?includeObject=` asks each row to carry: `Metadata` (the default: a PartialObjectMetadata),
 * `Object` (the whole object, in the requested version) or `None`.
 *
 * @example
 * ```ts
 * const include: IncludeObject = 'None';
 * ```
 */
export type IncludeObject = 'Metadata' | 'Object' | 'None';

/**
 * The meta.k8s.io group versions that serve Tables.
 *
 * @example
 * ```ts
 * const gv: TableGroupVersion = 'meta.k8s.io/v1';
 * ```
 */
export type TableGroupVersion = 'meta.k8s.io/v1' | 'meta.k8s.io/v1beta1';

/**
 * A Table as kube sends it. `columnDefinitions` is null in the watch events after the first (kube
 * sends the headers once per watch); `metadata` carries the list's resourceVersion, continue token
 * and remainingItemCount (a single object's resourceVersion for a GET).
 *
 * @example
 * ```ts
 * const empty: Table = { kind: 'Table', apiVersion: 'meta.k8s.io/v1', metadata: { resourceVersion: '7' }, columnDefinitions: [], rows: [] };
 * ```
 */
export interface Table {
  readonly kind: 'Table';
  readonly apiVersion: TableGroupVersion;
  readonly metadata: { readonly resourceVersion?: string; readonly continue?: string; readonly remainingItemCount?: number };
  readonly columnDefinitions: ReadonlyArray<TableColumnDefinition> | null;
  readonly rows: ReadonlyArray<TableRow>;
}

/**
 * A printed row before the object is attached: the cells and, for pods, their conditions.
 *
 * @example
 * ```ts
 * const printed: PrintedRow = { cells: ['web', '1/1', 'Running', '0', '5m'] };
 * ```
 */
export interface PrintedRow {
  readonly cells: ReadonlyArray<TableCell>;
  readonly conditions?: ReadonlyArray<TableRowCondition>;
}

/**
 * How one resource type prints (kube's TableConvertor): its columns and a pure row function of an
 * object at a time `now` (ms since the epoch; ages are computed against it). The cells match the
 * columns one for one, wide (priority 1) columns included: the server always prints wide and the
 * client hides what it does not show.
 *
 * @example
 * ```ts
 * const printer: TablePrinter = { columns: [nameColumn], row: (obj) => ({ cells: [String((obj.metadata as JsonObject).name)] }) };
 * ```
 */
export interface TablePrinter {
  readonly columns: ReadonlyArray<TableColumnDefinition>;
  row(obj: JsonObject, now: number): PrintedRow;
}
