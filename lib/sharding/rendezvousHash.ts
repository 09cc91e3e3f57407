import { fmix32 } from '../meta/fmix32.js';

/**
 * A 32-bit hash of a string (FNV-1a over UTF-16 code units, then murmur3's finaliser so that
 * similar strings spread). Stable across processes and platforms: every replica computes the same.
 *
 * @example
 * ```ts
 * hash32('default/a') === hash32('default/a'); // true, on every replica
 * ```
 */
export function hash32(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return fmix32(h);
}

/**
 * Rendezvous (highest-random-weight) hashing: the member whose hash with the key is highest owns
 * it (ties go to the smaller identity). When a member leaves, only its keys move (spread over the
 * others); when one joins, it takes about 1/n of each other's keys. `undefined` with no members.
 *
 * @example
 * ```ts
 * rendezvousOwner('default/web', ['replica-a', 'replica-b', 'replica-c']); // e.g. 'replica-b', on every replica
 * ```
 */
export function rendezvousOwner(key: string, members: ReadonlyArray<string>): string | undefined {
  let best: string | undefined;
  let bestWeight = -1;
  for (const m of members) {
    const w = hash32(`${m}\u0000${key}`);
    if (w > bestWeight || (w === bestWeight && best !== undefined && m < best)) {
      best = m;
      bestWeight = w;
    }
  }
  return best;
}
