import type { JsonObject } from '../../../resources.js';

// Reading and defaulting parsed JSON bodies without trusting their shape: a field of the wrong
// type reads as absent, so a malformed body yields kube's field errors, never a TypeError.

/**
 * Whether `v` is a JSON object (not an array, not null).
 *
 * @example
 * ```ts
 * isObject({}); // true
 * isObject([]); // false
 * ```
 */
export const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The object at `obj[key]`, or undefined when it is absent or not an object.
 *
 * @example
 * ```ts
 * objectAt({ spec: { replicas: 1 } }, 'spec'); // { replicas: 1 }
 * ```
 */
export const objectAt = (obj: JsonObject | undefined, key: string): JsonObject | undefined => {
  const v = obj?.[key];
  return isObject(v) ? v : undefined;
};

/**
 * The array at `obj[key]`, or `[]` when it is absent or not an array.
 *
 * @example
 * ```ts
 * listAt({ ports: [{ port: 80 }] }, 'ports'); // [{ port: 80 }]
 * ```
 */
export const listAt = (obj: JsonObject | undefined, key: string): unknown[] => {
  const v = obj?.[key];
  return Array.isArray(v) ? v : [];
};

/**
 * The objects of the array at `obj[key]` with their indexes (items that are not objects are
 * skipped, their index kept so field paths stay right).
 *
 * @example
 * ```ts
 * objectsAt({ containers: [{ name: 'a' }] }, 'containers'); // [[{ name: 'a' }, 0]]
 * ```
 */
export const objectsAt = (obj: JsonObject | undefined, key: string): Array<[JsonObject, number]> =>
  listAt(obj, key).flatMap((v, i): Array<[JsonObject, number]> => (isObject(v) ? [[v, i]] : []));

/**
 * The string at `obj[key]`, or `''` when it is absent or not a string (Go's zero value).
 *
 * @example
 * ```ts
 * stringAt({ name: 'web' }, 'name'); // 'web'
 * ```
 */
export const stringAt = (obj: JsonObject | undefined, key: string): string => {
  const v = obj?.[key];
  return typeof v === 'string' ? v : '';
};

/**
 * The number at `obj[key]`, or undefined when it is absent or not a number.
 *
 * @example
 * ```ts
 * numberAt({ replicas: 3 }, 'replicas'); // 3
 * ```
 */
export const numberAt = (obj: JsonObject | undefined, key: string): number | undefined => {
  const v = obj?.[key];
  return typeof v === 'number' ? v : undefined;
};

/**
 * The object at `obj[key]`, created (and set) when it is absent or not an object.
 *
 * @example
 * ```ts
 * const spec = ensureObject(deployment, 'spec'); // deployment.spec now exists
 * ```
 */
export function ensureObject(obj: JsonObject, key: string): JsonObject {
  const v = obj[key];
  if (isObject(v)) return v;
  const created: JsonObject = {};
  obj[key] = created;
  return created;
}

/**
 * Sets `obj[key]` to `value` when it is absent or null (kube's `if x == nil { x = default }`).
 *
 * @example
 * ```ts
 * setDefault(spec, 'replicas', 1);
 * ```
 */
export function setDefault(obj: JsonObject, key: string, value: unknown): void {
  if (obj[key] === undefined || obj[key] === null) obj[key] = value;
}

/**
 * Sets `obj[key]` to `value` when it is absent, null or `''` (kube's `if x == "" { x = default }`
 * on a string field).
 *
 * @example
 * ```ts
 * setDefaultString(spec, 'dnsPolicy', 'ClusterFirst');
 * ```
 */
export function setDefaultString(obj: JsonObject, key: string, value: string): void {
  if (obj[key] === undefined || obj[key] === null || obj[key] === '') obj[key] = value;
}

/**
 * A deep copy of a JSON value.
 *
 * @example
 * ```ts
 * const copy = cloneJson(pod); // mutating copy leaves pod as it was
 * ```
 */
export const cloneJson = <T>(v: T): T => (v === undefined ? v : (JSON.parse(JSON.stringify(v)) as T));

/** Go's zero values and empty collections, which apimachinery's semantic equality treats as unset. */
function isEmptyValue(v: unknown): boolean {
  if (v === undefined || v === null || v === false || v === 0 || v === '') return true;
  if (Array.isArray(v)) return v.length === 0;
  return isObject(v) && Object.keys(v).every((k) => isEmptyValue(v[k]));
}

/**
 * apimachinery's `Semantic.DeepEqual` on JSON: key order does not matter, and an absent field
 * equals null, Go's zero value (`false`, `0`, `''`) and an empty list or map. (Go tells a nil
 * pointer from a pointer to a zero value; JSON bodies rarely do, so this does not.)
 *
 * @example
 * ```ts
 * semanticEqual({ a: [], b: 1 }, { b: 1 }); // true
 * ```
 */
export function semanticEqual(a: unknown, b: unknown): boolean {
  if (isEmptyValue(a) && isEmptyValue(b)) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((x, i) => semanticEqual(x, b[i]));
  }
  if (isObject(a) && isObject(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    for (const k of keys) if (!semanticEqual(a[k], b[k])) return false;
    return true;
  }
  return a === b;
}

/**
 * Go's `reflect.DeepEqual` on JSON: exact values and key sets, key order aside (for maps such as
 * a ConfigMap's data, where a key with an empty value is still a key).
 *
 * @example
 * ```ts
 * strictEqual({ a: '' }, {}); // false
 * ```
 */
export function strictEqual(a: unknown, b: unknown): boolean {
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => strictEqual(x, b[i]));
  }
  if (isObject(a) && isObject(b)) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((k) => Object.prototype.hasOwnProperty.call(b, k) && strictEqual(a[k], b[k]));
  }
  return a === b;
}

/**
 * A map (labels, selectors) as Go's `json.Marshal` prints it in an error: keys sorted.
 *
 * @example
 * ```ts
 * JSON.stringify(sortedMap({ b: '1', a: '2' })); // '{"a":"2","b":"1"}'
 * ```
 */
export function sortedMap(m: unknown): JsonObject {
  if (!isObject(m)) return {};
  const out: JsonObject = {};
  for (const k of Object.keys(m).sort()) out[k] = m[k];
  return out;
}
