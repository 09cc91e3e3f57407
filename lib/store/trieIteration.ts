/**
 * Walks over every entry of a `PersistentMap` trie, in hash order.
 *
 * @internal Not part of rxkube's public API.
 * @module
 */
import { CollisionNode, DATAMAP, HEAD, popcount, type HNode } from './trieNode.js';

/** Calls `fn` for every entry below `node`. */
export function nodeForEach<V>(node: HNode, fn: (value: V, key: string) => void): void {
  if (node instanceof CollisionNode) {
    const arr = node.arr;
    for (let i = 0; i < arr.length; i += 2) fn(arr[i + 1] as V, arr[i] as string);
    return;
  }
  const end = HEAD + 2 * popcount(node[DATAMAP] as number);
  for (let i = HEAD; i < end; i += 2) fn(node[i + 1] as V, node[i] as string);
  for (let i = end; i < node.length; i++) nodeForEach(node[i] as HNode, fn);
}

/** Yields every `[key, value]` pair below `node`. */
export function* nodeEntries<V>(node: HNode): Generator<[string, V]> {
  if (node instanceof CollisionNode) {
    for (let i = 0; i < node.arr.length; i += 2) yield [node.arr[i] as string, node.arr[i + 1] as V];
    return;
  }
  const end = HEAD + 2 * popcount(node[DATAMAP] as number);
  for (let i = HEAD; i < end; i += 2) yield [node[i] as string, node[i + 1] as V];
  for (let i = end; i < node.length; i++) yield* nodeEntries<V>(node[i] as HNode);
}
