import type { FieldError } from '../../../status.js';
import { invalidValue } from '../../../schema/fieldErrors.js';
import { invalidEach, nonNegative } from './errors.js';
import { isValidPercent, isValidPortName, isValidPortNum } from './names.js';

// intstr.IntOrString fields: rolling-update budgets and PDB thresholds (apps validation's
// ValidatePositiveIntOrPercent, IsNotMoreThan100Percent) and ports by number or name.

/**
 * An int-or-percent as apps validation reads it: the number, or the percent's number, or 0.
 *
 * @example
 * ```ts
 * intOrPercentValue('25%'); // 25
 * ```
 */
export function intOrPercentValue(v: unknown): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'string' && isValidPercent(v).length === 0) return Number.parseInt(v.slice(0, -1), 10);
  return 0;
}

/**
 * `ValidatePositiveIntOrPercent`: a non-negative number or a percent string.
 *
 * @example
 * ```ts
 * validatePositiveIntOrPercent('25', 'spec.strategy.rollingUpdate.maxSurge'); // one cause
 * ```
 */
export function validatePositiveIntOrPercent(v: unknown, field: string): FieldError[] {
  if (typeof v === 'string') return invalidEach(field, v, isValidPercent(v));
  if (typeof v === 'number') return nonNegative(field, v);
  return [invalidValue(field, v, "must be an integer or percentage (e.g '5%%')")];
}

/**
 * `IsNotMoreThan100Percent`: a percent string above 100% is a cause.
 *
 * @example
 * ```ts
 * isNotMoreThan100Percent('150%', 'spec.minAvailable'); // [spec.minAvailable: Invalid value: "150%": must not be greater than 100%]
 * ```
 */
export function isNotMoreThan100Percent(v: unknown, field: string): FieldError[] {
  if (typeof v !== 'string' || isValidPercent(v).length > 0) return [];
  return intOrPercentValue(v) > 100 ? [invalidValue(field, v, 'must not be greater than 100%')] : [];
}

/**
 * `ValidatePortNumOrName`: a port number 1-65535 or an IANA port name.
 *
 * @example
 * ```ts
 * validatePortNumOrName(0, 'spec.ports[0].targetPort'); // one cause
 * ```
 */
export function validatePortNumOrName(v: unknown, field: string): FieldError[] {
  if (typeof v === 'string') return invalidEach(field, v, isValidPortName(v));
  const n = typeof v === 'number' ? v : 0; // an unset IntOrString is the int 0
  return invalidEach(field, n, isValidPortNum(n));
}
