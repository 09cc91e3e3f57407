// client-node's typed calls return class instances (V1Deployment, ...) that immer will not draft,
// and a few of their fields are renamed from the wire name (the generator avoids JS keywords).
const RENAMED: { readonly [field: string]: string } = { _continue: 'continue', _default: 'default', _enum: 'enum', _from: 'from', _int: 'int' };

/**
 * Internal: sets `obj[key]` as an own data property. Plain assignment would treat a `__proto__`
 * key (a valid ConfigMap data key; `JSON.parse` makes it an own property) as the prototype.
 */
export const setOwn = (obj: { [key: string]: unknown }, key: string, value: unknown): void =>
  void Object.defineProperty(obj, key, { value, writable: true, enumerable: true, configurable: true });

/**
 * Internal: a deep copy of a Kubernetes object made of plain objects and arrays, with wire field
 * names, so that immer can draft it and patch paths name what the API server stores. Dates stay
 * Dates (JSON serialises them as the API server expects); undefined fields are dropped, and
 * undefined array elements (holes included) become `null`, as JSON has no undefined and
 * `JSON.stringify` does the same. Also makes patch values JSON values.
 */
export function plainCopy(value: unknown): unknown {
  // Array.from visits holes (map would keep them).
  if (Array.isArray(value)) return Array.from(value as unknown[], (v) => (v === undefined ? null : plainCopy(v)));
  if (value === null || typeof value !== 'object' || value instanceof Date) return value;
  const proto: unknown = Object.getPrototypeOf(value);
  const isModel = proto !== Object.prototype && proto !== null;
  const out: { [key: string]: unknown } = {};
  for (const [k, v] of Object.entries(value)) {
    if (v === undefined) continue;
    const key = isModel ? (RENAMED[k] ?? k) : k;
    // defineProperty only where assignment would set the prototype (it is slow per key).
    if (key === '__proto__') setOwn(out, key, plainCopy(v));
    else out[key] = plainCopy(v);
  }
  return out;
}
