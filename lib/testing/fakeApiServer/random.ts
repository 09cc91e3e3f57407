/**
 * A seeded pseudo-random source (mulberry32): every random choice of the fake API server (uids,
 * generateName suffixes, watch timeouts, seeded pods, probabilistic faults) comes from it, so a run
 * is reproducible from its seed.
 *
 * @example
 * ```ts
 * const rng = seededRandom(42);
 * rng.uuid(); // the same on every run with seed 42
 * ```
 */
export interface Random {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [0, n). */
  int(n: number): number;
  /** A version-4-shaped UUID. */
  uuid(): string;
}

/**
 * Creates a {@link Random} from a 32-bit seed.
 *
 * @example
 * ```ts
 * seededRandom(1).int(10);
 * ```
 */
export function seededRandom(seed: number): Random {
  let a = seed >>> 0;
  const next = (): number => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const hex = (n: number): string => {
    let s = '';
    for (let i = 0; i < n; i++) s += Math.floor(next() * 16).toString(16);
    return s;
  };
  return {
    next,
    int: (n) => Math.floor(next() * n),
    uuid: () => `${hex(8)}-${hex(4)}-4${hex(3)}-${'89ab'[Math.floor(next() * 4)]}${hex(3)}-${hex(12)}`,
  };
}
