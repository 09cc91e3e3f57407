import type { FieldError } from '../status.js';

// apimachinery's field.Path and field.Error, as strings: the paths and texts a real server puts in
// a 422's causes (`spec.ports[0].name: Required value`).

/** `a.b`: a field of `path` (the root is the empty path). */
export const child = (path: string, name: string): string => (path ? `${path}.${name}` : name);

/** `a[0]` or `a[key]`: an index or a map key of `path`. */
export const index = (path: string, i: number | string): string => `${path}[${i}]`;

/**
 * A bad value as field.Error prints it: strings quoted, numbers and booleans bare, `null`, and
 * objects and arrays as JSON.
 *
 * @example
 * ```ts
 * showValue('x'); // '"x"'
 * showValue(200); // '200'
 * ```
 */
export function showValue(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  return JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? Number(v) : v));
}

const withDetail = (text: string, detail: string): string => (detail ? `${text}: ${detail}` : text);

/** field.Invalid: `Invalid value: <value>: <detail>`. `value` omitted (undefined) leaves it out. */
export const invalidValue = (field: string, value: unknown, detail: string, omitValue = false): FieldError => ({
  field,
  type: 'FieldValueInvalid',
  body: withDetail(omitValue ? 'Invalid value' : `Invalid value: ${showValue(value)}`, detail),
});

/** field.TypeInvalid. */
export const typeInvalid = (field: string, value: unknown, detail: string): FieldError => ({
  field,
  type: 'FieldValueTypeInvalid',
  body: withDetail(`Invalid value: ${showValue(value)}`, detail),
});

/** field.Required. */
export const required = (field: string, detail = ''): FieldError => ({ field, type: 'FieldValueRequired', body: withDetail('Required value', detail) });

/** field.Forbidden. */
export const forbidden = (field: string, detail: string): FieldError => ({ field, type: 'FieldValueForbidden', body: withDetail('Forbidden', detail) });

/** field.Duplicate. */
export const duplicate = (field: string, value: unknown): FieldError => ({ field, type: 'FieldValueDuplicate', body: `Duplicate value: ${showValue(value)}` });

/** field.NotSupported: `Unsupported value: "x": supported values: "a", "b"`. */
export const notSupported = (field: string, value: unknown, supported: ReadonlyArray<string>): FieldError => ({
  field,
  type: 'FieldValueNotSupported',
  body: `Unsupported value: ${showValue(value)}: supported values: ${supported.map((s) => JSON.stringify(s)).join(', ')}`,
});

/** field.TooLongMaxLength. */
export const tooLong = (field: string, max: number): FieldError => ({ field, type: 'FieldValueTooLong', body: `Too long: may not be more than ${max} bytes` });

/** field.TooMany. */
export const tooMany = (field: string, actual: number, max: number): FieldError => ({
  field,
  type: 'FieldValueTooMany',
  body: `Too many: ${actual}: must have at most ${max} items`,
});

/** A cause with a reason a CEL rule names (`reason: FieldValueForbidden` ...), worded as field.Error. */
export function errorForReason(reason: string | undefined, field: string, value: unknown, detail: string, omitValue: boolean): FieldError {
  switch (reason) {
    case 'FieldValueForbidden':
      return forbidden(field, detail);
    case 'FieldValueRequired':
      return required(field, detail);
    case 'FieldValueDuplicate':
      return { field, type: 'FieldValueDuplicate', body: withDetail(omitValue ? 'Duplicate value' : `Duplicate value: ${showValue(value)}`, detail) };
    default:
      return invalidValue(field, value, detail, omitValue);
  }
}
