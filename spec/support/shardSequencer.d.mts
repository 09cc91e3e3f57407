// Types for spec/support/shardSequencer.mjs (a plain module: jest loads it before any transform).
export interface ShardableTest {
  path: string;
  context: { config: { rootDir: string } };
}
export function balance<T extends { path: string }>(tests: T[], shardCount: number, weightOf: (test: T) => number): { shards: T[][]; load: number[] };
export default class ShardSequencer {
  shard<T extends ShardableTest>(tests: T[], options: { shardIndex: number; shardCount: number }): T[];
}
