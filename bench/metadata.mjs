#!/usr/bin/env node
// Metadata-only informer against full ones, side by side in one sitting on the reference workload
// (../shared/bench, realistic pods, its server started with BENCH_METADATA=1 so that it answers
// PartialObjectMetadata lists and watches): rxkube's metadata-only informer, rxkube's full informer
// and client-node's makeInformer, runs alternating, medians and ratios. See docs/PERFORMANCE.md.
//
// usage (from the repo root, after `npm run build`, or with RXKUBE_MODULE=lib/node.ts):
//   node bench/metadata.mjs [--runs 3] [--n 10000] [--m 50000] [--json out.json]
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { benchArgs } from './args.mjs';
import { clientArg, repo, shared } from './benchPaths.mjs';

const args = benchArgs(process.argv.slice(2));
const RUNS = Math.max(1, Number(args.option('runs', '3')));
const N = args.option('n', '10000');
const M = args.option('m', '50000');
const JSON_OUT = args.option('json', '');
const CLIENT_NAMES = ['rxkube-metadata', 'rxkube-metadata-strip-managed-fields', 'rxkube', 'client-node'];
// The heap of a process with the same modules loaded and no informer: what the others hold above it is theirs.
const BASELINE = 'rxkube-baseline';

const tsx = /\.[mc]?ts$/.test(process.env.RXKUBE_MODULE ?? '') ? ['--import', 'tsx'] : [];
const results = Object.fromEntries([...CLIENT_NAMES, BASELINE].map((c) => [c, []]));
for (let run = 0; run < RUNS; run++) {
  for (const client of [...CLIENT_NAMES, BASELINE]) {
    const argv = [...(client.startsWith('rxkube') ? tsx : []), '--expose-gc', resolve(shared, 'run.mjs'), clientArg(client), N, M, 'real'];
    const out = spawnSync(process.execPath, argv, {
      cwd: repo,
      env: { ...process.env, BENCH_METADATA: '1' },
      encoding: 'utf8',
      timeout: 300_000,
    });
    const line = out.stdout.trim().split('\n').filter((l) => l.startsWith('{')).pop();
    if (out.status !== 0 || !line) {
      console.error(`${client} run ${run + 1} failed (${out.status}): ${out.stderr.slice(-400)}`);
      continue;
    }
    const r = JSON.parse(line);
    results[client].push(r);
    console.error(`run ${run + 1} ${client}: sync ${r.syncMs} ms, ${r.watchEventsPerSec} events/s, heap ${r.heapMB} MB`);
  }
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? NaN : s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const metrics = ['heapMB', 'syncMs', 'watchEventsPerSec'];
const med = Object.fromEntries([...CLIENT_NAMES, BASELINE].map((c) => [c, Object.fromEntries(metrics.map((m) => [m, median(results[c].map((r) => Number(r[m])))]))]));
const ratio = (m, a, b) => (med[a][m] / med[b][m]).toFixed(2);
console.log(`realistic pods, N=${N}, M=${M}, ${RUNS} alternating runs, medians (BENCH_METADATA=1)\n`);
const base = med[BASELINE].heapMB;
console.log(`baseline heap (modules loaded, no informer): ${base} MB\n`);
console.log('| client | heap after sync (MB) | above baseline (MB) | sync (ms) | watch events/s |');
console.log('| --- | ---: | ---: | ---: | ---: |');
for (const c of CLIENT_NAMES) console.log(`| ${c} | ${med[c].heapMB} | ${(med[c].heapMB - base).toFixed(1)} | ${Math.round(med[c].syncMs)} | ${Math.round(med[c].watchEventsPerSec)} |`);
const above = (a, b) => ((med[a].heapMB - base) / (med[b].heapMB - base)).toFixed(2);
console.log(`\nheap above baseline: metadata-only / rxkube full ${above('rxkube-metadata', 'rxkube')}x, metadata-only / client-node ${above('rxkube-metadata', 'client-node')}x; without managedFields / rxkube full ${above('rxkube-metadata-strip-managed-fields', 'rxkube')}x`);
console.log(`\nmetadata-only / rxkube full: heap ${ratio('heapMB', 'rxkube-metadata', 'rxkube')}x, sync ${ratio('syncMs', 'rxkube-metadata', 'rxkube')}x, events/s ${ratio('watchEventsPerSec', 'rxkube-metadata', 'rxkube')}x`);
console.log(`metadata-only / client-node full: heap ${ratio('heapMB', 'rxkube-metadata', 'client-node')}x, sync ${ratio('syncMs', 'rxkube-metadata', 'client-node')}x, events/s ${ratio('watchEventsPerSec', 'rxkube-metadata', 'client-node')}x`);
if (JSON_OUT) writeFileSync(JSON_OUT, JSON.stringify({ N, M, runs: RUNS, results, medians: med }, null, 2));
