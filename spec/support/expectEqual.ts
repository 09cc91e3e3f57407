// Cheaper `toBe` / `toEqual` for the seeded random suites (not a spec file).
import { expect } from '@jest/globals';
import { isDeepStrictEqual } from 'node:util';

// The random suites check the store after every step, tens of thousands of times a run, and jest's
// `expect(...)` costs far more than the check itself (it builds a matcher object and an Error for
// the stack each call). These decide the common case, equal, with a plain comparison and hand only
// a mismatch to jest's matcher, which then decides and prints the usual diff: the assertion is
// jest's, the cost is not.

/**
 * Asserts what `expect(actual).toBe(expected)` asserts (`Object.is`).
 *
 * @example
 * ```ts
 * expectSame(m.upsert(p), model.get(key));
 * ```
 */
export function expectSame(actual: unknown, expected: unknown): void {
  if (!Object.is(actual, expected)) expect(actual).toBe(expected);
}

/**
 * Asserts what `expect(actual).toEqual(expected)` asserts. Node's strict deep equality passes only
 * values that `toEqual` also passes; anything else goes to `toEqual`.
 *
 * @example
 * ```ts
 * expectEqual(contents(writer.peek()), expected(model, rv));
 * ```
 */
export function expectEqual(actual: unknown, expected: unknown): void {
  if (!isDeepStrictEqual(actual, expected)) expect(actual).toEqual(expected);
}
