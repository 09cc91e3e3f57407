#!/usr/bin/env node
// The controller's own cost per key, in one process, without a server or socket: N objects are
// handed to a controller's `for` handler by an in-memory informer (what an informer does once it
// has stored an event), synchronously, and the controller (concurrency C, a reconcile that does
// nothing) reconciles each; against the same informer with one plain handler. Reported: CPU
// microseconds per key of each, the controller's over the handler's, and (with --allocations) the
// bytes the controller allocates per key by function (sampling heap profiler, collected objects
// included). Runs alternate, a GC before each; medians.
//
// usage (from the repo root, after `npm run build`):
//   node bench/controllerHotPath.mjs [N=100000] [--runs 7] [--concurrency 10] [--allocations] [--against other/dist/esm/index.js]
//   RXKUBE_MODULE=lib/index.ts node --import tsx bench/controllerHotPath.mjs ...   (the sources, no build)
import v8 from 'node:v8';
import vm from 'node:vm';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { of } from 'rxjs';
import { benchArgs } from './args.mjs';

const args = benchArgs(process.argv.slice(2));
const RUNS = Number(args.option('runs', '7'));
const CONCURRENCY = Number(args.option('concurrency', '10'));
const ALLOCATIONS = args.switch('allocations');
const againstArg = args.option('against', '');
const [N = 100000] = args.rest.map(Number);
const thisBuild = process.env.RXKUBE_MODULE ? pathToFileURL(resolve(process.env.RXKUBE_MODULE)).href : '../dist/esm/index.js';
const builds = [{ name: 'this', rx: await import(thisBuild) }];
if (againstArg) builds.push({ name: 'against', rx: await import(pathToFileURL(resolve(againstArg)).href) });

const gc = (() => {
  v8.setFlagsFromString('--expose-gc');
  return vm.runInNewContext('gc');
})();
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

// NO_KEY=1: hand Observers no key (as before the listener handed it on), to see what it saves.
const NO_KEY = process.env.NO_KEY === '1';

/** An informer's surface as a controller uses it, over a Map, handing adds to its handlers at once. */
function memoryInformer() {
  const objects = new Map();
  const handlers = new Set();
  return {
    addEventHandler(handler) {
      handlers.add(handler);
      return { hasSynced: () => true, synced$: of(true), lag: () => ({ delivering: 0, waiting: 0 }), remove: () => handlers.delete(handler) };
    },
    start() {},
    getByKey: (key) => objects.get(key),
    listKeys: () => [...objects.keys()],
    add(key, object) {
      objects.set(key, object);
      const n = { type: 'add', object, isInInitialList: false };
      // An Observer is handed the key too, as an informer's listener does (the store's key string).
      for (const h of handlers) (h.next ? h.next(n, NO_KEY ? undefined : key) : h.add(object));
    },
  };
}

const objectsOf = (run) =>
  Array.from({ length: N }, (_, i) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `cm-${run}-${i}`, namespace: 'bench', resourceVersion: String(i + 1) } }));

function handlerRun(rx, run) {
  const inf = memoryInformer();
  let count = 0;
  inf.addEventHandler({ add: () => void count++ });
  const objects = objectsOf(run);
  const c0 = process.cpuUsage();
  for (const o of objects) inf.add(`bench/${o.metadata.name}`, o);
  const cpu = process.cpuUsage(c0);
  if (count !== N) throw new Error(`handler run: ${count} of ${N}`);
  return (cpu.user + cpu.system) / N;
}

async function controllerRun(rx, run, profiler) {
  const inf = memoryInformer();
  let reconciled = 0;
  const ctl = rx.controller({ for: inf, concurrency: CONCURRENCY, logger: false, reconcile: () => void reconciled++, ...(process.env.RYW_OFF ? { readYourWrites: false } : {}) });
  ctl.start();
  const objects = objectsOf(run);
  await profiler?.start();
  const c0 = process.cpuUsage();
  for (const o of objects) inf.add(`bench/${o.metadata.name}`, o);
  const cpu = process.cpuUsage(c0);
  const allocations = await profiler?.stop();
  if (reconciled !== N) throw new Error(`controller run: ${reconciled} reconciles of ${N}`);
  await ctl.stop();
  return { us: (cpu.user + cpu.system) / N, allocations };
}

async function heapProfiler() {
  const { Session } = await import('node:inspector/promises');
  const session = new Session();
  session.connect();
  return {
    start: () => session.post('HeapProfiler.startSampling', { samplingInterval: 64, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true }),
    async stop() {
      const { profile } = await session.post('HeapProfiler.stopSampling');
      const bytes = new Map();
      const walk = (node) => {
        const cf = node.callFrame;
        const at = `${cf.functionName || '(anonymous)'} ${cf.url.replace(/.*\//, '')}:${cf.lineNumber + 1}`;
        bytes.set(at, (bytes.get(at) ?? 0) + node.selfSize);
        node.children.forEach(walk);
      };
      walk(profile.head);
      return bytes;
    },
  };
}

const results = new Map(builds.map((b) => [b.name, { handler: [], controller: [] }]));
let run = 0;
for (let r = -1; r < RUNS; r++) {
  for (const build of r % 2 === 0 ? builds : [...builds].reverse()) {
    gc();
    const h = handlerRun(build.rx, run++);
    gc();
    const c = await controllerRun(build.rx, run++);
    if (r < 0) continue; // warm-up
    results.get(build.name).handler.push(h);
    results.get(build.name).controller.push(c.us);
  }
}
const out = { N, concurrency: CONCURRENCY, runs: RUNS };
for (const [name, { handler, controller }] of results) {
  out[name] = {
    handlerUsPerKey: Number(median(handler).toFixed(3)),
    controllerUsPerKey: Number(median(controller).toFixed(3)),
    controllerOwnUsPerKey: Number((median(controller) - median(handler)).toFixed(3)),
  };
}
if (ALLOCATIONS) {
  for (const build of builds) {
    gc();
    const { allocations } = await controllerRun(build.rx, run++, await heapProfiler());
    const total = [...allocations.values()].reduce((a, b) => a + b, 0);
    out[build.name].allocatedBytesPerKey = Math.round(total / N);
    out[build.name].topAllocationsBytesPerKey = Object.fromEntries(
      [...allocations].sort((a, b) => b[1] - a[1]).slice(0, 15).map(([at, b]) => [at, Math.round(b / N)]),
    );
  }
}
console.log(JSON.stringify(out, null, 2));
