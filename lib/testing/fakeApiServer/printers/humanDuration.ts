// apimachinery's duration.HumanDuration and the printers' translateTimestampSince: the ages `kubectl
// get` shows (`5m`, `3h12m`, `4d`). Pure: "now" is given, so a fake server prints ages on its own clock.

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/**
 * A duration in milliseconds as kube words it for humans: about two significant figures (`45s`,
 * `2m30s`, `15m`, `3h12m`, `20h`, `4d5h`, `60d`, `2y10d`, `9y`). A negative duration of up to two
 * seconds is `0s` (clock skew); more is `<invalid>`.
 *
 * @example
 * ```ts
 * humanDuration(150_000); // '2m30s'
 * humanDuration(-5_000); // '<invalid>'
 * ```
 */
export function humanDuration(ms: number): string {
  const seconds = Math.trunc(ms / SECOND);
  if (seconds < -1) return '<invalid>';
  if (seconds < 0) return '0s';
  if (seconds < 60 * 2) return `${seconds}s`;
  const minutes = Math.trunc(ms / MINUTE);
  if (minutes < 10) {
    const s = seconds % 60;
    return s === 0 ? `${minutes}m` : `${minutes}m${s}s`;
  }
  if (minutes < 60 * 3) return `${minutes}m`;
  const hours = Math.trunc(ms / HOUR);
  if (hours < 8) {
    const m = minutes % 60;
    return m === 0 ? `${hours}h` : `${hours}h${m}m`;
  }
  if (hours < 48) return `${hours}h`;
  const days = Math.trunc(hours / 24);
  if (hours < 24 * 8) {
    const h = hours % 24;
    return h === 0 ? `${days}d` : `${days}d${h}h`;
  }
  if (hours < 24 * 365 * 2) return `${days}d`;
  const years = Math.trunc(days / 365);
  if (hours < 24 * 365 * 8) {
    const d = days % 365;
    return d === 0 ? `${years}y` : `${years}y${d}d`;
  }
  return `${years}y`;
}

/**
 * Milliseconds since the epoch of an RFC 3339 timestamp as the API writes it (`2026-05-01T10:00:00Z`,
 * fractions and offsets allowed), or undefined for a missing or unparsable one.
 *
 * @example
 * ```ts
 * parseTimestamp('1970-01-01T00:00:01Z'); // 1000
 * ```
 */
export function parseTimestamp(value: unknown): number | undefined {
  if (typeof value !== 'string' || !RFC3339.test(value)) return undefined;
  const t = Date.parse(value);
  return Number.isNaN(t) ? undefined : t;
}

// Go's time.RFC3339 layout (what metav1.Time parses): date, `T`, time, optional fraction, `Z` or an offset.
const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

/**
 * The printers' age of a timestamp at `now`: `<unknown>` when it is missing (a zero time in kube),
 * else {@link humanDuration} of the time since.
 *
 * @example
 * ```ts
 * ageSince('2026-05-01T10:00:00Z', Date.parse('2026-05-01T10:05:00Z')); // '5m'
 * ```
 */
export function ageSince(timestamp: unknown, now: number): string {
  const t = parseTimestamp(timestamp);
  return t === undefined ? '<unknown>' : humanDuration(now - t);
}
