// apimachinery's resource.Quantity as the API server stores it: parsed (nano-precision, rounded
// up), optionally rounded up to milli (SetDefaults_ResourceList), and printed in canonical form
// (`0.5` -> `500m`, `1024Mi` -> `1Gi`, `1000` -> `1k`) unless the input already was canonical,
// in which case Go keeps the caller's string. Values are exact: a bigint scaled by 10^exp.

/**
 * The pattern kube's decoding error quotes.
 *
 * @example
 * ```ts
 * `quantities must match the regular expression '${QUANTITY_PATTERN}'`;
 * ```
 */
export const QUANTITY_PATTERN = '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$';

type Format = 'DecimalSI' | 'BinarySI' | 'DecimalExponent';

/**
 * A parsed quantity: `sign * mantissa * 10^exp`, its format, and the input kept when canonical.
 *
 * @example
 * ```ts
 * parseQuantity('1500m'); // { negative: false, mantissa: 1500n, exp: -3, format: 'DecimalSI', cached: '1500m' }
 * ```
 */
export interface Quantity {
  readonly negative: boolean;
  readonly mantissa: bigint;
  readonly exp: number;
  readonly format: Format;
  /** Go's cached string: the input itself when parsing found it canonical. */
  readonly cached?: string;
}

const DECIMAL_SUFFIXES: { readonly [s: string]: number } = { n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };
const BINARY_SUFFIXES: { readonly [s: string]: number } = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 };
const MAX_INT64 = 2n ** 63n - 1n;

interface Suffix {
  readonly base: 10 | 2;
  readonly exponent: number;
  readonly format: Format;
}

function interpretSuffix(s: string): Suffix | undefined {
  if (s in DECIMAL_SUFFIXES) return { base: 10, exponent: DECIMAL_SUFFIXES[s], format: 'DecimalSI' };
  if (s in BINARY_SUFFIXES) return { base: 2, exponent: BINARY_SUFFIXES[s], format: 'BinarySI' };
  if (s.length > 1 && (s[0] === 'e' || s[0] === 'E') && /^[-+]?[0-9]+$/.test(s.slice(1))) {
    return { base: 10, exponent: Number.parseInt(s.slice(1), 10), format: 'DecimalExponent' };
  }
  return undefined;
}

/** parseQuantityString's scan: sign, numerator and denominator digits, suffix. */
function scan(str: string): { negative: boolean; num: string; denom: string; suffix: string } | undefined {
  const m = /^([+-]?)0*([0-9]*)(?:\.([0-9]*))?([eEinumkKMGTP]*(?:[-+]?[0-9]+)?)$/.exec(str);
  if (!m) return undefined;
  return { negative: m[1] === '-', num: m[2] === '' ? '0' : m[2], denom: m[3] ?? '', suffix: m[4] };
}

/** Rounds `mantissa * 10^exp` away from zero to at most `scale` decimal places (exp >= -scale). */
function roundUp(mantissa: bigint, exp: number, scale: number): { mantissa: bigint; exp: number } {
  if (exp >= -scale) return { mantissa, exp };
  const factor = 10n ** BigInt(-scale - exp);
  const q = mantissa / factor;
  return { mantissa: mantissa % factor === 0n ? q : q + 1n, exp: -scale };
}

/**
 * Parses a quantity as `resource.ParseQuantity` does; undefined where it fails (kube answers
 * 400, the quantity not matching {@link QUANTITY_PATTERN}).
 *
 * @example
 * ```ts
 * formatQuantity(parseQuantity('0.5')!); // '500m'
 * ```
 */
export function parseQuantity(input: string | number): Quantity | undefined {
  const str = typeof input === 'number' ? (Number.isFinite(input) ? String(input) : '') : input;
  if (str.length === 0) return undefined;
  if (str === '0') return { negative: false, mantissa: 0n, exp: 0, format: 'DecimalSI', cached: '0' };
  const parts = scan(str);
  if (!parts) return undefined;
  const suffix = interpretSuffix(parts.suffix);
  if (!suffix) return undefined;
  const digits = BigInt(parts.num + parts.denom);
  let mantissa = digits;
  let exp = -parts.denom.length;
  if (suffix.base === 10) exp += suffix.exponent;
  else mantissa *= 2n ** BigInt(suffix.exponent);
  ({ mantissa, exp } = roundUp(mantissa, exp, 9));
  let format = suffix.format;
  const cached = cachedForm(str, parts, suffix, digits);
  if (format === 'BinarySI' && mantissa > 0n && mantissa < 10n ** BigInt(Math.max(0, -exp))) format = 'DecimalSI';
  return { negative: parts.negative && mantissa !== 0n, mantissa, exp, format, ...(cached !== undefined ? { cached } : {}) };
}

/** Whether Go's fast path keeps the input string (it is already canonical). */
function cachedForm(str: string, parts: { num: string; denom: string }, suffix: Suffix, digits: bigint): string | undefined {
  if (suffix.base === 2) {
    const precision = 15 - parts.num.length - Math.trunc((suffix.exponent * 3) / 10) - 1;
    if (precision < 0 || parts.denom.length > 0 || digits > MAX_INT64) return undefined;
    return suffix.exponent % 10 === 0 && (digits & 7n) !== 0n ? str : undefined;
  }
  const scale = suffix.exponent - parts.denom.length;
  if (parts.num.length + parts.denom.length > 18 || scale < -9 || digits > MAX_INT64) return undefined;
  const shifted = parts.num + parts.denom;
  return scale % 3 === 0 && !shifted.endsWith('000') && shifted[0] !== '0' ? str : undefined;
}

/**
 * `Quantity.RoundUp(scale)` for a ResourceList (scale 3: milli). Keeps Go's cached string when no
 * rounding is needed.
 *
 * @example
 * ```ts
 * formatQuantity(roundUpQuantity(parseQuantity('100u')!, 3)); // '1m'
 * ```
 */
export function roundUpQuantity(q: Quantity, scale: number): Quantity {
  if (q.exp >= -scale) return q;
  const r = roundUp(q.mantissa, q.exp, scale);
  return { negative: q.negative, mantissa: r.mantissa, exp: r.exp, format: q.format };
}

const DECIMAL_BY_EXP: { readonly [e: number]: string } = Object.fromEntries(Object.entries(DECIMAL_SUFFIXES).map(([s, e]) => [e, s]));
const BINARY_BY_EXP = ['', 'Ki', 'Mi', 'Gi', 'Ti', 'Pi', 'Ei'];

function canonicalDecimal(mantissa: bigint, exp: number, format: Format): string {
  let m = mantissa;
  let e = exp;
  while (m !== 0n && m % 10n === 0n) {
    m /= 10n;
    e += 1;
  }
  while (((e % 3) + 3) % 3 !== 0) {
    m *= 10n;
    e -= 1;
  }
  if (format === 'DecimalExponent') return e === 0 ? `${m}` : `${m}e${e}`;
  const suffix = DECIMAL_BY_EXP[e];
  return suffix === undefined ? `${m}e${e}` : `${m}${suffix}`;
}

/**
 * The string kube stores for a quantity (`Quantity.String()`).
 *
 * @example
 * ```ts
 * formatQuantity(parseQuantity('1024Mi')!); // '1Gi'
 * formatQuantity(parseQuantity('1000')!); // '1k'
 * ```
 */
export function formatQuantity(q: Quantity): string {
  if (q.cached !== undefined) return q.cached;
  if (q.mantissa === 0n) return '0';
  const sign = q.negative ? '-' : '';
  if (q.format === 'BinarySI') {
    const integral = q.exp >= 0 || q.mantissa % 10n ** BigInt(-q.exp) === 0n;
    const whole = q.exp >= 0 ? q.mantissa * 10n ** BigInt(q.exp) : q.mantissa / 10n ** BigInt(-q.exp);
    if (integral && whole >= 1024n) {
      let m = whole;
      let k = 0;
      while (m % 1024n === 0n && k < BINARY_BY_EXP.length - 1) {
        m /= 1024n;
        k += 1;
      }
      return `${sign}${m}${BINARY_BY_EXP[k]}`;
    }
    return sign + canonicalDecimal(q.mantissa, q.exp, 'DecimalSI');
  }
  return sign + canonicalDecimal(q.mantissa, q.exp, q.format);
}

/**
 * Compares two quantities by value (-1, 0, 1), as `Quantity.Cmp`.
 *
 * @example
 * ```ts
 * compareQuantities(parseQuantity('1')!, parseQuantity('1000m')!); // 0
 * ```
 */
export function compareQuantities(a: Quantity, b: Quantity): number {
  const e = Math.min(a.exp, b.exp);
  const av = (a.negative ? -1n : 1n) * a.mantissa * 10n ** BigInt(a.exp - e);
  const bv = (b.negative ? -1n : 1n) * b.mantissa * 10n ** BigInt(b.exp - e);
  return av < bv ? -1 : av > bv ? 1 : 0;
}

/**
 * Whether the quantity is a whole number (`MilliValue() % 1000 == 0`).
 *
 * @example
 * ```ts
 * isWholeQuantity(parseQuantity('1500m')!); // false
 * ```
 */
export const isWholeQuantity = (q: Quantity): boolean => q.exp >= 0 || q.mantissa % 10n ** BigInt(-q.exp) === 0n;
