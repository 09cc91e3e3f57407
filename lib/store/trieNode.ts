/**
 * The nodes of `PersistentMap`'s trie: the layout of an inner node, the collision node, and
 * the bit arithmetic that finds a slot (see persistentMap.ts for why this layout).
 *
 * @internal Not part of rxkube's public API.
 * @module
 */

/** Bits of the hash consumed per level, and the mask of one level's chunk. */
export const BITS = 5;
export const MASK = 31;

/** The number of bits set in a 32-bit integer. */
export function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  x = (x + (x >>> 4)) & 0x0f0f0f0f;
  return Math.imul(x, 0x01010101) >>> 24;
}

/** Header slots of an inner node. */
export const DATAMAP = 0;
export const NODEMAP = 1;
export const OWNER = 2;
export const HEAD = 3;

/** An inner node (see the module comment for the layout). */
export type Inner = unknown[];

/** A node for keys whose full 32-bit hashes are equal: `arr` holds `[key, value, ...]`. */
export class CollisionNode {
  constructor(
    readonly hash: number,
    public arr: unknown[],
    readonly owner: number,
  ) {}
}

export type HNode = Inner | CollisionNode;
