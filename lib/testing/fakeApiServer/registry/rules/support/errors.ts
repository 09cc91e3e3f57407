import type { FieldError } from '../../../status.js';
import { invalidValue, showValue } from '../../../schema/fieldErrors.js';

// The few field.Error shapes fieldErrors.ts does not build, and the "one cause per message"
// pattern kube's validators use for string checks.

/**
 * One `Invalid value` cause per message of a string check (kube reports each separately).
 *
 * @example
 * ```ts
 * invalidEach('spec.containers[0].name', 'Web', isDNS1123Label('Web'));
 * ```
 */
export const invalidEach = (field: string, value: unknown, messages: ReadonlyArray<string>): FieldError[] =>
  messages.map((m) => invalidValue(field, value, m));

/**
 * field.NotFound: `Not found: "data"` (a volume mount naming no volume). status.ts's cause types
 * have no `FieldValueNotFound` yet, so the reason is set here as apimachinery spells it.
 *
 * @example
 * ```ts
 * notFound('spec.containers[0].volumeMounts[0].name', 'data');
 * ```
 */
export const notFound = (field: string, value: unknown): FieldError => ({
  field,
  type: 'FieldValueNotFound' as unknown as FieldError['type'],
  body: `Not found: ${showValue(value)}`,
});

/**
 * field.Invalid with the value left out (`Invalid value: <detail>`), as kube's `OmitValueType`.
 *
 * @example
 * ```ts
 * invalidOmitted('status.conditions', 'cannot set SuccessCriteriaMet to NonIndexed Job');
 * ```
 */
export const invalidOmitted = (field: string, detail: string): FieldError => invalidValue(field, undefined, detail, true);

/**
 * apimachinery's `IsNegativeErrorMsg`.
 *
 * @example
 * ```ts
 * invalidValue('spec.replicas', -1, IS_NEGATIVE);
 * ```
 */
export const IS_NEGATIVE = 'must be greater than or equal to 0';

/**
 * apimachinery's `FieldImmutableErrorMsg`.
 *
 * @example
 * ```ts
 * invalidValue('spec.selector', selector, FIELD_IMMUTABLE);
 * ```
 */
export const FIELD_IMMUTABLE = 'field is immutable';

/**
 * `ValidateNonnegativeField`: a cause when `value` is a negative number.
 *
 * @example
 * ```ts
 * nonNegative('spec.replicas', -1); // [spec.replicas: Invalid value: -1: must be greater than or equal to 0]
 * ```
 */
export const nonNegative = (field: string, value: unknown): FieldError[] =>
  typeof value === 'number' && value < 0 ? [invalidValue(field, value, IS_NEGATIVE)] : [];
