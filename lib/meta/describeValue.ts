/**
 * A value's string form for an error message, that never throws: `String(value)`, else (a
 * null-prototype object, a throwing `toString`) `Object.prototype.toString`, else its type. An
 * error built from a bad argument must not itself fail with a TypeError.
 *
 * @internal
 * @example
 * ```ts
 * describeValue('ns/a');              // 'ns/a'
 * describeValue(Object.create(null)); // '[object Object]'
 * ```
 */
export function describeValue(value: unknown): string {
  try {
    return String(value);
  } catch {
    try {
      return Object.prototype.toString.call(value);
    } catch {
      // A revoked Proxy, a throwing Symbol.toStringTag getter.
      return `[${typeof value}]`;
    }
  }
}
