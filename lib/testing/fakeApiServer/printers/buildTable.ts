// The Table of a list, an object or a watch event (apiserver's asTable): the printer's columns and
// rows, each row's object in the form `includeObject` asks for, and the list's metadata.
import type { JsonObject } from '../resources.js';
import { badRequest, type StatusError } from '../status.js';
import { invalidValue } from '../schema/fieldErrors.js';
import type { IncludeObject, Table, TableGroupVersion, TablePrinter, TableRow } from './table.js';

/**
 * How a Table is asked for: the `includeObject` option, the group version of the Accept clause,
 * whether to leave out the column definitions (watch events after the first), and the time ages are
 * printed at (ms since the epoch).
 *
 * @example
 * ```ts
 * const request: TableRequest = { includeObject: 'Metadata', groupVersion: 'meta.k8s.io/v1', noHeaders: false, now: Date.now() };
 * ```
 */
export interface TableRequest {
  readonly includeObject: IncludeObject;
  readonly groupVersion: TableGroupVersion;
  readonly noHeaders: boolean;
  readonly now: number;
}

/**
 * A list's metadata as the Table repeats it.
 *
 * @example
 * ```ts
 * const meta: TableListMeta = { resourceVersion: '12', continue: 'eyJ2Ijo...', remainingItemCount: 40 };
 * ```
 */
export interface TableListMeta {
  readonly resourceVersion?: string;
  readonly continue?: string;
  readonly remainingItemCount?: number;
}

/**
 * The `includeObject` query value as kube validates it (`metav1.TableOptions`): `Metadata` (also
 * when absent or empty), `Object`, `None`; anything else is kube's 400 `Unable to convert to Table as
 * requested: includeObject: Invalid value: "X": must be 'Metadata', 'Object', 'None', or empty`.
 *
 * @example
 * ```ts
 * includeObjectOption(new URLSearchParams('includeObject=None')); // 'None'
 * ```
 */
export function includeObjectOption(query: URLSearchParams): IncludeObject | StatusError {
  const value = query.get('includeObject') ?? '';
  if (value === '' || value === 'Metadata') return 'Metadata';
  if (value === 'Object' || value === 'None') return value;
  const e = invalidValue('includeObject', value, "must be 'Metadata', 'Object', 'None', or empty");
  return badRequest(`Unable to convert to Table as requested: ${e.field}: ${e.body}`);
}

// The row's object: a PartialObjectMetadata of the Table's group version, the object, or null.
function rowObject(o: JsonObject, request: TableRequest): JsonObject | null {
  switch (request.includeObject) {
    case 'Object':
      return o;
    case 'None':
      return null;
    default:
      return { kind: 'PartialObjectMetadata', apiVersion: request.groupVersion, metadata: o.metadata ?? {} };
  }
}

function rowOf(printer: TablePrinter, o: JsonObject, request: TableRequest): TableRow {
  const printed = printer.row(o, request.now);
  return {
    cells: printed.cells,
    ...(printed.conditions !== undefined ? { conditions: printed.conditions } : {}),
    object: rowObject(o, request),
  };
}

const listMeta = (meta: TableListMeta): Table['metadata'] => ({
  ...(meta.resourceVersion ? { resourceVersion: meta.resourceVersion } : {}),
  ...(meta.continue ? { continue: meta.continue } : {}),
  ...(meta.remainingItemCount !== undefined ? { remainingItemCount: meta.remainingItemCount } : {}),
});

/**
 * The Table of a list: one row per item, in order; the list's resourceVersion, continue token and
 * remainingItemCount in its metadata.
 *
 * @example
 * ```ts
 * const table = tableOfList(podPrinter, pods, { resourceVersion: '12' }, request);
 * table.rows.length === pods.length;
 * ```
 */
export function tableOfList(printer: TablePrinter, items: ReadonlyArray<JsonObject>, meta: TableListMeta, request: TableRequest): Table {
  return {
    kind: 'Table',
    apiVersion: request.groupVersion,
    metadata: listMeta(meta),
    columnDefinitions: request.noHeaders ? null : printer.columns,
    rows: items.map((o) => rowOf(printer, o, request)),
  };
}

/**
 * The Table of one object (a GET, or a watch event's object): one row, the object's
 * resourceVersion in its metadata.
 *
 * @example
 * ```ts
 * const table = tableOfObject(podPrinter, pod, request);
 * table.rows[0].cells[0] === pod.metadata.name;
 * ```
 */
export function tableOfObject(printer: TablePrinter, o: JsonObject, request: TableRequest): Table {
  const rv = (o.metadata as { resourceVersion?: unknown } | undefined)?.resourceVersion;
  return tableOfList(printer, [o], typeof rv === 'string' ? { resourceVersion: rv } : {}, request);
}
