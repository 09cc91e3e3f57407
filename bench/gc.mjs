#!/usr/bin/env node
// What the GC does during one client run of the reference workload: minor GCs (scavenges), their
// pauses, and the bytes they promote to the old generation, from V8's --trace-gc-nvp lines. An
// informer whose per-event objects die young promotes little; objects kept alive past two
// scavenges (a long-lived container pointing at them, a pretenured allocation site) show up here
// long before they show up in a heap snapshot. See docs/PERFORMANCE.md, "What the GC was doing".
//
// usage (from the repo root, after `npm run build`):
//   node bench/gc.mjs [CLIENT=rxkube] [N=10000] [M=200000] [real|small=small] [--runs 3] [--flags "--no-allocation-site-pretenuring"]
// CLIENT: a name of bench/benchPaths.mjs (rxkube, rxkube-fetch, client-node, http-floor, ...) or a path. Only the client process is
// traced (the server runs without the flags). The figures cover the whole run, list included.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { benchArgs } from './args.mjs';
import { clientArg, repo, shared } from './benchPaths.mjs';


const args = benchArgs(process.argv.slice(2));
const RUNS = Number(args.option('runs', '3'));
const extra = args.option('flags', '').split(' ').filter(Boolean);
const [client = 'rxkube', N = '10000', M = '200000', size = 'small'] = args.rest;
const modPath = clientArg(client);

/** Sums the scavenge and mark-compact lines of one run's --trace-gc-nvp output. */
function summariseNvp(text) {
  const out = { scavenges: 0, scavengeMs: 0, promotedMB: 0, survivedMB: 0, majors: 0, majorMs: 0, eventsPerSec: undefined };
  const field = (line, name) => Number(new RegExp(`(?:^|\\s)${name}=([\\d.]+)`).exec(line)?.[1] ?? 0);
  for (const line of text.split('\n')) {
    if (line.includes('gc=s ')) {
      out.scavenges++;
      out.scavengeMs += field(line, 'pause');
      out.promotedMB += field(line, 'promoted') / 2 ** 20;
      out.survivedMB += field(line, 'new_space_survived') / 2 ** 20;
    } else if (line.includes('gc=mc ')) {
      out.majors++;
      out.majorMs += field(line, 'pause');
    } else if (line.startsWith('{')) {
      out.eventsPerSec = JSON.parse(line).watchEventsPerSec;
    }
  }
  return out;
}

console.log(`${client} ${size} N=${N} M=${M}${extra.length ? ` ${extra.join(' ')}` : ''}`);
console.log('run | events/s | scavenges | scavenge pauses ms | promoted MB | survived MB | major GCs (ms)');
for (let r = 1; r <= RUNS; r++) {
  const run = spawnSync(process.execPath, ['--expose-gc', '--trace-gc-nvp', ...extra, join(shared, 'run.mjs'), modPath, N, M, size], {
    cwd: repo,
    encoding: 'utf8',
    maxBuffer: 256 * 2 ** 20,
    timeout: 600_000,
  });
  if (run.status !== 0) {
    console.error(run.stderr);
    process.exit(1);
  }
  const s = summariseNvp(run.stdout);
  console.log(`${r} | ${s.eventsPerSec} | ${s.scavenges} | ${s.scavengeMs.toFixed(0)} | ${s.promotedMB.toFixed(0)} | ${s.survivedMB.toFixed(0)} | ${s.majors} (${s.majorMs.toFixed(0)})`);
}
