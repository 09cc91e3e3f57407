// The Table of a type without a printer (apiserver's rest.defaultTableConvertor): Name and Created
// At, the creation time as RFC 3339 in UTC. Roles, ClusterRoles, CRDs (before 1.37) and every type
// kube has no printer for print so.
import type { JsonObject } from '../resources.js';
import { createdAtColumn, nameColumn } from './columns.js';
import { createdOf, nameOf } from './fields.js';
import { parseTimestamp } from './humanDuration.js';
import type { TablePrinter } from './table.js';

// Go's zero time, which a missing creationTimestamp formats as.
const ZERO_TIME = '0001-01-01T00:00:00Z';

/**
 * A creation timestamp as Go's `time.RFC3339` formats it in UTC: whole seconds, `Z`.
 *
 * @example
 * ```ts
 * rfc3339('2026-05-01T12:00:00.250+02:00'); // '2026-05-01T10:00:00Z'
 * ```
 */
export function rfc3339(value: unknown): string {
  const t = parseTimestamp(value);
  return t === undefined ? ZERO_TIME : new Date(Math.floor(t / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}

/**
 * The default convertor's printer: Name, Created At.
 *
 * @example
 * ```ts
 * defaultPrinter.row(role, Date.now()).cells; // ['reader', '2026-05-01T10:00:00Z']
 * ```
 */
export const defaultPrinter: TablePrinter = {
  columns: [nameColumn, createdAtColumn],
  row: (o: JsonObject) => ({ cells: [nameOf(o), rfc3339(createdOf(o))] }),
};
