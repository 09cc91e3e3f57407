// Reading an object as the server stores it (plain JSON, any field possibly missing or of the wrong
// type) the way Go reads its typed struct: a missing or mistyped field is the zero value.
import type { JsonObject } from '../resources.js';

/**
 * The object at `value`, or an empty one.
 *
 * @example
 * ```ts
 * obj(pod.spec).nodeName;
 * ```
 */
export const obj = (value: unknown): JsonObject =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as JsonObject) : {};

/**
 * The array at `value`, or an empty one.
 *
 * @example
 * ```ts
 * arr(obj(pod.spec).containers).length;
 * ```
 */
export const arr = (value: unknown): ReadonlyArray<unknown> => (Array.isArray(value) ? value : []);

/**
 * The string at `value`, or `''`.
 *
 * @example
 * ```ts
 * str(obj(pod.status).phase); // 'Running'
 * ```
 */
export const str = (value: unknown): string => (typeof value === 'string' ? value : '');

/**
 * The integer at `value` (truncated), or 0.
 *
 * @example
 * ```ts
 * int(obj(rs.status).readyReplicas); // 2
 * ```
 */
export const int = (value: unknown): number => (typeof value === 'number' && Number.isFinite(value) ? Math.trunc(value) : 0);

/**
 * The value at a path of keys, or undefined.
 *
 * @example
 * ```ts
 * at(deployment, 'spec', 'template', 'spec', 'containers'); // [...]
 * ```
 */
export function at(value: unknown, ...keys: ReadonlyArray<string>): unknown {
  let v: unknown = value;
  for (const k of keys) {
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return undefined;
    v = (v as JsonObject)[k];
  }
  return v;
}

/**
 * `metadata.name` and `metadata.creationTimestamp`, the two fields every printer reads.
 *
 * @example
 * ```ts
 * nameOf(pod); // 'web-0'
 * ```
 */
export const nameOf = (o: JsonObject): string => str(at(o, 'metadata', 'name'));

/**
 * The object's `metadata.creationTimestamp` (a string, or undefined).
 *
 * @example
 * ```ts
 * createdOf(pod); // '2026-05-01T10:00:00Z'
 * ```
 */
export const createdOf = (o: JsonObject): unknown => at(o, 'metadata', 'creationTimestamp');

/**
 * Whether `metadata.deletionTimestamp` is set (the object is terminating).
 *
 * @example
 * ```ts
 * if (isDeleting(pod)) status = 'Terminating';
 * ```
 */
export const isDeleting = (o: JsonObject): boolean => typeof at(o, 'metadata', 'deletionTimestamp') === 'string';
