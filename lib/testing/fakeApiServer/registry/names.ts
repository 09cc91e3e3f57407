import type { Random } from '../random.js';

// generateName (AS storage/names; APISERVER.md §5, PIPELINE.md §3): the prefix cut to 58
// characters and five random characters from kube's alphabet; a name taken is tried again, 8 times.

const GENERATE_CHARS = 'bcdfghjklmnpqrstvwxz2456789';
const TRIES = 8;

/**
 * A name from `prefix` that `taken` says is free, or undefined after 8 tries (kube's 409
 * "the server was not able to generate a unique name for the object").
 *
 * @example
 * ```ts
 * generateName('web-', rng, () => false); // 'web-x7k2p'
 * ```
 */
export function generateName(prefix: string, rng: Random, taken: (name: string) => boolean): string | undefined {
  for (let attempt = 0; attempt < TRIES; attempt++) {
    let suffix = '';
    for (let i = 0; i < 5; i++) suffix += GENERATE_CHARS[rng.int(GENERATE_CHARS.length)];
    const name = `${prefix.slice(0, 58)}${suffix}`;
    if (!taken(name)) return name;
  }
  return undefined;
}
