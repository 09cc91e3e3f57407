// client-node's typed calls return class instances (V1Deployment, ...) that immer will not draft,
// and a few of their fields are renamed from the wire name (the generator avoids JS keywords).
const RENAMED: { readonly [field: string]: string } = { _continue: 'continue', _default: 'default', _enum: 'enum', _from: 'from', _int: 'int' };

/**
 * Internal: a deep copy of a Kubernetes object made of plain objects and arrays, with wire field
 * names, so that immer can draft it and patch paths name what the API server stores. Dates stay
 * Dates (JSON serialises them as the API server expects); undefined fields are dropped.
 */
export function plainCopy(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(plainCopy);
  if (value === null || typeof value !== 'object' || value instanceof Date) return value;
  const proto: unknown = Object.getPrototypeOf(value);
  const isModel = proto !== Object.prototype && proto !== null;
  const out: { [key: string]: unknown } = {};
  for (const [k, v] of Object.entries(value)) {
    if (v === undefined) continue;
    out[isModel ? (RENAMED[k] ?? k) : k] = plainCopy(v);
  }
  return out;
}
