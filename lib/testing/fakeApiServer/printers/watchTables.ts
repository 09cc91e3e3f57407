// A watch asked for Tables (apiserver's watchEmbeddedEncoder): each event's object becomes a
// one-row Table, the column definitions only in the first one (kube sets NoHeaders after it);
// Statuses (ERROR events) go as they are. BOOKMARK objects are converted too, as kube does.
import type { JsonObject } from '../resources.js';
import { tableOfObject, type TableRequest } from './buildTable.js';
import type { TablePrinter } from './table.js';

/**
 * A watch event as the wire carries it.
 *
 * @example
 * ```ts
 * const e: WatchEventObject = { type: 'ADDED', object: pod };
 * ```
 */
export interface WatchEventObject {
  readonly type: string;
  readonly object: unknown;
}

const isStatus = (o: unknown): boolean => typeof o === 'object' && o !== null && (o as { kind?: unknown }).kind === 'Status';

/**
 * The converter of one watch's events into Table events: call it for each event in order; the
 * first event's Table carries the column definitions, the later ones `null`.
 *
 * @example
 * ```ts
 * const toTable = tableWatch(printerFor('pods'), { includeObject: 'Metadata', groupVersion: 'meta.k8s.io/v1', now: Date.now() });
 * toTable({ type: 'ADDED', object: pod }).object; // { kind: 'Table', columnDefinitions: [...], rows: [row] }
 * ```
 */
export function tableWatch(printer: TablePrinter, request: Omit<TableRequest, 'noHeaders'>): (event: WatchEventObject, now?: number) => WatchEventObject {
  let headersSent = false;
  return (event, now = request.now) => {
    if (isStatus(event.object)) return event;
    const table = tableOfObject(printer, (event.object ?? {}) as JsonObject, { ...request, now, noHeaders: headersSent });
    headersSent = true;
    return { type: event.type, object: table };
  };
}
