// Events as `kubectl get events` shows them (kube's printEvent): no leading Name (it comes last,
// wide), Last Seen first. events.k8s.io/v1 Events print through the same printer after kube's
// conversion to the core shape (regarding -> involvedObject, note -> message, deprecated* -> ...).
import type { JsonObject } from '../resources.js';
import { column, nameColumn, wide } from './columns.js';
import { at, int, nameOf, obj, str } from './fields.js';
import { ageSince, parseTimestamp } from './humanDuration.js';
import type { PrintedRow, TablePrinter } from './table.js';

// The reporting component (else the reporting controller), then `, <host>` when there is one.
function source(ev: JsonObject): string {
  const component = str(at(ev, 'source', 'component')) || str(ev.reportingComponent);
  const instance = str(at(ev, 'source', 'host')) || str(ev.reportingInstance);
  return instance === '' ? component : `${component}, ${instance}`;
}

function coreEventRow(ev: JsonObject, now: number): PrintedRow {
  const first = parseTimestamp(ev.firstTimestamp) !== undefined ? ageSince(ev.firstTimestamp, now) : ageSince(ev.eventTime, now);
  const series = ev.series;
  const last =
    series !== undefined && series !== null
      ? ageSince(obj(series).lastObservedTime, now)
      : parseTimestamp(ev.lastTimestamp) !== undefined
        ? ageSince(ev.lastTimestamp, now)
        : first;
  // Singleton events of the new API have no count.
  const count = series !== undefined && series !== null ? int(obj(series).count) : int(ev.count) || 1;
  const kind = str(at(ev, 'involvedObject', 'kind')).toLowerCase();
  const involved = str(at(ev, 'involvedObject', 'name'));
  return {
    cells: [
      last,
      str(ev.type),
      str(ev.reason),
      involved === '' ? kind : `${kind}/${involved}`,
      str(at(ev, 'involvedObject', 'fieldPath')),
      source(ev),
      str(ev.message).trim(),
      first,
      count,
      nameOf(ev),
    ],
  };
}

/**
 * Core v1 Events: Last Seen, Type, Reason, Object, Message | Subobject, Source, First Seen, Count,
 * Name (kube's order: Subobject and Source come before Message, First Seen, Count and Name after).
 *
 * @example
 * ```ts
 * eventPrinter.row(ev, Date.now()).cells.slice(0, 4); // ['5m', 'Normal', 'Scheduled', 'pod/web-0']
 * ```
 */
export const eventPrinter: TablePrinter = {
  columns: [
    column('Last Seen'),
    column('Type'),
    column('Reason'),
    column('Object'),
    wide('Subobject'),
    wide('Source'),
    column('Message'),
    wide('First Seen'),
    wide('Count'),
    { ...nameColumn, priority: 1 },
  ],
  row: coreEventRow,
};

// events.k8s.io/v1 -> the core shape the printer reads (kube's conversion of the two versions).
const asCoreEvent = (ev: JsonObject): JsonObject => ({
  metadata: ev.metadata,
  involvedObject: ev.regarding,
  reason: ev.reason,
  message: ev.note,
  source: ev.deprecatedSource,
  firstTimestamp: ev.deprecatedFirstTimestamp,
  lastTimestamp: ev.deprecatedLastTimestamp,
  count: ev.deprecatedCount,
  type: ev.type,
  eventTime: ev.eventTime,
  series: ev.series,
  reportingComponent: ev.reportingController,
  reportingInstance: ev.reportingInstance,
});

/**
 * events.k8s.io/v1 Events: the core Event columns, read through kube's conversion.
 *
 * @example
 * ```ts
 * eventsV1Printer.row(ev, Date.now()).cells[6]; // the event's note
 * ```
 */
export const eventsV1Printer: TablePrinter = {
  columns: eventPrinter.columns,
  row: (ev: JsonObject, now: number): PrintedRow => coreEventRow(asCoreEvent(ev), now),
};
