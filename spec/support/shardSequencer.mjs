// Jest's test sequencer, with shards balanced by duration instead of by a hash of the path.
//
// scripts/test.mjs runs the suite as N in-band jest processes side by side (`--detectOpenHandles`
// keeps each one in band), each with `--shard=i/N`. Every shard process must compute the same
// partition, so the weights come from one file the runner writes before it starts them
// (RXKUBE_SPEC_WEIGHTS: test path -> milliseconds, from earlier runs); a file with no recorded time
// weighs its size, scaled up for the kinds of spec that start servers and child processes. Each
// shard writes the plan it computed to RXKUBE_SHARD_PLANS so the runner can check that the shards
// together ran every test file exactly once.
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import process from 'node:process';
import Sequencer from '@jest/test-sequencer';

const Base = Sequencer.default ?? Sequencer;

// Milliseconds per byte of spec source, for a file with no recorded time (fitted to the suite's own
// times: e2e, kubectl, auth and example specs run servers, clients and processes).
const MS_PER_BYTE = 0.17;
const SLOW_KIND = /e2e|examples\/|kubectl|auth\/|bin\./;

function readWeights() {
  const file = process.env.RXKUBE_SPEC_WEIGHTS;
  if (!file) return {};
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return {};
  }
}

/** Longest-processing-time-first: each test, heaviest first, goes to the lightest shard so far. */
export function balance(tests, shardCount, weightOf) {
  const load = Array.from({ length: shardCount }, () => 0);
  const shards = Array.from({ length: shardCount }, () => []);
  const byWeight = tests
    .map((test) => ({ test, weight: weightOf(test) }))
    .sort((a, b) => b.weight - a.weight || (a.test.path < b.test.path ? -1 : a.test.path > b.test.path ? 1 : 0));
  for (const { test, weight } of byWeight) {
    let lightest = 0;
    for (let i = 1; i < shardCount; i++) if (load[i] < load[lightest]) lightest = i;
    load[lightest] += weight;
    shards[lightest].push(test);
  }
  return { shards, load };
}

export default class ShardSequencer extends Base {
  shard(tests, { shardIndex, shardCount }) {
    const weights = readWeights();
    const weightOf = (test) => {
      const rel = relative(test.context.config.rootDir, test.path);
      const recorded = weights[rel];
      if (typeof recorded === 'number' && recorded >= 0) return recorded;
      let size = 0;
      try {
        size = statSync(test.path).size;
      } catch {
        // a file that vanished weighs nothing; jest reports it
      }
      return size * MS_PER_BYTE * (SLOW_KIND.test(rel) ? 3 : 1);
    };
    const { shards, load } = balance(tests, shardCount, weightOf);
    const mine = shards[shardIndex - 1];
    const plans = process.env.RXKUBE_SHARD_PLANS;
    if (plans) {
      writeFileSync(
        join(plans, `plan-${shardIndex}.json`),
        JSON.stringify({ shardIndex, shardCount, all: tests.map((t) => t.path).sort(), mine: mine.map((t) => t.path), estimatedMs: Math.round(load[shardIndex - 1]) }),
      );
    }
    return mine;
  }
}
