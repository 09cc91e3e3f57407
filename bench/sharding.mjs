#!/usr/bin/env node
// Server-side sharding (KEP-5866) against client-side filtering: 3 replicas, each its own process,
// each an informer of its third of N realistic pods (equal uid-hash ranges), then every pod
// modified once. With the fake API server's shardedListAndWatch on, the server sends each replica
// only its shard; off (a server without the feature), every replica receives every object and
// drops two thirds itself (what rxkube's client-side sharding costs today). Prints the bytes each
// replica received and the CPU it used (user+system, list+watch), medians over --runs.
//
// usage (from the repo root): node --import tsx bench/sharding.mjs [--n 10000] [--runs 3] [--json out.json]
//   RXKUBE_MODULE / RXKUBE_TESTING_MODULE override where rxkube and rxkube/testing come from
//   (default lib/node.ts and lib/testing/index.ts, hence --import tsx).
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { benchArgs } from './args.mjs';
import { repo } from './benchPaths.mjs';

const REPLICAS = ['replica-0', 'replica-1', 'replica-2'];
const rxUrl = pathToFileURL(resolve(repo, process.env.RXKUBE_MODULE ?? 'lib/node.ts')).href;
const testingUrl = pathToFileURL(resolve(repo, process.env.RXKUBE_TESTING_MODULE ?? 'lib/testing/index.ts')).href;

if (process.argv[2] === '--replica') {
  // One replica: a sharded informer of its range; reports after sync, then after every pod it holds is touched.
  const rx = await import(rxUrl);
  const { KubeConfig } = await import('@kubernetes/client-node');
  const kc = new KubeConfig();
  kc.loadFromString(process.env.BENCH_KUBECONFIG);
  const self = process.argv[3];
  let bytes = 0;
  const inner = rx.clientNodeTransport(kc);
  const counting = {
    request: async (req) => {
      const res = await inner.request(req);
      const body = res.body;
      return { status: res.status, header: (n) => res.header(n), body: (async function* () { for await (const c of body) { bytes += c.length; yield c; } })() };
    },
  };
  const range = rx.shardRangeOf(self, REPLICAS);
  const lw = rx.shardedListWatch(counting, { group: '', version: 'v1', plural: 'pods', namespaced: true }, [range], { logger: false });
  const cpu0 = process.cpuUsage();
  const inf = rx.informer(lw, { logger: false });
  inf.start();
  await inf.waitForCacheSync();
  const held = inf.listKeys().length;
  process.send({ synced: true, held, filtering: lw.filtering() });
  await new Promise((done) => {
    const check = () => inf.list().every((p) => p.metadata?.labels?.touched === '1') && done();
    inf.addEventHandler({ update: check });
  });
  const cpu = process.cpuUsage(cpu0);
  process.send({ done: true, held, bytes, cpuMs: (cpu.user + cpu.system) / 1000, filtering: lw.filtering() });
  await inf.stop();
  process.exit(0);
} else {
  const args = benchArgs(process.argv.slice(2));
  const N = Number(args.option('n', '10000'));
  const RUNS = Math.max(1, Number(args.option('runs', '3')));
  const JSON_OUT = args.option('json', '');
  const self = fileURLToPath(import.meta.url);
  const { startFakeApiServer } = await import(testingUrl);

  async function once(sharded) {
    // The server runs here (its CPU is not counted); the replicas are processes of their own.
    const api = await startFakeApiServer({ seedPods: N, shardedListAndWatch: sharded, bookmarkIntervalMs: 0 });
    const kubeConfig = api.kubeConfigText();
    const replicas = REPLICAS.map((name) => {
      const child = spawn(process.execPath, [...process.execArgv, self, '--replica', name], { env: { ...process.env, BENCH_KUBECONFIG: kubeConfig }, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
      const messages = [];
      const waiters = [];
      child.on('message', (m) => { messages.push(m); waiters.splice(0).forEach((w) => w()); });
      const wait = async (key) => { while (!messages.some((m) => m[key])) await new Promise((r) => waiters.push(r)); return messages.find((m) => m[key]); };
      return { name, child, wait };
    });
    await Promise.all(replicas.map((r) => r.wait('synced')));
    for (const p of api.list('pods').items) api.patch('pods', p.metadata.namespace, p.metadata.name, { metadata: { labels: { touched: '1' } } });
    const done = await Promise.all(replicas.map((r) => r.wait('done')));
    await api.close();
    return done.map((d, i) => ({ replica: REPLICAS[i], ...d }));
  }

  const results = { server: [], client: [] };
  for (let run = 0; run < RUNS; run++) {
    for (const sharded of [true, false]) {
      const r = await once(sharded);
      results[sharded ? 'server' : 'client'].push(r);
      console.error(`run ${run + 1} ${sharded ? 'server-side' : 'client-side'}: ${r.map((x) => `${x.replica} ${x.held} pods ${(x.bytes / 1e6).toFixed(1)} MB ${Math.round(x.cpuMs)} ms CPU (${x.filtering})`).join('; ')}`);
    }
  }
  const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2; };
  const per = (mode, key) => median(results[mode].flatMap((r) => r.map((x) => x[key])));
  console.log(`3 replicas, N=${N} realistic pods listed then each modified once, ${RUNS} runs, medians per replica\n`);
  console.log('| filtering | pods held | bytes received (MB) | CPU (ms) |');
  console.log('| --- | ---: | ---: | ---: |');
  for (const mode of ['server', 'client']) console.log(`| ${mode === 'server' ? 'server-side (shardedListAndWatch on)' : 'client-side (server ignores the selector)'} | ${per(mode, 'held')} | ${(per(mode, 'bytes') / 1e6).toFixed(1)} | ${Math.round(per(mode, 'cpuMs'))} |`);
  console.log(`\nserver-side / client-side per replica: bytes ${(per('server', 'bytes') / per('client', 'bytes')).toFixed(2)}x, CPU ${(per('server', 'cpuMs') / per('client', 'cpuMs')).toFixed(2)}x`);
  if (JSON_OUT) writeFileSync(JSON_OUT, JSON.stringify({ N, runs: RUNS, results }, null, 2));
}
