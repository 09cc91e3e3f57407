#!/usr/bin/env node
// Side-by-side benchmark: rxkube's informer, @kubernetes/client-node's makeInformer and the
// http-floor, on the reference workload of ../shared/bench (each run is its own pair of processes:
// the client, and the list/watch server it spawns). Runs alternate between clients; the table gives
// medians and the ratios the performance bars are stated in. See docs/PERFORMANCE.md.
//
// usage (from the repo root):
//   node bench/run.mjs [--runs 3] [--scenario all|1,2,...] [--timeout 180] [--json out.json]
//                      [--clients rxkube,client-node,...] [--build] [--real-m 150000]
//                      [--against path/to/other/dist/esm/index.js]
//   env SHARED_BENCH=/path/to/shared/bench overrides where the reference workload lives.
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { arch, cpus, loadavg, platform, totalmem } from 'node:os';
import { fileURLToPath } from 'node:url';
import { benchArgs } from './args.mjs';
import { CLIENTS, repo, shared } from './benchPaths.mjs';

const here = dirname(fileURLToPath(import.meta.url));

const args = benchArgs(process.argv.slice(2));
const RUNS = Math.max(1, Number(args.option('runs', '3')));
const TIMEOUT_S = Number(args.option('timeout', '180'));
const JSON_OUT = args.option('json', '');
const clientsArg = args.option('clients', '');
const ONLY_CLIENTS = clientsArg ? new Set(clientsArg.split(',')) : null;
const SCENARIO_ARG = args.option('scenario', 'all');
const FORCE_BUILD = args.switch('build');
// --against PATH: every rxkube run also runs against another build of rxkube (its dist/esm/index.js),
// as client `NAME@against`, alternating with the rest; each scenario then reports this build against
// that one on its metric. Guards a change to the hot path in one sitting (issue 26: "performance is
// guarded"), where the ratios to client-node swing from sitting to sitting.
const againstArg = args.option('against', '');
const AGAINST = againstArg ? resolve(againstArg) : '';
const AGAINST_SUFFIX = '@against';
const baseClient = (client) => (client.endsWith(AGAINST_SUFFIX) ? client.slice(0, -AGAINST_SUFFIX.length) : client);

// --real-m 150000: the realistic watch at the length issue 26 states its bar at (every client runs
// its major GCs); the time-to-synced and heap scenarios share these runs.
const realN10k = { N: 10_000, M: Number(args.option('real-m', '50000')), size: 'real' };
const smallN10k = { N: 10_000, M: 200_000, size: 'small' };
const small1k = { N: 1_000, M: 200_000, size: 'small' };
const small100k = { N: 100_000, M: 200_000, size: 'small' };

// Each scenario: the runs it needs (client x workload) and the bars it checks. Runs with the same
// client and workload are shared between scenarios, so `all` measures each pair once.
const SCENARIOS = [
  {
    id: 1,
    title: `Watch throughput, realistic pods, N=10k, M=${realN10k.M / 1000}k`,
    runs: [['rxkube', realN10k], ['client-node', realN10k], ['http-floor', realN10k]],
    bars: [
      { text: 'rxkube >= 1.0x client-node (events/s)', metric: 'watchEventsPerSec', a: ['rxkube', realN10k], b: ['client-node', realN10k], op: '>=', limit: 1.0 },
      { text: 'rxkube >= 0.95x http-floor (events/s)', metric: 'watchEventsPerSec', a: ['rxkube', realN10k], b: ['http-floor', realN10k], op: '>=', limit: 0.95 },
    ],
  },
  {
    id: 2,
    title: 'Watch throughput, small pods, N=10k, M=200k',
    runs: [['rxkube', smallN10k], ['client-node', smallN10k], ['http-floor', smallN10k]],
    bars: [
      { text: 'rxkube >= 1.0x client-node (events/s)', metric: 'watchEventsPerSec', a: ['rxkube', smallN10k], b: ['client-node', smallN10k], op: '>=', limit: 1.0 },
    ],
  },
  {
    id: 3,
    title: 'Time to synced, realistic pods, N=10k and N=100k',
    runs: [['rxkube', realN10k], ['client-node', realN10k], ['http-floor', realN10k],
      ['rxkube', { N: 100_000, M: 1_000, size: 'real' }], ['client-node', { N: 100_000, M: 1_000, size: 'real' }]],
    bars: [
      { text: 'N=10k: rxkube <= 0.8x client-node (syncMs)', metric: 'syncMs', a: ['rxkube', realN10k], b: ['client-node', realN10k], op: '<=', limit: 0.8 },
      { text: 'rxkube N=100k <= 11x rxkube N=10k (syncMs)', metric: 'syncMs', a: ['rxkube', { N: 100_000, M: 1_000, size: 'real' }], b: ['rxkube', realN10k], op: '<=', limit: 11 },
      { text: 'N=100k: rxkube vs client-node (syncMs, report only)', metric: 'syncMs', a: ['rxkube', { N: 100_000, M: 1_000, size: 'real' }], b: ['client-node', { N: 100_000, M: 1_000, size: 'real' }], op: 'report' },
    ],
  },
  {
    id: 4,
    title: 'Heap after sync, realistic pods, N=10k',
    // rxkube-fetch: the same informer over rxkube's fetchTransport, so @kubernetes/client-node (about
    // 27 MB of heap for its modules, which http-floor does not load either) is not in the figure.
    runs: [['rxkube-fetch', realN10k], ['rxkube', realN10k], ['rxkube-strip-managed-fields', realN10k], ['client-node', realN10k], ['http-floor', realN10k]],
    bars: [
      { text: 'rxkube (fetch transport, client-node not loaded) <= 1.15x http-floor (heapMB)', metric: 'heapMB', a: ['rxkube-fetch', realN10k], b: ['http-floor', realN10k], op: '<=', limit: 1.15 },
      { text: 'rxkube (client-node transport) <= 0.9x client-node (heapMB)', metric: 'heapMB', a: ['rxkube', realN10k], b: ['client-node', realN10k], op: '<=', limit: 0.9 },
      { text: 'rxkube (client-node transport, its 27 MB of modules included) vs http-floor (heapMB, report only)', metric: 'heapMB', a: ['rxkube', realN10k], b: ['http-floor', realN10k], op: 'report' },
      { text: 'managedFields stripped vs not (heapMB, report only)', metric: 'heapMB', a: ['rxkube-strip-managed-fields', realN10k], b: ['rxkube', realN10k], op: 'report' },
      { text: 'client-node vs http-floor (heapMB, report only)', metric: 'heapMB', a: ['client-node', realN10k], b: ['http-floor', realN10k], op: 'report' },
    ],
  },
  {
    id: 5,
    title: 'Ten handlers instead of one, small pods, N=10k, M=200k',
    runs: [['rxkube', smallN10k], ['rxkube-10-handlers', smallN10k]],
    bars: [
      { text: 'rxkube 10 handlers >= 0.9x 1 handler (events/s)', metric: 'watchEventsPerSec', a: ['rxkube-10-handlers', smallN10k], b: ['rxkube', smallN10k], op: '>=', limit: 0.9 },
    ],
  },
  {
    id: 6,
    title: 'Store size does not slow events, small pods, M=200k',
    runs: [['rxkube', small1k], ['rxkube', small100k], ['http-floor', small1k], ['http-floor', small100k],
      ['client-node', small1k], ['client-node', small100k]],
    bars: [
      // Issue 26: rxkube's N=100k/N=1k ratio no worse than http-floor's own in the same sitting (a
      // bigger Map and heap slow every client; this asks that rxkube adds nothing to that).
      { text: 'rxkube N=100k/N=1k >= http-floor N=100k/N=1k (events/s, ratio of the two ratios)', metric: 'watchEventsPerSec', a: ['rxkube', small100k], b: ['rxkube', small1k], vs: { a: ['http-floor', small100k], b: ['http-floor', small1k] }, op: '>=', limit: 1.0 },
      { text: 'rxkube N=100k vs rxkube N=1k (events/s, report only)', metric: 'watchEventsPerSec', a: ['rxkube', small100k], b: ['rxkube', small1k], op: 'report' },
      { text: 'http-floor N=100k vs N=1k (events/s, report only)', metric: 'watchEventsPerSec', a: ['http-floor', small100k], b: ['http-floor', small1k], op: 'report' },
      { text: 'client-node N=100k vs N=1k (events/s, report only)', metric: 'watchEventsPerSec', a: ['client-node', small100k], b: ['client-node', small1k], op: 'report' },
    ],
  },
  {
    id: 7,
    title: 'What freeze: true (opt-in mutation detection) costs, both workloads',
    runs: [['rxkube', realN10k], ['rxkube-freeze', realN10k], ['rxkube', smallN10k], ['rxkube-freeze', smallN10k]],
    bars: [
      { text: 'realistic: freeze vs not (events/s, report only)', metric: 'watchEventsPerSec', a: ['rxkube-freeze', realN10k], b: ['rxkube', realN10k], op: 'report' },
      { text: 'realistic: freeze vs not (syncMs, report only)', metric: 'syncMs', a: ['rxkube-freeze', realN10k], b: ['rxkube', realN10k], op: 'report' },
      { text: 'realistic: freeze vs not (heapMB, report only)', metric: 'heapMB', a: ['rxkube-freeze', realN10k], b: ['rxkube', realN10k], op: 'report' },
      { text: 'small: freeze vs not (events/s, report only)', metric: 'watchEventsPerSec', a: ['rxkube-freeze', smallN10k], b: ['rxkube', smallN10k], op: 'report' },
    ],
  },
];

const wanted = SCENARIO_ARG === 'all' ? SCENARIOS : SCENARIOS.filter((s) => SCENARIO_ARG.split(',').map(Number).includes(s.id));
if (AGAINST) {
  if (!existsSync(AGAINST)) {
    console.error(`--against ${AGAINST}: no such file (give another build's dist/esm/index.js)`);
    process.exit(2);
  }
  for (const s of wanted) {
    const metric = s.bars[0]?.metric ?? 'watchEventsPerSec';
    const mine = s.runs.filter(([client]) => client.startsWith('rxkube'));
    s.runs = s.runs.flatMap((run) => (run[0].startsWith('rxkube') ? [run, [run[0] + AGAINST_SUFFIX, run[1]]] : [run]));
    s.bars = [
      ...s.bars,
      ...mine.map(([client, w]) => ({
        text: `${client} ${w.size} N=${w.N}: this build vs --against (${metric}, report only)`,
        metric, a: [client, w], b: [client + AGAINST_SUFFIX, w], op: 'report',
      })),
    ];
  }
}
if (!wanted.length) {
  console.error(`unknown --scenario ${SCENARIO_ARG}; use all or a list of ${SCENARIOS.map((s) => s.id).join(',')}`);
  process.exit(2);
}
if (!existsSync(resolve(shared, 'run.mjs'))) {
  console.error(`reference workload not found at ${shared} (set SHARED_BENCH)`);
  process.exit(2);
}

const keyOf = (client, w) => `${client} ${w.size} N=${w.N} M=${w.M}`;
const jobs = new Map(); // key -> {client, w, results: []}
for (const s of wanted) {
  for (const [client, w] of s.runs) {
    if (ONLY_CLIENTS && !ONLY_CLIENTS.has(baseClient(client))) continue;
    const k = keyOf(client, w);
    if (!jobs.has(k)) jobs.set(k, { client, w, results: [] });
  }
}

// rxkube clients import dist/esm/index.js: build it when it is missing (or when asked to).
const needsDist = [...jobs.values()].some((j) => j.client.startsWith('rxkube'));
if (needsDist && (FORCE_BUILD || !existsSync(resolve(repo, 'dist/esm/index.js')))) {
  console.error('building dist/ (npm run build)...');
  const b = spawnSync('npm', ['run', 'build'], { cwd: repo, stdio: ['ignore', 'inherit', 'inherit'] });
  if (b.status !== 0) console.error('build failed: rxkube runs will report errors');
}

// Measure a private copy of dist/esm: another `npm run build` (which starts with rm -rf dist) in
// the same checkout must not pull it away mid-run.
if (needsDist && !process.env.RXKUBE_MODULE && existsSync(resolve(repo, 'dist/esm/index.js'))) {
  const copy = resolve(repo, '.cache/bench-dist/esm');
  rmSync(copy, { recursive: true, force: true });
  cpSync(resolve(repo, 'dist/esm'), copy, { recursive: true });
  process.env.RXKUBE_MODULE = resolve(copy, 'index.js');
}

// Interrupted: end the run in progress (client and server) too.
let current;
for (const sig of ['SIGINT', 'SIGTERM']) {
  process.on(sig, () => {
    try { if (current) process.kill(-current.pid, 'SIGKILL'); } catch { /* already gone */ }
    process.exit(130);
  });
}

/** One run: `node --expose-gc shared/run.mjs CLIENT N M size` in its own process group, bounded in time. */
function runOnce(client, w, extraNodeArgs = []) {
  return new Promise((done) => {
    const module = client.endsWith(AGAINST_SUFFIX) ? AGAINST : process.env.RXKUBE_MODULE;
    const inner = CLIENTS[baseClient(client)];
    if (inner.includes('/') && !existsSync(inner)) return done({ status: 'missing', message: inner });
    // RXKUBE_MODULE=some.ts measures rxkube from source (see bench/clients/rxkubeClient.mjs).
    const tsx = client.startsWith('rxkube') && /\.[mc]?ts$/.test(module ?? '') ? ['--import', 'tsx'] : [];
    // Every client runs inside bench/clients/cpu-meter.mjs, which adds its CPU time per phase.
    const argv = [...tsx, ...extraNodeArgs, '--expose-gc', resolve(shared, 'run.mjs'), resolve(here, 'clients/cpu-meter.mjs'), String(w.N), String(w.M), w.size];
    const env = { ...process.env, CPU_METER_INNER: inner, SHARED_BENCH: shared, ...(module ? { RXKUBE_MODULE: module } : {}) };
    // detached: the client and the server it spawns share a process group we can kill as one.
    const child = spawn(process.execPath, argv, { cwd: repo, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    current = child;
    let out = '', err = '', timedOut = false;
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    const timer = setTimeout(() => {
      timedOut = true;
      try { process.kill(-child.pid, 'SIGKILL'); } catch { /* already gone */ }
    }, TIMEOUT_S * 1000);
    // The server inherits the client's stderr, so 'close' waits for it: on 'exit', end the group.
    child.on('exit', () => {
      try { process.kill(-child.pid, 'SIGKILL'); } catch { /* already gone */ }
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const line = out.split('\n').reverse().find((l) => l.startsWith('{'));
      if (timedOut) return done({ status: 'timeout' });
      if (code === 0 && line) {
        try {
          const cpu = JSON.parse(/CPU-METER (\{.*\})/.exec(err)?.[1] ?? '{}');
          const watchCpuUsPerEvent = cpu.watchCpuMs === undefined ? NaN : (1000 * cpu.watchCpuMs) / w.M;
          return done({ status: 'ok', ...JSON.parse(line), client, syncCpuMs: cpu.syncCpuMs ?? NaN, watchCpuUsPerEvent });
        } catch { /* fall through */ }
      }
      const oom = /heap out of memory|Allocation failed/i.test(err);
      const msg = (err.trim().split('\n').filter(Boolean).slice(-3).join(' | ') || `exit ${code ?? signal}`).slice(0, 300);
      done({ status: oom ? 'oom' : 'error', message: msg });
    });
  });
}

const median = (xs) => {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

const t0 = Date.now();
const load0 = loadavg().map((x) => x.toFixed(1)).join(' ');
console.error(`shared bench: ${shared}; ${jobs.size} client/workload pairs x ${RUNS} runs, timeout ${TIMEOUT_S}s each`);
// Alternate: run r of every pair, then run r+1 of every pair. Heavy N=100k runs go last in each round.
const order = [...jobs.values()].sort((a, b) => a.w.N * (a.w.size === 'real' ? 10 : 1) - b.w.N * (b.w.size === 'real' ? 10 : 1));
for (let r = 0; r < RUNS; r++) {
  for (const job of order) {
    // A pair that timed out or ran out of memory once will again: don't spend the budget twice.
    if (job.results.some((x) => ['timeout', 'oom', 'missing'].includes(x.status))) continue;
    const started = Date.now();
    const res = await runOnce(job.client, job.w);
    job.results.push(res);
    const took = ((Date.now() - started) / 1000).toFixed(1);
    const fig = res.status === 'ok' ? `sync ${res.syncMs} ms (cpu ${res.syncCpuMs}), ${res.watchEventsPerSec} ev/s (cpu ${res.watchCpuUsPerEvent.toFixed(1)} us/ev), heap ${res.heapMB} MB, rss ${res.rssMB} MB` : `${res.status}${res.message ? `: ${res.message}` : ''}`;
    console.error(`[run ${r + 1}/${RUNS}] ${keyOf(job.client, job.w)}: ${fig} (${took}s)`);
  }
}

const stat = (client, w, metric) => {
  const job = jobs.get(keyOf(client, w));
  if (!job) return { value: NaN, why: 'not run' };
  const ok = job.results.filter((x) => x.status === 'ok');
  if (!ok.length) return { value: NaN, why: job.results[0]?.status ?? 'not run' };
  return { value: median(ok.map((x) => x[metric])), n: ok.length };
};

/**
 * A bar's ratio of medians on `metric`: a/b, or with `vs` the ratio a/b over vs.a/vs.b (rxkube's
 * N=100k/N=1k against the floor's). `inverse` takes b/a instead (CPU per event, where less is more),
 * so the CPU note reads as the throughput bar does. `missing`: why a median is not there.
 */
function barRatio(bar, metric, inverse = false) {
  const missing = [];
  const pair = ({ a, b }) => {
    const x = stat(...a, metric), y = stat(...b, metric);
    missing.push(...[x.why, y.why].filter(Boolean));
    return inverse ? y.value / x.value : x.value / y.value;
  };
  return { ratio: bar.vs ? pair(bar) / pair(bar.vs) : pair(bar), missing };
}

const fmt = (v, digits = 0) => (Number.isFinite(v) ? v.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits }) : 'n/a');

const lines = [];
const say = (s = '') => lines.push(s);
say(`Machine: ${platform()} ${arch()}, ${cpus().length} x ${cpus()[0]?.model ?? '?'}, ${Math.round(totalmem() / 2 ** 30)} GB, Node ${process.version}; ${RUNS} runs per pair, medians. Load average at start ${load0}, at end ${loadavg().map((x) => x.toFixed(1)).join(' ')}.`);
say();
let passed = 0, failed = 0, unknown = 0;
const report = [];
for (const s of wanted) {
  say(`### ${s.id}. ${s.title}`);
  say();
  say('| client | pods | N | M | sync ms | sync CPU ms | watch events/s | watch CPU µs/event | heap after sync MB | rss MB | ok runs |');
  say('|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|');
  for (const [client, w] of s.runs) {
    const job = jobs.get(keyOf(client, w));
    if (!job) continue;
    const ok = job.results.filter((x) => x.status === 'ok');
    const bad = job.results.filter((x) => x.status !== 'ok').map((x) => x.status);
    const m = (k) => median(ok.map((x) => x[k]));
    say(`| ${client} | ${w.size} | ${fmt(w.N)} | ${fmt(w.M)} | ${fmt(m('syncMs'))} | ${fmt(m('syncCpuMs'))} | ${fmt(m('watchEventsPerSec'))} | ${fmt(m('watchCpuUsPerEvent'), 1)} | ${fmt(m('heapMB'))} | ${fmt(m('rssMB'))} | ${ok.length}/${job.results.length}${bad.length ? ` (${[...new Set(bad)].join(', ')})` : ''} |`);
  }
  say();
  for (const bar of s.bars) {
    const { ratio, missing } = barRatio(bar, bar.metric);
    let verdict;
    if (!Number.isFinite(ratio)) { verdict = `not measured (${missing.join(', ')})`; if (bar.op !== 'report') unknown++; }
    else if (bar.op === 'report') verdict = 'report';
    else if (bar.op === '>=' ? ratio >= bar.limit : ratio <= bar.limit) { verdict = 'PASS'; passed++; }
    else { verdict = 'FAIL'; failed++; }
    // The same comparison in CPU time (less sensitive to a loaded machine), as a throughput-like ratio.
    const cpuMetric = { watchEventsPerSec: 'watchCpuUsPerEvent', syncMs: 'syncCpuMs' }[bar.metric];
    let cpuNote = '';
    if (cpuMetric) {
      const cr = barRatio(bar, cpuMetric, bar.metric === 'watchEventsPerSec').ratio;
      if (Number.isFinite(cr)) cpuNote = ` (by CPU time: ${fmt(cr, 2)}x)`;
    }
    say(`- ${bar.text}: ${Number.isFinite(ratio) ? `**${fmt(ratio, 2)}x** ` : ''}${verdict}${cpuNote}`);
    report.push({ scenario: s.id, bar: bar.text, ratio, verdict, cpuNote });
  }
  say();
}
say(`Bars: ${passed} pass, ${failed} fail, ${unknown} not measured. Wall time ${((Date.now() - t0) / 1000).toFixed(0)} s.`);
console.log(lines.join('\n'));

if (JSON_OUT) {
  writeFileSync(JSON_OUT, JSON.stringify({ date: new Date().toISOString(), node: process.version, runs: RUNS, jobs: [...jobs.values()], bars: report }, null, 2));
  console.error(`raw results written to ${JSON_OUT}`);
}
