// Measures rxkube's watch decoder and transports against ../shared/bench's `http-floor` on the
// reference workload (N realistic pods listed, then M MODIFIED events on one watch).
//
//   node bench/decoder.mjs [rounds=3] [N=10000] [M=50000]      end to end, through run.mjs
//   node bench/decoder.mjs micro [rounds=7] [M=50000]            the decoder alone, in process
//   RXKUBE_BENCH_CLIENTS=decoder,listwatch-node node bench/decoder.mjs 5   only some clients
//
// `micro` serialises M MODIFIED events of realistic pods (../shared/bench/pods.mjs), cuts them into
// 64 KiB chunks as a socket would deliver them, and times the floor's inline loop (Buffer newline
// search, toString, JSON.parse, Map) against the same loop with rxkube's watchDecoder, alternating.
//
// Runs every client `rounds` times, alternating, each in its own process through
// `node --expose-gc --import tsx ../shared/bench/run.mjs bench/decoder.mjs` (this file is also
// the client module: RXKUBE_BENCH_CLIENT picks the variant), then prints medians and ratios to the
// floor. Clients:
//   http-floor       the floor: node:http, Buffer newline search, JSON.parse, Map
//   decoder          the floor with rxkube's watchDecoder instead of its inline loop (Buffer chunks)
//   decoder-u8       the same with plain Uint8Array chunks (the TextDecoder path browsers take)
//   listwatch-node   rxkube listWatch over clientNodeTransport(KubeConfig) (node:http)
//   listwatch-fetch  rxkube listWatch over fetchTransport (Node's global fetch)
//   client-node      @kubernetes/client-node's makeInformer
import { spawnSync } from 'node:child_process';
import http from 'node:http';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('.', import.meta.url));
const runMjs = fileURLToPath(new URL('../../shared/bench/run.mjs', import.meta.url));
const cpuMeter = fileURLToPath(new URL('./clients/cpu-meter.mjs', import.meta.url));

const get = (url) => new Promise((ok, ko) => http.get(url, ok).on('error', ko));
const body = async (res) => { const parts = []; for await (const c of res) parts.push(c); return Buffer.concat(parts); };

// Load the code under test before the clock starts (cpu-meter counts from the first call).
const mods = {};
const variant = process.env.RXKUBE_BENCH_CLIENT ?? '';
if (variant.startsWith('decoder')) mods.watchDecoder = (await import('../lib/listwatch/watchDecoder.ts')).watchDecoder;
if (variant.startsWith('listwatch')) {
  mods.listWatch = (await import('../lib/listwatch/createListWatch.ts')).listWatch;
  mods.clientNodeTransport = (await import('../lib/transport/clientNode.ts')).clientNodeTransport;
  mods.fetchTransport = (await import('../lib/transport/fetchTransport.ts')).fetchTransport;
}
// client-node is a large module graph (about 30 MB of heap): only the variant that uses it loads it.
if (variant === 'listwatch-node') mods.KubeConfig = (await import('@kubernetes/client-node')).KubeConfig;

/** The floor's list: pages of 500 into a Map (shared by the decoder variants, so only the watch differs). */
async function floorList(url, map) {
  let cont = '', rv;
  do {
    const list = JSON.parse((await body(await get(`${url}/api/v1/pods?limit=500${cont ? `&continue=${cont}` : ''}`))).toString());
    for (const o of list.items) map.set(`${o.metadata.namespace}/${o.metadata.name}`, o);
    rv = list.metadata.resourceVersion; cont = list.metadata.continue ?? '';
  } while (cont);
  return rv;
}

async function decoderClient({ url, M }, plain) {
  const { watchDecoder } = mods;
  const t0 = performance.now();
  const map = new Map();
  const rv = await floorList(url, map);
  const syncMs = performance.now() - t0;
  global.gc?.(); const heapAfterSync = process.memoryUsage().heapUsed;
  const t1 = performance.now();
  const res = await get(`${url}/api/v1/pods?watch=true&resourceVersion=${rv}`);
  let n = 0, done = false;
  const decoder = watchDecoder((ev) => {
    map.set(`${ev.object.metadata.namespace}/${ev.object.metadata.name}`, ev.object);
    if (++n === M) done = true;
  });
  for await (const chunk of res) {
    decoder.write(plain ? new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.length) : chunk);
    if (done) { res.destroy(); return { syncMs, watchMs: performance.now() - t1, heapAfterSync }; }
  }
  throw new Error(`stream ended after ${n} events`);
}

async function listWatchClient({ url, N, M }, kind) {
  const { listWatch, clientNodeTransport, fetchTransport, KubeConfig } = mods;
  let transport;
  if (kind === 'node') {
    const kc = new KubeConfig();
    kc.loadFromOptions({ clusters: [{ name: 'c', server: url, skipTLSVerify: true }], users: [{ name: 'u', token: 't' }], contexts: [{ name: 'x', cluster: 'c', user: 'u' }], currentContext: 'x' });
    transport = clientNodeTransport(kc);
  } else {
    transport = fetchTransport({ baseUrl: url });
  }
  const lw = listWatch(transport, { group: '', version: 'v1', plural: 'pods', kind: 'Pod', namespaced: true });
  const t0 = performance.now();
  const map = new Map();
  let rv = '';
  await new Promise((ok, ko) => lw.list({ resourceVersion: '0', limit: 500 }).subscribe({
    next: (page) => { for (const o of page.items) map.set(`${o.metadata.namespace}/${o.metadata.name}`, o); rv = page.resourceVersion; },
    error: ko, complete: ok,
  }));
  if (map.size !== N) throw new Error(`listed ${map.size} of ${N}`);
  const syncMs = performance.now() - t0;
  global.gc?.(); const heapAfterSync = process.memoryUsage().heapUsed;
  const t1 = performance.now();
  let n = 0;
  await new Promise((ok, ko) => {
    const sub = lw.watch({ resourceVersion: rv, allowWatchBookmarks: true, timeoutSeconds: 600 }).subscribe({
      next: (ev) => {
        map.set(`${ev.object.metadata.namespace}/${ev.object.metadata.name}`, ev.object);
        if (++n === M) { ok(); queueMicrotask(() => sub.unsubscribe()); }
      },
      error: ko,
      complete: () => ko(new Error(`stream ended after ${n} events`)),
    });
  });
  const watchMs = performance.now() - t1;
  transport.destroy?.();
  return { syncMs, watchMs, heapAfterSync };
}

/** The client module run.mjs imports. */
export default async function (args) {
  switch (process.env.RXKUBE_BENCH_CLIENT) {
    case 'decoder': return decoderClient(args, false);
    case 'decoder-u8': return decoderClient(args, true);
    case 'listwatch-node': return listWatchClient(args, 'node');
    case 'listwatch-fetch': return listWatchClient(args, 'fetch');
    default: throw new Error(`RXKUBE_BENCH_CLIENT=${process.env.RXKUBE_BENCH_CLIENT}?`);
  }
}

const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };

async function micro(rounds, M) {
  const { pod } = await import(new URL('../../shared/bench/pods.mjs', import.meta.url).href);
  const { watchDecoder } = await import('../lib/listwatch/watchDecoder.ts');
  const all = Buffer.from(Array.from({ length: M }, (_, j) => JSON.stringify({ type: 'MODIFIED', object: pod(j % 10000, 20000 + j) }) + '\n').join(''));
  const chunks = [];
  for (let i = 0; i < all.length; i += 65536) chunks.push(all.subarray(i, i + 65536));
  const plain = chunks.map((c) => new Uint8Array(c.buffer, c.byteOffset, c.length));
  const key = (o) => `${o.metadata.namespace}/${o.metadata.name}`;
  const variants = {
    floor: () => {
      const map = new Map(); let rest = null, n = 0;
      for (let chunk of chunks) {
        if (rest) chunk = Buffer.concat([rest, chunk]);
        let i = 0, j;
        while ((j = chunk.indexOf(10, i)) >= 0) { const ev = JSON.parse(chunk.toString('utf8', i, j)); i = j + 1; map.set(key(ev.object), ev.object); n++; }
        rest = i < chunk.length ? chunk.subarray(i) : null;
      }
      return n;
    },
    decoder: () => {
      const map = new Map(); let n = 0;
      const d = watchDecoder((ev) => { map.set(key(ev.object), ev.object); n++; });
      for (const chunk of chunks) d.write(chunk);
      d.end();
      return n;
    },
    'decoder-u8': () => {
      const map = new Map(); let n = 0;
      const d = watchDecoder((ev) => { map.set(key(ev.object), ev.object); n++; });
      for (const chunk of plain) d.write(chunk);
      d.end();
      return n;
    },
  };
  const times = Object.fromEntries(Object.keys(variants).map((k) => [k, []]));
  for (let r = 0; r < rounds; r++) {
    for (const name of r % 2 ? Object.keys(variants).reverse() : Object.keys(variants)) {
      global.gc?.();
      const t0 = performance.now();
      const n = variants[name]();
      times[name].push(performance.now() - t0);
      if (n !== M) throw new Error(`${name} decoded ${n} of ${M}`);
    }
  }
  const floor = median(times.floor);
  console.log(`decoder alone: M=${M} events (${(all.length / 2 ** 20).toFixed(0)} MiB, ${chunks.length} chunks of 64 KiB), ${rounds} rounds, medians; ratio = floor's time / variant's time`);
  for (const [name, ts] of Object.entries(times)) {
    const m = median(ts);
    console.log(`${name.padEnd(11)} ${m.toFixed(0).padStart(6)} ms  ${Math.round(M / (m / 1000)).toString().padStart(7)} events/s  ratio ${(floor / m).toFixed(2)}`);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url) && process.argv[2] === 'micro') {
  const [, rounds = '7', M = '50000'] = process.argv.slice(2);
  await micro(Number(rounds), Number(M));
} else if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [rounds = '3', N = '10000', M = '50000'] = process.argv.slice(2);
  // RXKUBE_BENCH_CLIENTS=http-floor,decoder,... runs only those (the floor is always included).
  const only = process.env.RXKUBE_BENCH_CLIENTS?.split(',').filter(Boolean);
  const every = ['http-floor', 'decoder', 'decoder-u8', 'listwatch-node', 'listwatch-fetch', 'client-node'];
  const clients = only ? every.filter((c) => c === 'http-floor' || only.includes(c)) : every;
  const results = Object.fromEntries(clients.map((c) => [c, []]));
  for (let r = 0; r < Number(rounds); r++) {
    for (const client of r % 2 ? [...clients].reverse() : clients) {
      const builtin = client === 'http-floor' || client === 'client-node';
      // Through bench/clients/cpu-meter.mjs: CPU time per phase, steadier than wall time on a busy machine.
      const argv = ['--expose-gc', '--import', 'tsx', runMjs, cpuMeter, N, M];
      const env = { ...process.env, RXKUBE_BENCH_CLIENT: builtin ? '' : client, CPU_METER_INNER: builtin ? client : fileURLToPath(import.meta.url) };
      const out = spawnSync(process.execPath, argv, { cwd: `${here}/..`, env, encoding: 'utf8', timeout: 300_000 });
      const line = out.stdout.trim().split('\n').pop() ?? '';
      const cpu = /CPU-METER (\{.*\})/.exec(out.stderr ?? '');
      if (out.status !== 0 || !line.startsWith('{') || !cpu) { console.error(`${client} failed:`, out.stderr); continue; }
      const fig = { ...JSON.parse(line), ...JSON.parse(cpu[1]) };
      results[client].push(fig);
      console.error(`round ${r + 1} ${client}: ${JSON.stringify(fig)}`);
    }
  }
  const floor = results['http-floor'];
  const fEps = median(floor.map((f) => f.watchEventsPerSec));
  const fSync = median(floor.map((f) => f.syncMs));
  const fWatchCpu = median(floor.map((f) => f.watchCpuMs));
  const fSyncCpu = median(floor.map((f) => f.syncCpuMs));
  console.log(`N=${N} M=${M}, ${rounds} rounds, medians; ratio = the floor's figure / the client's (1.00 = as fast as the floor, higher = faster)`);
  console.log('client           syncMs ratio  events/s ratio | syncCpuMs ratio  watchCpuMs us/event ratio | heapMB');
  for (const c of clients) {
    const rs = results[c];
    if (!rs.length) { console.log(`${c.padEnd(16)} (failed)`); continue; }
    const m = (k) => median(rs.map((f) => f[k]));
    const [sync, eps, syncCpu, watchCpu, heap] = [m('syncMs'), m('watchEventsPerSec'), m('syncCpuMs'), m('watchCpuMs'), m('heapMB')];
    console.log(
      `${c.padEnd(16)} ${String(sync).padStart(6)} ${(fSync / sync).toFixed(2).padStart(5)} ${String(eps).padStart(9)} ${(eps / fEps).toFixed(2).padStart(5)} | ` +
      `${String(syncCpu).padStart(9)} ${(fSyncCpu / syncCpu).toFixed(2).padStart(5)} ${String(watchCpu).padStart(11)} ${((watchCpu * 1000) / Number(M)).toFixed(0).padStart(8)} ${(fWatchCpu / watchCpu).toFixed(2).padStart(5)} | ${String(heap).padStart(6)}`,
    );
  }
}
