#!/usr/bin/env node
// CPU profile of one client run on the reference workload, summarised by self time.
//
// usage (from the repo root):
//   node bench/profile.mjs [CLIENT=rxkube] [N=10000] [M=50000] [real|small] [--top 15] [--dir .cache/profiles]
//   node bench/profile.mjs --summary some.cpuprofile [--top 15] [--focus fnA,fnB]
// --focus also prints the inclusive time (self + callees) of the functions named.
// CLIENT: rxkube | rxkube-10-handlers | rxkube-strip-managed-fields | client-node | http-floor | a path.
// Runs `node --cpu-prof --expose-gc ../shared/bench/run.mjs CLIENT N M size` (only the client
// process is profiled, not the server), prints the run's figures, then the top functions by self
// time and the same grouped by file. RXKUBE_MODULE and SHARED_BENCH work as in bench/run.mjs.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { benchArgs } from './args.mjs';
import { clientArg, repo, shared } from './benchPaths.mjs';


const args = benchArgs(process.argv.slice(2));
const TOP = Number(args.option('top', '15'));
const summaryOf = args.option('summary', '');
const FOCUS = args.option('focus', '').split(',').filter(Boolean);
const dir = resolve(args.option('dir', join(repo, '.cache/profiles')));


/** Self time per call-frame, from a V8 .cpuprofile (samples x sampling interval). */
export function summarise(profile, top = 15, focus = []) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map();
  const dt = profile.timeDeltas;
  let total = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    const ms = (dt[i + 1] ?? dt[i] ?? 0) / 1000;
    total += ms;
    const node = byId.get(profile.samples[i]);
    const cf = node.callFrame;
    const file = cf.url ? cf.url.replace(/^file:\/\//, '') : '';
    const key = `${cf.functionName || '(anonymous)'}\t${file ? `${short(file)}:${cf.lineNumber + 1}` : ''}`;
    self.set(key, (self.get(key) ?? 0) + ms);
  }
  const rows = [...self].sort((a, b) => b[1] - a[1]);
  const byFile = new Map();
  for (const [k, ms] of rows) {
    const file = k.split('\t')[1].replace(/:\d+$/, '') || k.split('\t')[0];
    byFile.set(file, (byFile.get(file) ?? 0) + ms);
  }
  const pct = (ms) => `${((100 * ms) / total).toFixed(1).padStart(5)}%`;
  const out = [`total ${total.toFixed(0)} ms sampled`, '', `top ${top} by self time:`, ' self ms    share  function  location'];
  for (const [k, ms] of rows.slice(0, top)) {
    const [fn, loc] = k.split('\t');
    out.push(`${ms.toFixed(0).padStart(8)} ${pct(ms)}  ${fn}  ${loc}`);
  }
  if (focus.length) {
    // Inclusive time: a sample counts for every function on its stack (once per function).
    const parent = new Map();
    for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
    const incl = new Map(focus.map((f) => [f, 0]));
    for (let i = 0; i < profile.samples.length; i++) {
      const ms = (dt[i + 1] ?? dt[i] ?? 0) / 1000;
      const seen = new Set();
      for (let id = profile.samples[i]; id !== undefined; id = parent.get(id)) {
        const fn = byId.get(id).callFrame.functionName;
        if (incl.has(fn) && !seen.has(fn)) {
          seen.add(fn);
          incl.set(fn, incl.get(fn) + ms);
        }
      }
    }
    out.push('', 'inclusive (self + callees):');
    for (const [f, ms] of incl) out.push(`${ms.toFixed(0).padStart(8)} ${pct(ms)}  ${f}`);
  }
  out.push('', 'by file (self time):');
  for (const [f, ms] of [...byFile].sort((a, b) => b[1] - a[1]).slice(0, top)) out.push(`${ms.toFixed(0).padStart(8)} ${pct(ms)}  ${f}`);
  return out.join('\n');
}

function short(file) {
  if (file.startsWith(repo)) return relative(repo, file);
  const nm = file.indexOf('/node_modules/');
  if (nm >= 0) return file.slice(nm + 1);
  return file;
}

if (summaryOf) {
  console.log(summarise(JSON.parse(readFileSync(summaryOf, 'utf8')), TOP, FOCUS));
} else {
  const [client = 'rxkube', N = '10000', M = '50000', size = 'real'] = args.rest;
  mkdirSync(dir, { recursive: true });
  const before = new Set(readdirSync(dir));
  const modPath = clientArg(client);
  const tsx = /\.[mc]?ts$/.test(process.env.RXKUBE_MODULE ?? '') ? ['--import', 'tsx'] : [];
  const r = spawnSync(process.execPath, [...tsx, '--cpu-prof', `--cpu-prof-dir=${dir}`, '--expose-gc', join(shared, 'run.mjs'), modPath, N, M, size], {
    cwd: repo,
    stdio: ['ignore', 'pipe', 'inherit'],
    timeout: 600_000,
    killSignal: 'SIGINT',
  });
  process.stdout.write(r.stdout ?? '');
  const fresh = readdirSync(dir).filter((f) => f.endsWith('.cpuprofile') && !before.has(f));
  if (!fresh.length) {
    console.error('no profile written');
    process.exit(1);
  }
  const file = fresh.map((f) => join(dir, f)).sort((a, b) => statSync(b).size - statSync(a).size)[0];
  console.log(`profile: ${relative(repo, file)}\n`);
  console.log(summarise(JSON.parse(readFileSync(file, 'utf8')), TOP, FOCUS));
}
