/**
 * A persistent (immutable, structure-sharing) hash map from string keys to values: a hash array
 * mapped trie (HAMT, Bagwell 2001) in the CHAMP layout (Steindorfer & Vinju 2015), with transient
 * in-place edits for batches (immutable.js `withMutations`, Clojure transients).
 *
 * Why: the store keeps one immutable snapshot per change. Copying a `Map` per event costs O(n); a
 * HAMT copies only the path from the root to the changed entry (at most 7 nodes of at most 32 slots),
 * so a change costs O(log32 n) and every earlier snapshot stays valid and unchanged.
 *
 * Layout, chosen for memory and for few pointer hops per level:
 * - an inner node is ONE plain array `[datamap, nodemap, owner, k0, v0, k1, v1, ..., childN, ..., child0]`:
 *   the two 32-bit bitmaps say which of the 32 hash slots hold an inline key/value pair and which
 *   hold a child node; pairs are packed in bit order after the header, children packed in reverse
 *   bit order at the end. No object per entry, no object besides the array per node, and every
 *   array has its exact length (inserts copy rather than grow in place, so no spare capacity);
 * - a {@link CollisionNode} holds the pairs of keys whose 32-bit hashes are all equal (rare).
 * The trie stays compact: a child left with a single pair is inlined into its parent.
 *
 * Transients: every node records the `owner` (a batch number, 0 for none) that created it. An edit
 * made with owner `o` changes in place the nodes whose owner is `o` (they were created by this same
 * batch and no published snapshot references them) and copies every other node. Once a batch ends,
 * its owner number is never used again, so published nodes are never changed.
 *
 * The parts: trieNode.ts (node layout), trieNodeEdits.ts (copy-or-in-place edits of one node, the
 * batch owners), trieIteration.ts (walks), hashString.ts; here the walks down the trie that get,
 * set and remove a key, and the map itself.
 *
 * Values must not be `undefined` (`get` uses `undefined` for "absent").
 *
 * @internal Not part of rxkube's public API.
 * @module
 */
import { hashString } from './hashString.js';
import { nodeEntries, nodeForEach } from './trieIteration.js';
import { BITS, CollisionNode, DATAMAP, HEAD, MASK, NODEMAP, popcount, type HNode, type Inner } from './trieNode.js';
import { childToPair, insertPair, pairNode, pairToChild, removeChild, removePair, withSlot } from './trieNodeEdits.js';

// Importers of the map also take the batch owners and the hash from here.
export { hashString } from './hashString.js';
export { newOwner } from './trieNodeEdits.js';

/**
 * Set by the last `nodeSet` / `nodeRemove` call: +1 if it added a key, -1 if it removed one, else 0
 * (so the map can track its size). A module variable rather than an object per call: nothing
 * re-enters these functions.
 */
let sizeDelta = 0;

/** Set by the last `nodeSet` call: the value the key had before (`undefined` if it was absent). */
let previous: unknown = undefined;

function nodeGet(root: HNode, hash: number, key: string): unknown {
  let node = root;
  let shift = 0;
  for (;;) {
    if (node instanceof CollisionNode) {
      if (node.hash !== hash) return undefined;
      const arr = node.arr;
      for (let i = 0; i < arr.length; i += 2) if (arr[i] === key) return arr[i + 1];
      return undefined;
    }
    const bit = 1 << ((hash >>> shift) & MASK);
    const datamap = node[DATAMAP] as number;
    if ((datamap & bit) !== 0) {
      const i = HEAD + 2 * popcount(datamap & (bit - 1));
      return node[i] === key ? node[i + 1] : undefined;
    }
    const nodemap = node[NODEMAP] as number;
    if ((nodemap & bit) === 0) return undefined;
    node = node[node.length - 1 - popcount(nodemap & (bit - 1))] as HNode;
    shift += BITS;
  }
}

function nodeSet(
  node: HNode,
  shift: number,
  hash: number,
  key: string,
  value: unknown,
  owner: number,
): HNode {
  if (node instanceof CollisionNode) {
    if (node.hash === hash) {
      const arr = node.arr;
      for (let i = 0; i < arr.length; i += 2) {
        if (arr[i] !== key) continue;
        previous = arr[i + 1];
        if (arr[i + 1] === value) return node;
        if (owner !== 0 && node.owner === owner) {
          arr[i + 1] = value;
          return node;
        }
        const next = arr.slice();
        next[i + 1] = value;
        return new CollisionNode(hash, next, owner);
      }
      sizeDelta = 1;
      return new CollisionNode(hash, [...arr, key, value], owner);
    }
    // A different hash reached a collision node: push the collision node one level down.
    const wrapper: Inner = [0, 1 << ((node.hash >>> shift) & MASK), owner, node];
    return nodeSet(wrapper, shift, hash, key, value, owner);
  }
  const bit = 1 << ((hash >>> shift) & MASK);
  const datamap = node[DATAMAP] as number;
  const i = HEAD + 2 * popcount(datamap & (bit - 1));
  if ((datamap & bit) !== 0) {
    const k = node[i] as string;
    if (k === key) {
      previous = node[i + 1];
      return previous === value ? node : withSlot(node, i + 1, value, owner);
    }
    sizeDelta = 1;
    const sub = pairNode(shift + BITS, k, node[i + 1], hashString(k), key, value, hash, owner);
    return pairToChild(node, bit, i, sub, owner);
  }
  const nodemap = node[NODEMAP] as number;
  if ((nodemap & bit) !== 0) {
    const x = node.length - 1 - popcount(nodemap & (bit - 1));
    const child = node[x] as HNode;
    const next = nodeSet(child, shift + BITS, hash, key, value, owner);
    return next === child ? node : withSlot(node, x, next, owner);
  }
  sizeDelta = 1;
  return insertPair(node, bit, i, key, value, owner);
}

/** The only pair of a node that holds exactly one pair and no child, else `undefined`. */
function onlyPair(node: HNode): [unknown, unknown] | undefined {
  if (node instanceof CollisionNode) return node.arr.length === 2 ? [node.arr[0], node.arr[1]] : undefined;
  return node.length === HEAD + 2 && node[NODEMAP] === 0 ? [node[HEAD], node[HEAD + 1]] : undefined;
}

/** Returns the node without `key`, the same node when `key` is absent, `undefined` when emptied. */
function nodeRemove(node: HNode, shift: number, hash: number, key: string, owner: number): HNode | undefined {
  if (node instanceof CollisionNode) {
    if (node.hash !== hash) return node;
    const arr = node.arr;
    for (let i = 0; i < arr.length; i += 2) {
      if (arr[i] !== key) continue;
      sizeDelta = -1;
      if (arr.length === 2) return undefined;
      const next = arr.slice();
      next.splice(i, 2);
      return new CollisionNode(hash, next, owner);
    }
    return node;
  }
  const bit = 1 << ((hash >>> shift) & MASK);
  const datamap = node[DATAMAP] as number;
  if ((datamap & bit) !== 0) {
    const i = HEAD + 2 * popcount(datamap & (bit - 1));
    if (node[i] !== key) return node;
    sizeDelta = -1;
    if (node.length === HEAD + 2) return undefined;
    return removePair(node, bit, i, owner);
  }
  const nodemap = node[NODEMAP] as number;
  if ((nodemap & bit) === 0) return node;
  const x = node.length - 1 - popcount(nodemap & (bit - 1));
  const child = node[x] as HNode;
  const next = nodeRemove(child, shift + BITS, hash, key, owner);
  if (next === child) return node;
  if (next === undefined) return node.length === HEAD + 1 ? undefined : removeChild(node, bit, owner);
  // Keep the trie compact: a child left with one pair is inlined here.
  const pair = onlyPair(next);
  if (pair !== undefined) return childToPair(node, bit, pair[0], pair[1], owner);
  return withSlot(node, x, next, owner);
}

/**
 * An immutable map from strings to values. `set` and `delete` return a new map that shares all but
 * O(log32 n) nodes with this one; this one is never changed, except by edits that pass the owner
 * number of the batch that created its nodes (see the module comment).
 *
 * @internal
 */
export class PersistentMap<V> {
  private static readonly EMPTY = new PersistentMap<never>(undefined, 0);

  private constructor(
    private readonly root: HNode | undefined,
    /** The number of entries. */
    readonly size: number,
  ) {}

  /** The empty map (shared). */
  static empty<V>(): PersistentMap<V> {
    return PersistentMap.EMPTY;
  }

  /** The value for `key`, or `undefined`. O(log32 n). */
  get(key: string): V | undefined {
    return this.root === undefined ? undefined : (nodeGet(this.root, hashString(key), key) as V | undefined);
  }

  /** Whether `key` is present. */
  has(key: string): boolean {
    return this.get(key) !== undefined;
  }

  /**
   * A map with `key` set to `value` (not `undefined`). Returns this map when nothing changes.
   * With `owner` (from {@link newOwner}), nodes created under the same owner are edited in place.
   * Afterwards {@link replacedValue} tells what the key held before.
   */
  set(key: string, value: V, owner = 0): PersistentMap<V> {
    const hash = hashString(key);
    previous = undefined;
    if (this.root === undefined) {
      return new PersistentMap<V>([1 << (hash & MASK), 0, owner, key, value], 1);
    }
    sizeDelta = 0;
    const root = nodeSet(this.root, 0, hash, key, value, owner);
    if (root === this.root && sizeDelta === 0) return this;
    return new PersistentMap<V>(root, this.size + sizeDelta);
  }

  /**
   * The value that the last {@link set} (on any map) found for its key, `undefined` if the key was
   * new: an upsert in one walk down the trie instead of a `get` and then a `set`. Reading it clears
   * it.
   */
  static replacedValue<V>(): V | undefined {
    const value = previous as V | undefined;
    previous = undefined; // read once: the module must not keep the last replaced object alive
    return value;
  }

  /** A map without `key`. Returns this map when `key` is absent. `owner` as for {@link set}. */
  delete(key: string, owner = 0): PersistentMap<V> {
    if (this.root === undefined) return this;
    sizeDelta = 0;
    const root = nodeRemove(this.root, 0, hashString(key), key, owner);
    if (sizeDelta === 0) return this;
    return root === undefined ? PersistentMap.EMPTY : new PersistentMap<V>(root, this.size - 1);
  }

  /** Calls `fn` for every entry, in hash order. */
  forEach(fn: (value: V, key: string) => void): void {
    if (this.root !== undefined) nodeForEach(this.root, fn);
  }

  /** Every key, in hash order. O(n). */
  keys(): string[] {
    const out = new Array<string>(this.size);
    let i = 0;
    this.forEach((_v, k) => {
      out[i++] = k;
    });
    return out;
  }

  /** Every value, in hash order. O(n). */
  values(): V[] {
    const out = new Array<V>(this.size);
    let i = 0;
    this.forEach((v) => {
      out[i++] = v;
    });
    return out;
  }

  /** Iterates `[key, value]` pairs, in hash order. */
  *[Symbol.iterator](): Generator<[string, V]> {
    if (this.root !== undefined) yield* nodeEntries<V>(this.root);
  }
}
