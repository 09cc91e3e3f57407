import type { JsonObject } from '../../../resources.js';
import { isObject } from './json.js';
import { formatQuantity, parseQuantity, QUANTITY_PATTERN, roundUpQuantity } from './quantities.js';

// Quantity fields as the API server decodes and stores them: a value that does not parse fails
// decoding (kube's 400), one that does is stored in canonical form; ResourceLists (requests,
// limits, overhead, PVC resources) are rounded up to milli first (SetDefaults_ResourceList).

/**
 * A quantity that failed to decode. The type's `defaults` turns it into kube's 400 (it names
 * the kind and version, which this error does not know).
 *
 * @example
 * ```ts
 * try { canonicalQuantity('abc'); } catch (e) { e instanceof QuantityFormatError; } // true
 * ```
 */
export class QuantityFormatError extends Error {
  constructor() {
    super(`quantities must match the regular expression '${QUANTITY_PATTERN}'`);
    this.name = 'QuantityFormatError';
  }
}

/**
 * The stored form of one quantity value (a string or a JSON number); throws
 * {@link QuantityFormatError} where decoding fails. `null` decodes as zero.
 *
 * @example
 * ```ts
 * canonicalQuantity('0.5'); // '500m'
 * canonicalQuantity('100u', 3); // '1m'
 * ```
 */
export function canonicalQuantity(v: unknown, roundUpToScale?: number): string {
  if (v === null) return '0';
  if (typeof v !== 'string' && typeof v !== 'number') throw new QuantityFormatError();
  const q = parseQuantity(typeof v === 'string' ? v.trim() : v);
  if (!q) throw new QuantityFormatError();
  return formatQuantity(roundUpToScale === undefined ? q : roundUpQuantity(q, roundUpToScale));
}

/**
 * `SetDefaults_ResourceList` plus decoding: every value of the map at `obj[key]` in canonical
 * form, rounded up to milli.
 *
 * @example
 * ```ts
 * const r = { limits: { cpu: '0.5', memory: '1024Mi' } };
 * defaultResourceList(r, 'limits'); // r.limits = { cpu: '500m', memory: '1Gi' }
 * ```
 */
export function defaultResourceList(obj: JsonObject | undefined, key: string): void {
  const list = obj?.[key];
  if (!isObject(list)) return;
  for (const k of Object.keys(list)) list[k] = canonicalQuantity(list[k], 3);
}

/**
 * Decoding of a single quantity field at `obj[key]` (no milli rounding: emptyDir sizeLimit,
 * HPA targets).
 *
 * @example
 * ```ts
 * const e = { sizeLimit: '1024Mi' };
 * defaultQuantityField(e, 'sizeLimit'); // e.sizeLimit = '1Gi'
 * ```
 */
export function defaultQuantityField(obj: JsonObject | undefined, key: string): void {
  if (obj && obj[key] !== undefined) obj[key] = canonicalQuantity(obj[key]);
}
