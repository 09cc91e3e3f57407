// Reads answered as meta.k8s.io Tables (apiserver's asTable): which printer a resource type prints
// with (kube's printers for built-in types, the stored CRD's printer columns of the served version
// for custom resources), and the Table of a GET, a LIST and each watch event, on the server's clock.
import type { ServerResponse } from 'node:http';
import {
  customResourcePrinter,
  includeObjectOption,
  printerColumnsOf,
  printerFor,
  tableOfList,
  tableOfObject,
  tableWatch,
  type IncludeObject,
  type TableGroupVersion,
  type TablePrinter,
} from '../printers/index.js';
import { customResourceDefinitionType } from '../registry/customResourceDefinitions.js';
import type { JsonObject, ResourceType } from '../resources.js';
import type { StoredObject } from '../storage/storedObject.js';
import { tableVersionOf, type OutputForm } from '../wire/outputForm.js';
import type { ListResult } from './listHandler.js';
import type { ServerContext } from './serverContext.js';
import { writeJson } from './http.js';

/**
 * A read asked for a Table: its group version, the `includeObject` option and the printer.
 *
 * @example
 * ```ts
 * const table = tableRequestOf(ctx, type, { table: 'meta.k8s.io/v1' }, query);
 * ```
 */
export interface TableOutput {
  readonly groupVersion: TableGroupVersion;
  readonly includeObject: IncludeObject;
  readonly printer: TablePrinter;
}

/**
 * The printer of a resource type: kube's for a built-in type (the default convertor when kube has
 * none), the printer columns of the served version of the stored CRD for a custom resource (Name
 * and Age when the version lists none, or when the type was registered without a CRD).
 *
 * @example
 * ```ts
 * tablePrinterFor(ctx, ctx.types.resolve('pods')).columns[1].name; // 'Ready'
 * ```
 */
export function tablePrinterFor(ctx: Pick<ServerContext, 'storage'>, type: ResourceType): TablePrinter {
  if (type.builtIn) return printerFor(type.id);
  const crd = ctx.storage.get(customResourceDefinitionType, `${type.plural}.${type.group}`);
  const columns = crd ? printerColumnsOf(JSON.parse(crd.json) as JsonObject, type.version) : undefined;
  return customResourcePrinter(columns ?? []);
}

/**
 * The Table a read asks for, or undefined for another form. Throws kube's 400 for an `includeObject`
 * it does not know, before anything is written (a watch's headers included).
 *
 * @example
 * ```ts
 * tableOutputOf(ctx, type, negotiateOutput(accept, 'list'), query);
 * ```
 */
export function tableOutputOf(ctx: Pick<ServerContext, 'storage'>, type: ResourceType, form: OutputForm, query: URLSearchParams): TableOutput | undefined {
  const groupVersion = tableVersionOf(form);
  if (groupVersion === undefined) return undefined;
  const includeObject = includeObjectOption(query);
  if (typeof includeObject !== 'string') throw includeObject;
  return { groupVersion, includeObject, printer: tablePrinterFor(ctx, type) };
}

const parsed = (o: StoredObject): JsonObject => JSON.parse(o.json) as JsonObject;

/**
 * Answers a LIST with its Table: one row per item, the list's resourceVersion, continue token and
 * remainingItemCount.
 *
 * @example
 * ```ts
 * writeTableList(res, ctx, output, await listObjects(ctx, type, ns, q));
 * ```
 */
export function writeTableList(res: ServerResponse, ctx: Pick<ServerContext, 'scheduler'>, output: TableOutput, result: ListResult): void {
  const meta = { resourceVersion: String(result.rv), continue: result.continue, ...(result.remainingItemCount !== undefined ? { remainingItemCount: result.remainingItemCount } : {}) };
  const table = tableOfList(output.printer, result.items.map(parsed), meta, { ...output, noHeaders: false, now: ctx.scheduler.now() });
  writeJson(res, 200, JSON.stringify(table));
}

/**
 * The JSON of a GET's Table: one row, the object's resourceVersion.
 *
 * @example
 * ```ts
 * writeJson(res, 200, tableObjectJson(ctx, output, stored));
 * ```
 */
export function tableObjectJson(ctx: Pick<ServerContext, 'scheduler'>, output: TableOutput, stored: StoredObject): string {
  return JSON.stringify(tableOfObject(output.printer, parsed(stored), { ...output, noHeaders: false, now: ctx.scheduler.now() }));
}

/**
 * A watch stream's line encoder for Tables: each event's object becomes a one-row Table (the column
 * definitions in the first event only), ages printed at the time the event is sent; ERROR lines and
 * deliberately malformed lines (faults) go as they are.
 *
 * @example
 * ```ts
 * new WatchStream({ ...options, encode: tableWatchEncoder(ctx, output) });
 * ```
 */
export function tableWatchEncoder(ctx: Pick<ServerContext, 'scheduler'>, output: TableOutput): (line: string) => string {
  const toTable = tableWatch(output.printer, { ...output, now: ctx.scheduler.now() });
  return (line) => {
    let event: { type: string; object: unknown };
    try {
      event = JSON.parse(line) as { type: string; object: unknown };
    } catch {
      return line;
    }
    return `${JSON.stringify(toTable(event, ctx.scheduler.now()))}\n`;
  };
}
