/**
 * murmur3's 32-bit finaliser: a bijection on 32-bit integers that spreads every input bit over the
 * whole output, so hashes of similar strings (keys differing in their last characters) land far
 * apart. The store's trie and the sharding's rendezvous hash both finish their string hashes with it.
 *
 * @example
 * ```ts
 * fmix32(1) !== fmix32(2); // true; and fmix32 is stable across processes and platforms
 * ```
 */
export function fmix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}
