// A loop of chained single-event store updates at one size, for profiling where the cost per update
// goes (docs/store.md, "Where the growth from 1k to 100k goes"). Same objects and indexes as
// bench/store.mjs; the chain moves forward, as an informer's store does.
//
// Run (bounded: RUNS x 10,000 updates, a few seconds):
//   node --import tsx bench/store-chain.mjs 100000 [RUNS=60]
// Profile every thread, GC helpers included (as process.cpuUsage counts them):
//   perf record -e cpu-clock -F 4999 -g -o store.data node --perf-basic-prof --import tsx bench/store-chain.mjs 100000
//   perf report -i store.data --no-children -g none --sort sym
// docs/store.md groups the symbols: Scavenger*/Evacuat*/OnMoveEvent -> young-generation GC;
// Mark*/Sweep*/ConcurrentMarking -> old-generation GC; persistentMap.ts and trie*.ts -> the trie.
import { createStore } from '../lib/store/store.ts';
import { indexers, smallPod } from './store-objects.mjs';

const n = Number(process.argv[2] ?? 100_000);
const RUNS = Number(process.argv[3] ?? 60);
const OPS = 10_000;
if (!(n > 0) || !(RUNS > 0)) throw new Error('usage: store-chain.mjs <objects> [runs]');

let store = createStore({ indexers }).replace(
  Array.from({ length: n }, (_, i) => smallPod(i, 1)),
  '1',
);
let rv = 2;
let cpu = 0;
for (let r = 0; r < RUNS; r++) {
  const input = Array.from({ length: OPS }, (_, j) => smallPod((j * 7919) % n, rv + j));
  rv += OPS;
  const t0 = process.cpuUsage();
  for (const o of input) store = store.update(o);
  const used = process.cpuUsage(t0);
  cpu += used.user + used.system;
}
console.log(
  `${n} objects: ${((cpu * 1e3) / (OPS * RUNS)).toFixed(0)} CPU ns per chained update (${RUNS} x ${OPS})`,
);
