import { fmix32 } from '../meta/fmix32.js';

/**
 * A 32-bit hash of a string: the `s[0]*31^(n-1) + ...` polynomial (as Java's `String.hashCode`)
 * followed by murmur3's finaliser so that keys differing in their last characters spread over the
 * whole trie. The finaliser is a bijection: equal polynomial hashes stay equal (the tests use this
 * to force collisions, e.g. `"Aa"` and `"BB"`).
 */
export function hashString(s: string): number {
  let h = 0;
  for (let i = 0; i < s.length; i++) h = (Math.imul(h, 31) + s.charCodeAt(i)) | 0;
  return fmix32(h);
}
