import type { JsonObject } from '../resources.js';

/**
 * Whether two objects hold the same data, key order aside, `metadata.resourceVersion` ignored: a
 * write whose result equals the stored object is a no-op, as kube (which compares decoded objects)
 * sees it, even when a client sent the keys in another order than the stored JSON has them.
 *
 * @example
 * ```ts
 * sameContent({ metadata: { name: 'a', resourceVersion: '1' }, b: 1 }, { b: 1, metadata: { name: 'a' } }); // true
 * ```
 */
export function sameContent(a: JsonObject, b: JsonObject): boolean {
  const { resourceVersion: _a, ...metaA } = (a.metadata ?? {}) as JsonObject;
  const { resourceVersion: _b, ...metaB } = (b.metadata ?? {}) as JsonObject;
  return equal({ ...a, metadata: metaA }, { ...b, metadata: metaB });
}

/**
 * Deep equality of JSON values, key order aside (keys holding `undefined` do not count).
 *
 * @example
 * ```ts
 * sameJson({ a: 1, b: 2 }, { b: 2, a: 1 }); // true
 * ```
 */
export function sameJson(a: unknown, b: unknown): boolean {
  return equal(a, b);
}

function equal(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    return a.length === bb.length && a.every((v, i) => equal(v, bb[i]));
  }
  // Keys whose value is undefined are not serialised: they do not count.
  const ka = Object.keys(a).filter((k) => (a as JsonObject)[k] !== undefined);
  const kb = Object.keys(b).filter((k) => (b as JsonObject)[k] !== undefined);
  return ka.length === kb.length && ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) && equal((a as JsonObject)[k], (b as JsonObject)[k]));
}
