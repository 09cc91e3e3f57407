import type { JsonObject } from '../resources.js';
import type { FieldPath } from './strategy.js';

// Reading and writing a value at a field path of a parsed object: what the strategy stage (the
// fields a subresource takes or resets) and the Scale view (replicas and selector paths) share.

const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The value at `path`, or undefined where a step is missing or not an object.
 *
 * @example
 * ```ts
 * getAt({ spec: { replicas: 3 } }, ['spec', 'replicas']); // 3
 * ```
 */
export function getAt(obj: JsonObject, path: FieldPath): unknown {
  let v: unknown = obj;
  for (const k of path) v = isObject(v) ? v[k] : undefined;
  return v;
}

/**
 * Sets (or, for undefined, deletes) the value at `path`, copying the objects on the way (they may be
 * shared with the stored object).
 *
 * @example
 * ```ts
 * setAt(obj, ['spec', 'replicas'], 5);
 * ```
 */
export function setAt(obj: JsonObject, path: FieldPath, value: unknown): void {
  let parent = obj;
  for (const k of path.slice(0, -1)) {
    const next = isObject(parent[k]) ? { ...(parent[k] as JsonObject) } : {};
    parent[k] = next;
    parent = next;
  }
  const last = path[path.length - 1];
  if (value === undefined) delete parent[last];
  else parent[last] = value;
}
