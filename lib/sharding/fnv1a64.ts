const OFFSET = 0xcbf29ce484222325n;
const PRIME = 0x100000001b3n;
const MASK = 0xffffffffffffffffn;
const encoder = new TextEncoder();

/**
 * The 64-bit FNV-1a hash of a string's UTF-8 bytes: the hash kube-apiserver's shard selectors
 * (KEP-5866, `shardRange(object.metadata.uid, ...)`) place objects by.
 *
 * @example
 * ```ts
 * fnv1a64('');  // 0xcbf29ce484222325n
 * fnv1a64('a'); // 0xaf63dc4c8601ec8cn
 * ```
 */
export function fnv1a64(value: string): bigint {
  let h = OFFSET;
  for (const byte of encoder.encode(value)) h = ((h ^ BigInt(byte)) * PRIME) & MASK;
  return h;
}
