/**
 * The names among `methods` that `value` has no function for (all of them for `null` or
 * `undefined`): how a config check tells plain JavaScript that what it passed is not a lock, a
 * rate limiter or an informer, and which part is missing.
 *
 * @internal
 * @example
 * ```ts
 * missingMethods({ get() {} }, ['get', 'update']); // ['update']
 * ```
 */
export function missingMethods(value: unknown, methods: ReadonlyArray<string>): string[] {
  if (value === null || value === undefined) return [...methods];
  return methods.filter((m) => typeof (value as Record<string, unknown>)[m] !== 'function');
}
