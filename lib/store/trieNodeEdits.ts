/**
 * Edits of one inner node of `PersistentMap`'s trie, each returning the edited node. An edit
 * under a batch's owner number changes in place a node that this batch created (a transient, as
 * Clojure's and immutable.js' `withMutations`); any other node is copied, so published snapshots
 * never change. Nodes are always exact-size arrays: an edit that changes the size copies.
 *
 * @internal Not part of rxkube's public API.
 * @module
 */
import { BITS, CollisionNode, DATAMAP, HEAD, MASK, NODEMAP, OWNER, popcount, type HNode, type Inner } from './trieNode.js';

/** Batch owner numbers: 0 means "no owner" (every edit copies). */
let lastOwner = 0;

/** A fresh owner number for one batch of in-place edits. */
export function newOwner(): number {
  lastOwner += 1;
  return lastOwner;
}

/** `node` with `node[i] = value`, in place when the owner allows. */
export function withSlot(node: Inner, i: number, value: unknown, owner: number): Inner {
  if (owner !== 0 && node[OWNER] === owner) {
    node[i] = value;
    return node;
  }
  const out = node.slice();
  out[OWNER] = owner;
  out[i] = value;
  return out;
}

/** `node` with a new pair `[k, v]` at data position `i` for `bit`. Always a new, exact-size array. */
export function insertPair(node: Inner, bit: number, i: number, k: string, v: unknown, owner: number): Inner {
  const len = node.length;
  const out = new Array<unknown>(len + 2);
  out[DATAMAP] = (node[DATAMAP] as number) | bit;
  out[NODEMAP] = node[NODEMAP];
  out[OWNER] = owner;
  for (let j = HEAD; j < i; j++) out[j] = node[j];
  out[i] = k;
  out[i + 1] = v;
  for (let j = i; j < len; j++) out[j + 2] = node[j];
  return out;
}

/** `node` without the pair at data position `i` for `bit`. */
export function removePair(node: Inner, bit: number, i: number, owner: number): Inner {
  const len = node.length;
  const out = new Array<unknown>(len - 2);
  out[DATAMAP] = (node[DATAMAP] as number) ^ bit;
  out[NODEMAP] = node[NODEMAP];
  out[OWNER] = owner;
  for (let j = HEAD; j < i; j++) out[j] = node[j];
  for (let j = i + 2; j < len; j++) out[j - 2] = node[j];
  return out;
}

/** `node` with the pair at data position `i` (for `bit`) replaced by the child `sub`. */
export function pairToChild(node: Inner, bit: number, i: number, sub: HNode, owner: number): Inner {
  const len = node.length;
  const nodemap = node[NODEMAP] as number;
  const r = popcount(nodemap & (bit - 1)); // the rank of the new child
  const out = new Array<unknown>(len - 1);
  out[DATAMAP] = (node[DATAMAP] as number) ^ bit;
  out[NODEMAP] = nodemap | bit;
  out[OWNER] = owner;
  for (let j = HEAD; j < i; j++) out[j] = node[j];
  // Data after the pair, then the children of rank >= r, move 2 left; the new child follows; the
  // children of rank < r move 1 left.
  for (let j = i + 2; j <= len - 1 - r; j++) out[j - 2] = node[j];
  out[len - 2 - r] = sub;
  for (let j = len - r; j < len; j++) out[j - 1] = node[j];
  return out;
}

/** `node` with the child for `bit` replaced by the pair `[k, v]` (the inverse of {@link pairToChild}). */
export function childToPair(node: Inner, bit: number, k: unknown, v: unknown, owner: number): Inner {
  const len = node.length;
  const datamap = node[DATAMAP] as number;
  const nodemap = node[NODEMAP] as number;
  const i = HEAD + 2 * popcount(datamap & (bit - 1));
  const x = len - 1 - popcount(nodemap & (bit - 1)); // the child's position
  const out = new Array<unknown>(len + 1);
  out[DATAMAP] = datamap | bit;
  out[NODEMAP] = nodemap ^ bit;
  out[OWNER] = owner;
  for (let j = HEAD; j < i; j++) out[j] = node[j];
  out[i] = k;
  out[i + 1] = v;
  for (let j = i; j < x; j++) out[j + 2] = node[j];
  for (let j = x + 1; j < len; j++) out[j + 1] = node[j];
  return out;
}

/** `node` without the child for `bit` (only reached if a child empties; the trie inlines earlier). */
export function removeChild(node: Inner, bit: number, owner: number): Inner {
  const len = node.length;
  const nodemap = node[NODEMAP] as number;
  const x = len - 1 - popcount(nodemap & (bit - 1));
  const out = new Array<unknown>(len - 1);
  out[DATAMAP] = node[DATAMAP];
  out[NODEMAP] = nodemap ^ bit;
  out[OWNER] = owner;
  for (let j = HEAD; j < x; j++) out[j] = node[j];
  for (let j = x + 1; j < len; j++) out[j - 1] = node[j];
  return out;
}

/** The node holding the two pairs `[k1, v1]` and `[k2, v2]` (hashes `h1`, `h2`) from level `shift` down. */
export function pairNode(
  shift: number,
  k1: string,
  v1: unknown,
  h1: number,
  k2: string,
  v2: unknown,
  h2: number,
  owner: number,
): HNode {
  if (h1 === h2) return new CollisionNode(h1, [k1, v1, k2, v2], owner);
  // Distinct hashes differ in some 5-bit chunk at shift <= 30, so `shift` never exceeds 30 here.
  const b1 = (h1 >>> shift) & MASK;
  const b2 = (h2 >>> shift) & MASK;
  if (b1 === b2) return [0, 1 << b1, owner, pairNode(shift + BITS, k1, v1, h1, k2, v2, h2, owner)];
  return b1 < b2
    ? [(1 << b1) | (1 << b2), 0, owner, k1, v1, k2, v2]
    : [(1 << b1) | (1 << b2), 0, owner, k2, v2, k1, v1];
}
