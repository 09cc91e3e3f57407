import { RxkubeError } from '../errors.js';
import { fnv1a64 } from './fnv1a64.js';

/** The end of the hash space: 2^64, the exclusive end of the last range. */
export const HASH_SPACE_END = 1n << 64n;

/**
 * A range `[start, end)` of the 64-bit FNV-1a hash space (KEP-5866's `shardRange`).
 *
 * @example
 * ```ts
 * const lowerHalf: ShardRange = { start: 0n, end: 1n << 63n };
 * ```
 */
export interface ShardRange {
  readonly start: bigint;
  readonly end: bigint;
}

/** The field a shard selector hashes; KEP-5866 starts with the uid. */
export type ShardField = 'object.metadata.uid' | 'object.metadata.namespace';

/**
 * `count` equal ranges covering the hash space, in order; the last ends at 2^64.
 *
 * @example
 * ```ts
 * equalShardRanges(2); // [{ start: 0n, end: 2n ** 63n }, { start: 2n ** 63n, end: 2n ** 64n }]
 * ```
 */
export function equalShardRanges(count: number): ShardRange[] {
  const n = BigInt(Math.max(1, Math.floor(count)));
  return Array.from({ length: Number(n) }, (_, i) => ({
    start: (BigInt(i) * HASH_SPACE_END) / n,
    end: (BigInt(i + 1) * HASH_SPACE_END) / n,
  }));
}

/**
 * The range of `self` among the live `members`: equal ranges over the members sorted by name, so
 * that every replica computes the same split. `undefined` when `self` is not a member.
 *
 * @example
 * ```ts
 * shardRangeOf('b', ['c', 'a', 'b']); // the middle third
 * ```
 */
export function shardRangeOf(self: string, members: ReadonlyArray<string>): ShardRange | undefined {
  const sorted = [...new Set(members)].sort();
  const i = sorted.indexOf(self);
  return i < 0 ? undefined : equalShardRanges(sorted.length)[i];
}

const hex = (n: bigint): string => `0x${n.toString(16).padStart(16, '0')}`;

/**
 * The shard selector string of ranges (`||` between them), as the `shardSelector` list/watch
 * parameter takes it.
 *
 * @example
 * ```ts
 * shardSelector([{ start: 0n, end: 1n << 63n }]);
 * // "shardRange(object.metadata.uid, '0x0000000000000000', '0x8000000000000000')"
 * ```
 */
export function shardSelector(ranges: ReadonlyArray<ShardRange>, field: ShardField = 'object.metadata.uid'): string {
  return ranges.map((r) => `shardRange(${field}, '${hex(r.start)}', '${hex(r.end)}')`).join(' || ');
}

/**
 * A parsed shard selector.
 *
 * @example
 * ```ts
 * const parsed: ParsedShardSelector = parseShardSelector("shardRange(object.metadata.uid, '0x0', '0x8000000000000000')");
 * ```
 */
export interface ParsedShardSelector {
  readonly field: ShardField;
  readonly ranges: ReadonlyArray<ShardRange>;
}

const RANGE = /^shardRange\(\s*(object\.metadata\.[a-z]+)\s*,\s*'(0x[0-9a-fA-F]{1,17})'\s*,\s*'(0x[0-9a-fA-F]{1,17})'\s*\)$/;

/**
 * Parses `shardRange(field, 'hexStart', 'hexEnd') [|| shardRange(...)]`: one field for all ranges,
 * `start < end <= 2^64`. Throws a `ShardSelectorError` (what a server answers with a 400) otherwise.
 *
 * @example
 * ```ts
 * parseShardSelector("shardRange(object.metadata.uid, '0x0', '0x8000000000000000')").ranges[0].end; // 2n ** 63n
 * ```
 */
export function parseShardSelector(selector: string): ParsedShardSelector {
  const fail = (why: string) => new RxkubeError('ShardSelectorError', `invalid shard selector ${JSON.stringify(selector)}: ${why}`);
  const parts = selector.split('||').map((p) => p.trim());
  let field: ShardField | undefined;
  const ranges: ShardRange[] = [];
  for (const part of parts) {
    const m = RANGE.exec(part);
    if (!m) throw fail(`expected shardRange(object.metadata.uid, '0x<start>', '0x<end>'), got ${JSON.stringify(part)}`);
    const f = m[1] as ShardField;
    if (f !== 'object.metadata.uid' && f !== 'object.metadata.namespace') throw fail(`unsupported field ${f}`);
    if (field !== undefined && field !== f) throw fail('all ranges must hash the same field');
    field = f;
    const start = BigInt(m[2]);
    const end = BigInt(m[3]);
    if (!(start < end) || end > HASH_SPACE_END) throw fail(`range [${m[2]}, ${m[3]}) is empty or beyond 0x10000000000000000`);
    ranges.push({ start, end });
  }
  return { field: field ?? 'object.metadata.uid', ranges };
}

/**
 * Whether a value (a uid) hashes into one of the ranges.
 *
 * @example
 * ```ts
 * inShardRanges('0b5c...', equalShardRanges(3).slice(0, 1));
 * ```
 */
export function inShardRanges(value: string, ranges: ReadonlyArray<ShardRange>): boolean {
  const h = fnv1a64(value);
  return ranges.some((r) => h >= r.start && h < r.end);
}
