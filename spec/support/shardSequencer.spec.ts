// npm test's shards (scripts/test.mjs): every test file runs in exactly one shard, the shards are
// balanced by duration, and their jest reports merge into one.
import { describe, expect, it, afterEach } from '@jest/globals';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ShardSequencer, { balance } from './shardSequencer.mjs';
import { mergeReports } from '../../scripts/testReport.mjs';

const root = '/repo';
const test = (name: string) => ({ path: `${root}/${name}`, context: { config: { rootDir: root } } });

describe('balance (longest first, to the lightest shard)', () => {
  it('puts each test in one shard and evens out the load', () => {
    const weights: Record<string, number> = { a: 10, b: 9, c: 4, d: 3, e: 2, f: 1, g: 1 };
    const tests = Object.keys(weights).map((k) => ({ path: k }));
    const { shards, load } = balance(tests, 2, (t) => weights[t.path]);
    expect(shards.flat().map((t) => t.path).sort()).toEqual(Object.keys(weights));
    expect(load).toEqual([15, 15]);
  });

  it('gives the same partition whatever order the tests come in', () => {
    const tests = Array.from({ length: 40 }, (_, i) => ({ path: `f${i}`, w: (i * 37) % 11 }));
    const a = balance(tests, 3, (t) => t.w).shards.map((s) => s.map((t) => t.path));
    const b = balance([...tests].reverse(), 3, (t) => t.w).shards.map((s) => s.map((t) => t.path));
    expect(b).toEqual(a);
  });
});

describe('ShardSequencer.shard', () => {
  const saved = { weights: process.env.RXKUBE_SPEC_WEIGHTS, plans: process.env.RXKUBE_SHARD_PLANS };
  let dir = '';
  afterEach(() => {
    process.env.RXKUBE_SPEC_WEIGHTS = saved.weights;
    process.env.RXKUBE_SHARD_PLANS = saved.plans;
    if (saved.weights === undefined) delete process.env.RXKUBE_SPEC_WEIGHTS;
    if (saved.plans === undefined) delete process.env.RXKUBE_SHARD_PLANS;
    rmSync(dir, { recursive: true, force: true });
  });

  it('splits by the recorded times, and each shard writes the plan the runner checks', () => {
    dir = mkdtempSync(join(tmpdir(), 'rxkube-shards-'));
    writeFileSync(join(dir, 'weights.json'), JSON.stringify({ 'spec/slow.spec.ts': 9000, 'spec/a.spec.ts': 3000, 'spec/b.spec.ts': 3000, 'spec/c.spec.ts': 3000 }));
    process.env.RXKUBE_SPEC_WEIGHTS = join(dir, 'weights.json');
    process.env.RXKUBE_SHARD_PLANS = dir;
    const tests = ['spec/a.spec.ts', 'spec/slow.spec.ts', 'spec/b.spec.ts', 'spec/c.spec.ts'].map(test);
    const seq = new ShardSequencer();
    const one = seq.shard(tests, { shardIndex: 1, shardCount: 2 }).map((t) => t.path);
    const two = seq.shard(tests, { shardIndex: 2, shardCount: 2 }).map((t) => t.path);
    expect(one).toEqual([`${root}/spec/slow.spec.ts`]);
    expect(two.sort()).toEqual([`${root}/spec/a.spec.ts`, `${root}/spec/b.spec.ts`, `${root}/spec/c.spec.ts`]);
    const plan = JSON.parse(readFileSync(join(dir, 'plan-2.json'), 'utf8'));
    expect(plan).toMatchObject({ shardIndex: 2, shardCount: 2, estimatedMs: 9000 });
    expect(plan.all).toHaveLength(4);
  });

  it('weighs a file with no recorded time by its size, so no file is left out', () => {
    dir = mkdtempSync(join(tmpdir(), 'rxkube-shards-'));
    writeFileSync(join(dir, 'big.spec.ts'), 'x'.repeat(50_000));
    writeFileSync(join(dir, 'small.spec.ts'), 'x');
    delete process.env.RXKUBE_SPEC_WEIGHTS;
    delete process.env.RXKUBE_SHARD_PLANS;
    const tests = ['big.spec.ts', 'small.spec.ts', 'gone.spec.ts'].map((f) => ({ path: join(dir, f), context: { config: { rootDir: dir } } }));
    const seq = new ShardSequencer();
    const shards = [1, 2].map((shardIndex) => seq.shard(tests, { shardIndex, shardCount: 2 }).map((t) => t.path));
    expect(shards[0]).toEqual([join(dir, 'big.spec.ts')]);
    expect(shards[1].sort()).toEqual([join(dir, 'gone.spec.ts'), join(dir, 'small.spec.ts')]);
  });
});

describe('mergeReports', () => {
  const report = (passed: number, failed: number, name: string) => ({
    success: failed === 0,
    startTime: 1000 + passed,
    numTotalTests: passed + failed,
    numPassedTests: passed,
    numFailedTests: failed,
    numTotalTestSuites: 1,
    testResults: [{ name, startTime: 0, endTime: 1 }],
    snapshot: { total: 1, didUpdate: false, filesAdded: 0 },
  });

  it('adds the counts, keeps every file and fails if any shard failed', () => {
    const merged = mergeReports([report(5, 0, 'a'), report(3, 1, 'b')]);
    expect(merged).toMatchObject({ success: false, startTime: 1003, numTotalTests: 9, numPassedTests: 8, numFailedTests: 1, numTotalTestSuites: 2 });
    expect(merged.testResults?.map((t) => t.name)).toEqual(['a', 'b']);
    expect(merged.snapshot).toEqual({ total: 2, didUpdate: false, filesAdded: 0 });
  });

  it('is a success only when every shard is, and never with no shard', () => {
    expect(mergeReports([report(2, 0, 'a'), report(1, 0, 'b')]).success).toBe(true);
    expect(mergeReports([]).success).toBe(false);
  });
});
