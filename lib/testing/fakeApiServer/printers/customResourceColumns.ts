// Custom resources' Tables from their version's additionalPrinterColumns (apiextensions-apiserver's
// customresource tableconvertor): Name, then each column's JSONPath value coerced to its type; no
// column listed means one Age column (a date from .metadata.creationTimestamp).
import type { JsonObject } from '../resources.js';
import { column, createdDescription, nameColumn } from './columns.js';
import { nameOf, obj, str } from './fields.js';
import { humanDuration, parseTimestamp } from './humanDuration.js';
import { compileJsonPath, type JsonPath } from './jsonPath.js';
import type { TableCell, TableColumnDefinition, TablePrinter } from './table.js';

/**
 * A CRD version's printer column, as `spec.versions[].additionalPrinterColumns[]` holds it.
 *
 * @example
 * ```ts
 * const replicas: PrinterColumn = { name: 'Replicas', type: 'integer', jsonPath: '.spec.replicas' };
 * ```
 */
export interface PrinterColumn {
  readonly name: string;
  readonly type: string;
  readonly jsonPath: string;
  readonly format?: string;
  readonly description?: string;
  readonly priority?: number;
}

// What kube serves when a version lists no column (apiextensions' serveDefaultColumnsIfEmpty).
const AGE: PrinterColumn = { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp', description: createdDescription };

/**
 * The printer columns of `version` in a CRD (`spec.versions[].additionalPrinterColumns`), as
 * plain column objects; undefined when the CRD has no such version.
 *
 * @example
 * ```ts
 * printerColumnsOf(crd, 'v1'); // [{ name: 'Replicas', type: 'integer', jsonPath: '.spec.replicas' }]
 * ```
 */
export function printerColumnsOf(crd: JsonObject, version: string): ReadonlyArray<PrinterColumn> | undefined {
  const versions = Array.isArray(obj(crd.spec).versions) ? (obj(crd.spec).versions as unknown[]) : [];
  const v = versions.map(obj).find((x) => x.name === version);
  if (v === undefined) return undefined;
  return (Array.isArray(v.additionalPrinterColumns) ? v.additionalPrinterColumns : []).map(obj).map((c) => ({
    name: str(c.name),
    type: str(c.type),
    jsonPath: str(c.jsonPath),
    ...(typeof c.format === 'string' ? { format: c.format } : {}),
    ...(typeof c.description === 'string' ? { description: c.description } : {}),
    ...(typeof c.priority === 'number' ? { priority: c.priority } : {}),
  }));
}

/**
 * A number as Go's `%v` prints it (jsonpath's text of a JSON number): integers in full, other
 * numbers in the shortest form, with an exponent below 1e-4 or from 1e6 (`1.5e+06`).
 *
 * @example
 * ```ts
 * goNumber(2.5); // '2.5'
 * goNumber(1234567.5); // '1.2345675e+06'
 * ```
 */
export function goNumber(n: number): string {
  if (Number.isInteger(n) && Math.abs(n) < 1e21) return String(n);
  const [mantissa, exp] = n.toExponential().split('e');
  const e = Number(exp);
  if (e >= -4 && e < 6) return String(n);
  return `${mantissa}e${e < 0 ? '-' : '+'}${String(Math.abs(e)).padStart(2, '0')}`;
}

// jsonpath's text of a value: strings as they are, objects and arrays as JSON.
function text(value: unknown): string | null {
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return goNumber(value);
  if (typeof value === 'boolean') return String(value);
  if (value === null || value === undefined) return null;
  return JSON.stringify(value);
}

/** A value coerced to its column's type (apiextensions' cellForJSONValue); null when it does not fit. */
function cell(type: string, value: unknown, now: number): TableCell {
  if (value === null || value === undefined) return null;
  switch (type) {
    case 'string':
      return text(value);
    case 'integer':
      return typeof value === 'number' ? Math.trunc(value) : null;
    case 'number':
      return typeof value === 'number' ? value : null;
    case 'boolean':
      return typeof value === 'boolean' ? value : null;
    case 'date': {
      if (typeof value !== 'string') return null;
      if (value === '' || value === 'null') return '<unknown>';
      const t = parseTimestamp(value);
      return t === undefined ? '<invalid>' : humanDuration(now - t);
    }
    default:
      return null;
  }
}

/**
 * The Table printer of a custom resource version: Name, then the given columns (Age when none):
 * each cell is the first value its JSONPath reaches, coerced to the column's type (`string` as
 * jsonpath prints it, `integer`/`number`/`boolean` when the value has that type, `date` as an age),
 * null when the path reaches nothing or the value does not fit. A column whose path does not parse
 * prints null cells.
 *
 * @example
 * ```ts
 * const printer = customResourcePrinter([{ name: 'Replicas', type: 'integer', jsonPath: '.spec.replicas' }]);
 * printer.row({ metadata: { name: 'w' }, spec: { replicas: 3 } }, Date.now()).cells; // ['w', 3]
 * ```
 */
export function customResourcePrinter(columns: ReadonlyArray<PrinterColumn>): TablePrinter {
  const listed = columns.length > 0 ? columns : [AGE];
  const paths: ReadonlyArray<JsonPath | undefined> = listed.map((c) => {
    try {
      return compileJsonPath(c.jsonPath);
    } catch {
      return undefined;
    }
  });
  const definitions: TableColumnDefinition[] = [
    nameColumn,
    ...listed.map((c) =>
      column(c.name, c.type, c.description || `Custom resource definition column (in JSONPath format): ${c.jsonPath}`, c.priority ?? 0, c.format ?? ''),
    ),
  ];
  return {
    columns: definitions,
    row: (o: JsonObject, now: number) => ({
      cells: [nameOf(o), ...listed.map((c, i) => cell(c.type, paths[i]?.evaluate(o)[0], now))],
    }),
  };
}
