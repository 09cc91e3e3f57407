#!/usr/bin/env node
// The controller's cost over the informer alone: N objects (ConfigMaps) are created at once on the
// fake API server, and we time until
//   informer:   an informer's handler has been given all N adds;
//   controller: a controller (concurrency C, a reconcile that does nothing) built on the same kind
//               of informer has reconciled all N keys;
// from the moment the writes are requested. The server runs in a worker thread (its own event
// loop, as a real API server is another process), so the main thread measures only the client.
// Runs alternate (informer, controller, informer, ...), each on a fresh server; medians reported.
//
// usage (from the repo root, after `npm run build`):
//   node bench/controller.mjs [N=10000] [--concurrency 10] [--runs 5] [--json out.json]
import { writeFileSync } from 'node:fs';
import { isMainThread, parentPort } from 'node:worker_threads';
import { benchArgs } from './args.mjs';
import { serveInThread, startServerThread, stopServerThread as stopServer } from './serverThread.mjs';

if (!isMainThread) {
  // The server thread: start, report the kubeconfig; on { create: n } write n ConfigMaps at once.
  const { startFakeApiServer } = await import('../dist/esm/testing.js');
  const api = await startFakeApiServer({ historyLimit: 50_000, bookmarkIntervalMs: 0 });
  serveInThread(api, parentPort, (m) => {
    if (m.create) {
      const objects = Array.from({ length: m.create }, (_, i) => ({
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: `cm-${i}`, namespace: 'bench', labels: { app: 'bench' } },
        data: { index: String(i) },
      }));
      api.writeMany('configmaps', objects);
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
  const rx = await import('../dist/esm/index.js');
  const startServer = () => startServerThread(new URL(import.meta.url));

  /** Times from the create request until `done` resolves (it is armed before the request). */
  async function timed(worker, done) {
    const t0 = performance.now();
    worker.postMessage({ create: N });
    await done;
    return performance.now() - t0;
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
    const ms = await timed(worker, done);
    await factory.shutdown();
    await stopServer(worker);
    return ms;
  }

  async function controllerRun() {
    const { worker, kc } = await startServer();
    const factory = rx.sharedInformerFactory(kc, { namespace: 'bench' });
    const reconciled = new Set();
    let resolveDone;
    const done = new Promise((r) => (resolveDone = r));
    const ctl = rx.controller({
      for: factory.configMaps(),
      concurrency: CONCURRENCY,
      reconcile: (key) => {
        reconciled.add(key);
        if (reconciled.size === N) resolveDone();
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
    const ms = await timed(worker, done);
    await ctl.stop();
    await factory.shutdown();
    await stopServer(worker);
    return ms;
  }

  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const informerMs = [];
  const controllerMs = [];
  for (let r = 0; r < RUNS; r++) {
    informerMs.push(await informerRun());
    controllerMs.push(await controllerRun({ rx, N, CONCURRENCY, startServer, stopServer, timed }));
  }
  const result = {
    N,
    concurrency: CONCURRENCY,
    runs: RUNS,
    informerMs: informerMs.map(Math.round),
    controllerMs: controllerMs.map(Math.round),
    informerMedianMs: Math.round(median(informerMs)),
    controllerMedianMs: Math.round(median(controllerMs)),
    ratio: Number((median(controllerMs) / median(informerMs)).toFixed(2)),
    bar: 1.5,
  };
  result.pass = result.ratio <= result.bar;
  console.log(JSON.stringify(result));
  if (jsonOut) writeFileSync(jsonOut, JSON.stringify(result, null, 2));
}
