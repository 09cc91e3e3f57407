#!/usr/bin/env node
// rxkube's informer in one process with no network: a Transport that serves the reference workload
// (../shared/bench/pods.mjs: a list of N pods in pages of 500, then M MODIFIED events in 64 KB
// chunks) from memory. What it measures is the informer's own CPU cost per event (decoder,
// reflector, FIFO, store, handlers), free of the server process and of the loopback socket, so
// it is steady on a busy machine and a CPU profile of it shows only rxkube. Use it to compare a
// change; use bench/run.mjs for the figures against other clients.
//
// usage (from the repo root, after `npm run build`):
//   node --expose-gc bench/pipeline.mjs [N=10000] [M=200000] [real|small] [--handlers 1] [--runs 3] [--strip] [--freeze] [--floor] [--store-subscriber]
//   RXKUBE_MODULE=path/to/index.js measures another build.
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { benchArgs } from './args.mjs';
import { shared } from './benchPaths.mjs';

const { pod: bigPod, smallPod } = await import(pathToFileURL(resolve(shared, 'pods.mjs')).href);
const rx = await import(
  process.env.RXKUBE_MODULE ? pathToFileURL(resolve(process.env.RXKUBE_MODULE)).href : new URL('../dist/esm/index.js', import.meta.url).href
);

const args = benchArgs(process.argv.slice(2));
const strip = args.switch('strip');
// --freeze: the informer's opt-in mutation detection (freeze: true): what deep freezing costs.
const freeze = args.switch('freeze');
// --floor: also run http-floor's loop (newline search on Buffers, one decode and JSON.parse per
// event, newest object per key in a Map) over the same chunks, alternating, and print the ratio;
// and the same loop with rxkube's deepFreeze on each object: the ceiling of any informer that hands
// out deeply frozen objects, as DESIGN.md requires.
const withFloor = args.switch('floor');
// --store-subscriber: one store$ subscriber for the whole run (a dashboard's view), so every batch
// builds and publishes a snapshot; without it the store's snapshots are built only when read.
const storeSubscriber = args.switch('store-subscriber');
const HANDLERS = Number(args.option('handlers', '1'));
const RUNS = Number(args.option('runs', '3'));
const [N = 10000, M = 200000] = args.rest.slice(0, 2).map(Number);
const SIZE = args.rest[2] ?? 'small';
const pod = SIZE === 'small' ? smallPod : bigPod;

// The workload, serialised once, as the server of ../shared/bench does.
const BASE = 1000;
const listRV = String(BASE + N);
const PAGE = 500;
const pages = [];
for (let start = 0; start < N; start += PAGE) {
  const end = Math.min(N, start + PAGE);
  const meta = { resourceVersion: listRV, ...(end < N ? { continue: String(end) } : {}) };
  pages.push(Buffer.from(JSON.stringify({ kind: 'PodList', apiVersion: 'v1', metadata: meta, items: Array.from({ length: end - start }, (_, k) => pod(start + k, BASE + start + k)) })));
}
const fullList = N <= PAGE ? pages[0] : Buffer.from(JSON.stringify({ kind: 'PodList', apiVersion: 'v1', metadata: { resourceVersion: listRV }, items: Array.from({ length: N }, (_, i) => pod(i, BASE + i)) }));
const stream = Buffer.from(Array.from({ length: M }, (_, j) => JSON.stringify({ type: 'MODIFIED', object: pod(j % N, BASE + N + 1 + j) }) + '\n').join(''));
const CHUNK = 64 * 1024;

/** A Transport over the in-memory workload; watches other than the first stay open and silent. */
function memoryTransport() {
  let watches = 0;
  return {
    async request(req) {
      const q = req.query;
      const body = async function* () {
        if (q.watch === 'true') {
          if (watches++ === 0 && q.resourceVersion === listRV) {
            for (let at = 0; at < stream.length; at += CHUNK) {
              if (req.signal.aborted) return;
              yield stream.subarray(at, at + CHUNK);
            }
          }
          await new Promise((r) => req.signal.addEventListener('abort', r, { once: true }));
          return;
        }
        const limit = Number(q.limit ?? 0);
        if (!limit) return yield fullList;
        const page = q.continue ? Number(q.continue) / PAGE : 0;
        yield pages[page];
      };
      return { status: 200, header: () => undefined, body: body() };
    },
  };
}

const pods = { group: '', version: 'v1', plural: 'pods', namespaced: true };
const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

async function once() {
  const inf = rx.informer(rx.listWatch(memoryTransport(), pods), { ...(strip ? { transform: rx.stripManagedFields } : {}), ...(freeze ? { freeze: true } : {}) });
  let onSynced, onDone, finished = 0;
  const synced = new Promise((r) => (onSynced = r));
  const done = new Promise((r) => (onDone = r));
  for (let h = 0; h < HANDLERS; h++) {
    let adds = 0, updates = 0;
    inf.addEventHandler({
      add: () => { if (++adds === N && h === HANDLERS - 1) onSynced(); },
      update: () => { if (++updates === M && ++finished === HANDLERS) onDone(); },
    });
  }
  let snapshots = 0;
  const storeSub = storeSubscriber ? inf.store$.subscribe(() => void snapshots++) : undefined;
  const t0 = performance.now(), c0 = cpuMs();
  inf.start();
  await synced;
  const t1 = performance.now(), c1 = cpuMs();
  global.gc?.();
  const heap = process.memoryUsage().heapUsed;
  const t2 = performance.now(), c2 = cpuMs();
  await done;
  const t3 = performance.now(), c3 = cpuMs();
  storeSub?.unsubscribe();
  if (storeSubscriber && snapshots < 2) throw new Error(`store$ emitted ${snapshots} snapshots`);
  await inf.stop();
  return { syncMs: t1 - t0, syncCpuMs: c1 - c0, eventsPerSec: M / ((t3 - t2) / 1000), cpuUsPerEvent: (1000 * (c3 - c2)) / M, heapMB: heap / 2 ** 20 };
}

/** http-floor's watch loop over the same 64 KB chunks: the least any informer on Node does. */
async function floorOnce(freeze = (o) => o) {
  const map = new Map();
  for (const page of pages) for (const o of JSON.parse(page.toString()).items) map.set(`${o.metadata.namespace}/${o.metadata.name}`, freeze(o));
  global.gc?.();
  const t2 = performance.now(), c2 = cpuMs();
  let rest = null;
  for (let at = 0; at < stream.length; at += CHUNK) {
    let chunk = stream.subarray(at, at + CHUNK);
    if (rest) chunk = Buffer.concat([rest, chunk]);
    let i = 0, j;
    while ((j = chunk.indexOf(10, i)) >= 0) {
      const ev = JSON.parse(chunk.toString('utf8', i, j));
      i = j + 1;
      map.set(`${ev.object.metadata.namespace}/${ev.object.metadata.name}`, freeze(ev.object));
    }
    rest = i < chunk.length ? chunk.subarray(i) : null;
    // A socket delivers chunks on separate turns of the event loop.
    if ((at / CHUNK) % 16 === 15) await new Promise(setImmediate);
  }
  const t3 = performance.now(), c3 = cpuMs();
  return { eventsPerSec: M / ((t3 - t2) / 1000), cpuUsPerEvent: (1000 * (c3 - c2)) / M };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const results = [];
const floors = [];
const frozenFloors = [];
for (let r = 0; r < RUNS; r++) {
  results.push(await once());
  global.gc?.();
  if (withFloor) {
    floors.push(await floorOnce());
    global.gc?.();
    frozenFloors.push(await floorOnce(rx.deepFreeze));
    global.gc?.();
  }
}
const m = (k) => median(results.map((x) => x[k]));
if (withFloor) {
  const f = (k) => median(floors.map((x) => x[k]));
  const z = (k) => median(frozenFloors.map((x) => x[k]));
  console.log(
    JSON.stringify({
      floorEventsPerSec: Math.round(f('eventsPerSec')),
      floorCpuUsPerEvent: +f('cpuUsPerEvent').toFixed(2),
      frozenFloorEventsPerSec: Math.round(z('eventsPerSec')),
      frozenFloorCpuUsPerEvent: +z('cpuUsPerEvent').toFixed(2),
      frozenFloorVsFloor: +(z('eventsPerSec') / f('eventsPerSec')).toFixed(2),
      vsFloor: +(m('eventsPerSec') / f('eventsPerSec')).toFixed(2),
    }),
  );
}
console.log(JSON.stringify({ N, M, size: SIZE, handlers: HANDLERS, strip, freeze, storeSubscriber, runs: RUNS, syncMs: Math.round(m('syncMs')), syncCpuMs: Math.round(m('syncCpuMs')), eventsPerSec: Math.round(m('eventsPerSec')), cpuUsPerEvent: +m('cpuUsPerEvent').toFixed(2), heapMB: Math.round(m('heapMB')) }));
