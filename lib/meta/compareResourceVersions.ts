const DECIMAL = /^(0|[1-9][0-9]*)$/;

/**
 * Orders two resource versions as KEP-5504 allows since Kubernetes 1.35: both decimal integers
 * without leading zeros (the server's versions of one resource type are then ordered). Answers
 * -1, 0 or 1, or `undefined` when either is not such a number (an older server, an aggregated API,
 * a missing version): the caller must then only test them for equality. Any length is compared
 * exactly (no conversion to a float).
 *
 * @example
 * ```ts
 * compareResourceVersions('99', '100'); // -1
 * compareResourceVersions('100', '100'); // 0
 * compareResourceVersions('abc', '100'); // undefined: not comparable
 * ```
 */
export function compareResourceVersions(a: string | undefined, b: string | undefined): -1 | 0 | 1 | undefined {
  if (a === undefined || b === undefined || !DECIMAL.test(a) || !DECIMAL.test(b)) return undefined;
  if (a.length !== b.length) return a.length < b.length ? -1 : 1;
  return a === b ? 0 : a < b ? -1 : 1;
}
