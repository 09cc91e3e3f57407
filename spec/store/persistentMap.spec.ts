import { describe, expect, it } from '@jest/globals';
import { hashString, newOwner, PersistentMap } from '../../lib/store/persistentMap.js';
import { seededRandom } from '../../lib/testing/fakeApiServer/random.js';
import { expectEqual } from '../support/expectEqual.js';

/** A seeded float source (rxkube/testing's mulberry32), so every run does the same operations. */
const prng = (seed: number): (() => number) => seededRandom(seed).next;

function contents<V>(m: PersistentMap<V>): Array<[string, V]> {
  return [...m].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

function sorted<V>(m: Map<string, V>): Array<[string, V]> {
  return [...m].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/** Keys made of "Aa"/"BB" blocks all have the same 32-bit hash (31*'A'+'a' === 31*'B'+'B'). */
function collidingKeys(blocks: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < 1 << blocks; i++) {
    let s = '';
    for (let b = 0; b < blocks; b++) s += (i >> b) & 1 ? 'BB' : 'Aa';
    out.push(s);
  }
  return out;
}

describe('PersistentMap (HAMT)', () => {
  it('matches a plain Map over 20,000 seeded random sets and deletes, and every kept version stays as it was', () => {
    const rand = prng(42);
    let map = PersistentMap.empty<number>();
    const model = new Map<string, number>();
    const versions: Array<{ map: PersistentMap<number>; expected: Array<[string, number]> }> = [];
    let mismatches = 0;
    for (let op = 0; op < 20_000; op++) {
      const key = `ns-${Math.floor(rand() * 7)}/pod-${Math.floor(rand() * 1500)}`;
      if (rand() < 0.6) {
        const value = Math.floor(rand() * 1000);
        map = map.set(key, value);
        model.set(key, value);
      } else {
        map = map.delete(key);
        model.delete(key);
      }
      if (map.get(key) !== model.get(key)) mismatches++;
      if (op % 2000 === 1999) {
        expect(map.size).toBe(model.size);
        expectEqual(contents(map), sorted(model));
        versions.push({ map, expected: sorted(model) });
      }
    }
    expect(mismatches).toBe(0);
    for (const v of versions) {
      expect(v.map.size).toBe(v.expected.length);
      expectEqual(contents(v.map), v.expected);
    }
  });

  it('matches a plain Map when seeded random batches edit in place (transient owner), and leaves the pre-batch version intact', () => {
    const rand = prng(7);
    let map = PersistentMap.empty<number>();
    const model = new Map<string, number>();
    for (let batch = 0; batch < 40; batch++) {
      const before = map;
      const beforeContents = sorted(model);
      const owner = newOwner();
      for (let op = 0; op < 300; op++) {
        const key = `k${Math.floor(rand() * 2000)}`;
        if (rand() < 0.65) {
          const value = Math.floor(rand() * 1000);
          map = map.set(key, value, owner);
          model.set(key, value);
        } else {
          map = map.delete(key, owner);
          model.delete(key);
        }
      }
      expect(map.size).toBe(model.size);
      expectEqual(contents(map), sorted(model));
      expectEqual(contents(before), beforeContents);
      expect(before.size).toBe(beforeContents.length);
    }
  });

  it('keeps keys whose full hashes collide apart, through sets, updates and deletes', () => {
    const keys = collidingKeys(4);
    expect(new Set(keys.map(hashString)).size).toBe(1);
    let map = PersistentMap.empty<string>();
    const others = Array.from({ length: 200 }, (_, i) => `other-${i}`);
    for (const k of [...keys, ...others]) map = map.set(k, `v-${k}`);
    expect(map.size).toBe(keys.length + others.length);
    for (const k of keys) expect(map.get(k)).toBe(`v-${k}`);
    const withUpdate = map.set(keys[3], 'changed');
    expect(withUpdate.get(keys[3])).toBe('changed');
    expect(map.get(keys[3])).toBe(`v-${keys[3]}`);
    let shrinking = withUpdate;
    for (const k of keys.slice(0, -1)) shrinking = shrinking.delete(k);
    expect(shrinking.size).toBe(1 + others.length);
    expect(shrinking.get(keys[keys.length - 1])).toBe(`v-${keys[keys.length - 1]}`);
    for (const k of keys.slice(0, -1)) expect(shrinking.get(k)).toBeUndefined();
    for (const k of others) expect(shrinking.get(k)).toBe(`v-${k}`);
    expect(map.size).toBe(keys.length + others.length);
  });

  it('returns the same map for a no-op set or a delete of an absent key, and the shared empty map when emptied', () => {
    const a = PersistentMap.empty<number>().set('x', 1).set('y', 2);
    expect(a.set('x', 1)).toBe(a);
    expect(a.delete('absent')).toBe(a);
    expect(a.delete('x').delete('y')).toBe(PersistentMap.empty<number>());
    expect(a.has('x')).toBe(true);
    expect(a.has('z')).toBe(false);
  });

  it('a set copies only the path to the entry: every other subtree is shared with the previous version', () => {
    let m = PersistentMap.empty<number>();
    for (let i = 0; i < 10_000; i++) m = m.set(`ns-${i % 50}/pod-${i}`, i);
    const next = m.set('ns-7/pod-7', -1);
    const rootOf = (x: PersistentMap<number>) => (x as unknown as { root: unknown[] }).root;
    const before = rootOf(m);
    const after = rootOf(next);
    expect(after).not.toBe(before);
    expect(after).toHaveLength(before.length);
    const children = (node: unknown[]) =>
      node.filter((x) => Array.isArray(x) || (typeof x === 'object' && x !== null));
    const shared = children(after).filter((c) => children(before).includes(c));
    // 10,000 keys fill all 32 root slots with subtrees; exactly one of them was copied.
    expect(children(before)).toHaveLength(32);
    expect(shared).toHaveLength(31);
    expect(m.get('ns-7/pod-7')).toBe(7);
  });

  it('lists keys and values of the same entries', () => {
    let m = PersistentMap.empty<string>();
    for (let i = 0; i < 500; i++) m = m.set(`key-${i}`, `val-${i}`);
    const keys = m.keys();
    const values = m.values();
    expect(keys).toHaveLength(500);
    expect(values.map((v) => v.replace('val', 'key'))).toEqual(keys);
  });
});
