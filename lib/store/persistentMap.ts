/**
 * A persistent (immutable, structure-sharing) hash map from string keys to values: a hash array
 * mapped trie (HAMT, Bagwell 2001, laid out as Clojure's `PersistentHashMap`), with transient
 * in-place edits for batches (immutable.js `withMutations`, Clojure transients).
 *
 * Why: the store keeps one immutable snapshot per change. Copying a `Map` per event costs O(n); a
 * HAMT copies only the path from the root to the changed entry (at most 7 nodes of at most 32 slots),
 * so a change costs O(log32 n) and every earlier snapshot stays valid and unchanged.
 *
 * Layout, chosen to keep memory lean (no wrapper object per entry):
 * - a {@link BitmapNode} holds a 32-bit `bitmap` and a packed array of pairs `[key, value, ...]`, one
 *   pair per set bit, in bit order; a pair whose key is `null` holds a child node as its value;
 * - a {@link CollisionNode} holds the pairs of keys whose 32-bit hashes are all equal.
 *
 * Transients: every node records the `owner` (a batch number, 0 for none) that created it. An edit
 * made with owner `o` changes in place the nodes whose owner is `o` (they were created by this same
 * batch and no published snapshot references them) and copies every other node. Once a batch ends,
 * its owner number is never used again, so published nodes are never changed.
 *
 * Values must not be `undefined` (`get` uses `undefined` for "absent").
 *
 * @internal Not part of rxkube's public API.
 * @module
 */

const BITS = 5;
const MASK = 31;

/** Batch owner numbers: 0 means "no owner" (every edit copies). */
let lastOwner = 0;

/** A fresh owner number for one batch of in-place edits. */
export function newOwner(): number {
  lastOwner += 1;
  return lastOwner;
}

/**
 * A 32-bit hash of a string: the `s[0]*31^(n-1) + ...` polynomial (as Java's `String.hashCode`,
 * cheap and incremental) followed by murmur3's finaliser so that keys differing in their last
 * characters spread over the whole trie. The finaliser is a bijection: equal polynomial hashes stay
 * equal (the tests use this to force collisions, e.g. `"Aa"` and `"BB"`).
 */
export function hashString(s: string): number {
  let h = 0;
  for (let i = 0; i < s.length; i++) h = (Math.imul(h, 31) + s.charCodeAt(i)) | 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  x = (x + (x >>> 4)) & 0x0f0f0f0f;
  return Math.imul(x, 0x01010101) >>> 24;
}

/** An inner node: `arr` holds one `[key, value]` or `[null, child]` pair per set bit of `bitmap`. */
class BitmapNode {
  constructor(
    public bitmap: number,
    public arr: unknown[],
    public owner: number,
  ) {}
}

/** A node for keys whose full 32-bit hashes are equal: `arr` holds `[key, value, ...]`. */
class CollisionNode {
  constructor(
    public hash: number,
    public arr: unknown[],
    public owner: number,
  ) {}
}

type HNode = BitmapNode | CollisionNode;

/** Reports whether a set added a key or a delete removed one (so the map can track its size). */
interface SizeChange {
  delta: number;
}

function editable(node: HNode, owner: number): boolean {
  return owner !== 0 && node.owner === owner;
}

/** `node` with `arr[i] = value`, in place when the owner allows. */
function withSlot<N extends HNode>(node: N, i: number, value: unknown, owner: number): N {
  if (editable(node, owner)) {
    node.arr[i] = value;
    return node;
  }
  const arr = node.arr.slice();
  arr[i] = value;
  return (
    node instanceof BitmapNode
      ? new BitmapNode(node.bitmap, arr, owner)
      : new CollisionNode(node.hash, arr, owner)
  ) as N;
}

/** `node` with the pair at `i` replaced by `[k, v]`. */
function withPair(node: BitmapNode, i: number, k: unknown, v: unknown, owner: number): BitmapNode {
  if (editable(node, owner)) {
    node.arr[i] = k;
    node.arr[i + 1] = v;
    return node;
  }
  const arr = node.arr.slice();
  arr[i] = k;
  arr[i + 1] = v;
  return new BitmapNode(node.bitmap, arr, owner);
}

/** `node` with the pair at `i` (for `bit`) removed. */
function withoutPair(node: BitmapNode, bit: number, i: number, owner: number): BitmapNode {
  if (editable(node, owner)) {
    node.arr.splice(i, 2);
    node.bitmap ^= bit;
    return node;
  }
  const src = node.arr;
  const arr = new Array<unknown>(src.length - 2);
  for (let j = 0; j < i; j++) arr[j] = src[j];
  for (let j = i + 2; j < src.length; j++) arr[j - 2] = src[j];
  return new BitmapNode(node.bitmap ^ bit, arr, owner);
}

function pairNode(
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
  if (b1 === b2)
    return new BitmapNode(1 << b1, [null, pairNode(shift + BITS, k1, v1, h1, k2, v2, h2, owner)], owner);
  const bitmap = (1 << b1) | (1 << b2);
  return new BitmapNode(bitmap, b1 < b2 ? [k1, v1, k2, v2] : [k2, v2, k1, v1], owner);
}

function nodeGet(root: HNode, hash: number, key: string): unknown {
  let node = root;
  let shift = 0;
  for (;;) {
    if (node instanceof BitmapNode) {
      const bit = 1 << ((hash >>> shift) & MASK);
      if ((node.bitmap & bit) === 0) return undefined;
      const i = 2 * popcount(node.bitmap & (bit - 1));
      const k = node.arr[i];
      if (k === null) {
        node = node.arr[i + 1] as HNode;
        shift += BITS;
        continue;
      }
      return k === key ? node.arr[i + 1] : undefined;
    }
    if (node.hash !== hash) return undefined;
    const arr = node.arr;
    for (let i = 0; i < arr.length; i += 2) if (arr[i] === key) return arr[i + 1];
    return undefined;
  }
}

function nodeSet(
  node: HNode,
  shift: number,
  hash: number,
  key: string,
  value: unknown,
  owner: number,
  change: SizeChange,
): HNode {
  if (node instanceof BitmapNode) {
    const bit = 1 << ((hash >>> shift) & MASK);
    const i = 2 * popcount(node.bitmap & (bit - 1));
    if ((node.bitmap & bit) !== 0) {
      const k = node.arr[i];
      const v = node.arr[i + 1];
      if (k === null) {
        const child = v as HNode;
        const next = nodeSet(child, shift + BITS, hash, key, value, owner, change);
        return next === child ? node : withSlot(node, i + 1, next, owner);
      }
      if (k === key) return v === value ? node : withSlot(node, i + 1, value, owner);
      change.delta = 1;
      const sub = pairNode(shift + BITS, k as string, v, hashString(k as string), key, value, hash, owner);
      return withPair(node, i, null, sub, owner);
    }
    change.delta = 1;
    if (editable(node, owner)) {
      node.arr.splice(i, 0, key, value);
      node.bitmap |= bit;
      return node;
    }
    const src = node.arr;
    const arr = new Array<unknown>(src.length + 2);
    for (let j = 0; j < i; j++) arr[j] = src[j];
    arr[i] = key;
    arr[i + 1] = value;
    for (let j = i; j < src.length; j++) arr[j + 2] = src[j];
    return new BitmapNode(node.bitmap | bit, arr, owner);
  }
  if (node.hash === hash) {
    const arr = node.arr;
    for (let i = 0; i < arr.length; i += 2) {
      if (arr[i] === key) return arr[i + 1] === value ? node : withSlot(node, i + 1, value, owner);
    }
    change.delta = 1;
    if (editable(node, owner)) {
      arr.push(key, value);
      return node;
    }
    return new CollisionNode(hash, [...arr, key, value], owner);
  }
  // A different hash reached a collision node: push the collision node one level down.
  const wrapper = new BitmapNode(1 << ((node.hash >>> shift) & MASK), [null, node], owner);
  return nodeSet(wrapper, shift, hash, key, value, owner, change);
}

/** A node that holds a single key/value pair can be inlined into its parent. */
function singlePair(node: HNode): boolean {
  return node.arr.length === 2 && node.arr[0] !== null;
}

/** Returns the node without `key`, the same node when `key` is absent, `undefined` when emptied. */
function nodeRemove(
  node: HNode,
  shift: number,
  hash: number,
  key: string,
  owner: number,
  change: SizeChange,
): HNode | undefined {
  if (node instanceof BitmapNode) {
    const bit = 1 << ((hash >>> shift) & MASK);
    if ((node.bitmap & bit) === 0) return node;
    const i = 2 * popcount(node.bitmap & (bit - 1));
    const k = node.arr[i];
    if (k === null) {
      const child = node.arr[i + 1] as HNode;
      const next = nodeRemove(child, shift + BITS, hash, key, owner, change);
      if (next === child) return node;
      if (next === undefined) return node.bitmap === bit ? undefined : withoutPair(node, bit, i, owner);
      // Keep the trie canonical: a child left with one pair is inlined here.
      if (singlePair(next)) return withPair(node, i, next.arr[0], next.arr[1], owner);
      return withSlot(node, i + 1, next, owner);
    }
    if (k !== key) return node;
    change.delta = -1;
    return node.bitmap === bit ? undefined : withoutPair(node, bit, i, owner);
  }
  if (node.hash !== hash) return node;
  const arr = node.arr;
  for (let i = 0; i < arr.length; i += 2) {
    if (arr[i] !== key) continue;
    change.delta = -1;
    if (arr.length === 2) return undefined;
    if (editable(node, owner)) {
      arr.splice(i, 2);
      return node;
    }
    const next = arr.slice();
    next.splice(i, 2);
    return new CollisionNode(hash, next, owner);
  }
  return node;
}

function nodeForEach<V>(node: HNode, fn: (value: V, key: string) => void): void {
  const arr = node.arr;
  for (let i = 0; i < arr.length; i += 2) {
    const k = arr[i];
    if (k === null) nodeForEach(arr[i + 1] as HNode, fn);
    else fn(arr[i + 1] as V, k as string);
  }
}

function* nodeEntries<V>(node: HNode): Generator<[string, V]> {
  const arr = node.arr;
  for (let i = 0; i < arr.length; i += 2) {
    const k = arr[i];
    if (k === null) yield* nodeEntries<V>(arr[i + 1] as HNode);
    else yield [k as string, arr[i + 1] as V];
  }
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
   */
  set(key: string, value: V, owner = 0): PersistentMap<V> {
    const hash = hashString(key);
    if (this.root === undefined) {
      return new PersistentMap<V>(new BitmapNode(1 << (hash & MASK), [key, value], owner), 1);
    }
    const change: SizeChange = { delta: 0 };
    const root = nodeSet(this.root, 0, hash, key, value, owner, change);
    if (root === this.root && change.delta === 0) return this;
    return new PersistentMap<V>(root, this.size + change.delta);
  }

  /** A map without `key`. Returns this map when `key` is absent. `owner` as for {@link set}. */
  delete(key: string, owner = 0): PersistentMap<V> {
    if (this.root === undefined) return this;
    const change: SizeChange = { delta: 0 };
    const root = nodeRemove(this.root, 0, hashString(key), key, owner, change);
    if (change.delta === 0) return this;
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
