#!/usr/bin/env node
// The controller's cost over the informer alone: N objects (ConfigMaps) are created at once on the
// fake API server, and we time until
//   informer:   an informer's handler has been given all N adds;
//   controller: a controller (concurrency C, a reconcile that does nothing) built on the same kind
//               of informer has reconciled all N keys;
// from the moment the writes are requested. The server runs in a worker thread (its own event
// loop, as a real API server is another process), so the main thread measures only the client.
// A warm-up pair first (not counted), then RUNS pairs in alternating order (informer first, then
// controller first), each run on a fresh server after a full GC; medians reported, and with them
// the main thread's CPU time and run-queue wait per run (threadClock.mjs: on a loaded machine the
// wall time's spread is mostly time spent waiting for a core), and the load average.
//
// usage (from the repo root, after `npm run build`):
//   node bench/controller.mjs [N=10000] [--concurrency 10] [--runs 5] [--json out.json]
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import v8 from 'node:v8';
import vm from 'node:vm';
import { isMainThread, parentPort } from 'node:worker_threads';
import { benchArgs } from './args.mjs';
import { threadClock, threadClockSince } from './threadClock.mjs';
import { serveInThread, startServerThread, stopServerThread as stopServer, writeConfigMaps } from './serverThread.mjs';

if (!isMainThread) {
  // The server thread: start, report the kubeconfig; on { create: n } write n ConfigMaps at once.
  const { startFakeApiServer } = await import('../dist/esm/testing.js');
  const api = await startFakeApiServer({ namespaces: ['bench'], historyLimit: 50_000, bookmarkIntervalMs: 0 });
  serveInThread(api, parentPort, (m) => {
    if (m.create) {
      writeConfigMaps(api, m.create, { app: 'bench' });
      parentPort.postMessage({ created: m.create });
    }
  });
  parentPort.postMessage({ kubeConfig: api.kubeConfigText() });
} else {
  const args = benchArgs(process.argv.slice(2));
  const CONCURRENCY = Number(args.option('concurrency', '10'));
  const RUNS = Number(args.option('runs', '5'));
  const jsonOut = args.option('json', undefined);
  const [N = 10000] = args.rest.map(Number);
  const rx = await import('../dist/esm/node.js');
  const startServer = () => startServerThread(new URL(import.meta.url));

  /**
   * Times from the create request until `done` resolves (it is armed before the request): wall
   * time, and the main thread's CPU and run-queue time over the same window (threadClock.mjs).
   */
  async function timed(worker, done) {
    const t0 = performance.now();
    const c0 = threadClock();
    worker.postMessage({ create: N });
    await done;
    const ms = performance.now() - t0;
    return { ms, ...threadClockSince(c0) };
  }

  async function informerRun() {
    const { worker, kc } = await startServer();
    const factory = rx.sharedInformerFactory(kc, { namespace: 'bench' });
    const inf = factory.configMaps();
    let adds = 0;
    let resolveDone;
    const done = new Promise((r) => (resolveDone = r));
    inf.addEventHandler({ add: () => void (++adds === N && resolveDone()) });
    factory.start();
    await factory.waitForCacheSync();
    const timing = await timed(worker, done);
    await factory.shutdown();
    await stopServer(worker);
    return timing;
  }

  async function controllerRun() {
    const { worker, kc } = await startServer();
    const factory = rx.sharedInformerFactory(kc, { namespace: 'bench' });
    // A counter, as the informer run's handler has: each key is created once and reconciled once
    // (nothing requeues a success); checked after the timing. (A Set of the keys here cost the
    // controller run alone about 30 ms over 10,000 keys in a CPU profile.)
    let reconciled = 0;
    let resolveDone;
    const done = new Promise((r) => (resolveDone = r));
    const ctl = rx.controller({
      for: factory.configMaps(),
      concurrency: CONCURRENCY,
      reconcile: () => {
        if (++reconciled === N) resolveDone();
      },
    });
    ctl.start();
    await factory.waitForCacheSync();
    // Workers start once the handlers have synced: wait for that too, outside the timing.
    await new Promise((resolve) => {
      const sub = ctl.status$.subscribe((s) => {
        if (s === 'running') {
          queueMicrotask(() => sub.unsubscribe());
          resolve();
        }
      });
    });
    const timing = await timed(worker, done);
    const { success } = ctl.stats().reconcileTotal;
    if (success !== N || factory.configMaps().listKeys().length !== N) throw new Error(`controller run: ${success} reconciles for ${N} keys`);
    await ctl.stop();
    await factory.shutdown();
    await stopServer(worker);
    return timing;
  }

  // Each run on a fresh server thread, with a full GC before it (so that one run's garbage is not
  // collected in the next one's window). A warm-up pair first, not counted (the JIT compiles the
  // informer, the controller and client-node's parsing in it). Then RUNS pairs, the order
  // alternating (informer first, then controller first), so that a drift of the machine's load
  // falls on both alike. Medians of each; the bar is the ratio of the wall-time medians.
  const gc = (() => {
    v8.setFlagsFromString('--expose-gc');
    return vm.runInNewContext('gc');
  })();
  const measured = async (run) => {
    gc();
    return run();
  };
  const median = (xs) => {
    const s = [...xs].sort((a, b) => a - b);
    return s.length % 2 === 1 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  };
  const round = (x) => (x === undefined ? undefined : Math.round(x));
  const loadBefore = os.loadavg().map((l) => Number(l.toFixed(2)));
  const warmUp = { informer: await measured(informerRun), controller: await measured(controllerRun) };
  const informer = [];
  const controller = [];
  for (let r = 0; r < RUNS; r++) {
    if (r % 2 === 0) {
      informer.push(await measured(informerRun));
      controller.push(await measured(controllerRun));
    } else {
      controller.push(await measured(controllerRun));
      informer.push(await measured(informerRun));
    }
  }
  const loadAfter = os.loadavg().map((l) => Number(l.toFixed(2)));
  const of = (runs, field) => runs.map((x) => x[field]);
  const hasCpu = informer.every((x) => x.cpuMs !== undefined);
  const result = {
    N,
    concurrency: CONCURRENCY,
    runs: RUNS,
    loadAverage: { before: loadBefore, after: loadAfter },
    warmUpMs: { informer: round(warmUp.informer.ms), controller: round(warmUp.controller.ms) },
    informerMs: of(informer, 'ms').map(round),
    controllerMs: of(controller, 'ms').map(round),
    informerMedianMs: round(median(of(informer, 'ms'))),
    controllerMedianMs: round(median(of(controller, 'ms'))),
    ratio: Number((median(of(controller, 'ms')) / median(of(informer, 'ms'))).toFixed(2)),
    // Each pair's own ratio (controller over the informer run next to it), median.
    pairRatioMedian: Number(median(controller.map((c, i) => c.ms / informer[i].ms)).toFixed(2)),
    ...(hasCpu
      ? {
          // The main thread's CPU time (the client's own cost, whatever the load) and how long it
          // waited for a core (what the load added to the wall time).
          informerCpuMs: of(informer, 'cpuMs').map(round),
          controllerCpuMs: of(controller, 'cpuMs').map(round),
          cpuRatio: Number((median(of(controller, 'cpuMs')) / median(of(informer, 'cpuMs'))).toFixed(2)),
          informerRunQueueMs: of(informer, 'runQueueMs').map(round),
          controllerRunQueueMs: of(controller, 'runQueueMs').map(round),
          // The other threads (the server's worker thread above all): CPU and run-queue wait.
          informerServerCpuMs: of(informer, 'otherCpuMs').map(round),
          controllerServerCpuMs: of(controller, 'otherCpuMs').map(round),
          informerServerRunQueueMs: of(informer, 'otherRunQueueMs').map(round),
          controllerServerRunQueueMs: of(controller, 'otherRunQueueMs').map(round),
        }
      : {}),
    bar: 1.5,
  };
  result.pass = result.ratio <= result.bar;
  console.log(JSON.stringify(result));
  if (jsonOut) writeFileSync(jsonOut, JSON.stringify(result, null, 2));
}
