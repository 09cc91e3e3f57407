#!/usr/bin/env node
// Failover with and without warm-up of the standby's informers: two replicas of a controller
// over N ConfigMaps elect a leader on a Lease (fake API server, loopback, client-node transport).
// Replica A leads; B stands by. A stops (drained, Lease released: releaseOnCancel), B takes over.
//   warm: B's controller is started before leadership with `leading$` (informers listed and
//         watching, keys queued; controller-runtime's EnableWarmup); its workers start on leadership.
//   cold: B starts its informer and controller only in onStartedLeading (list after takeover).
// Reported per run: from A's stop to B's first reconcile, from B's leadership to its first
// reconcile, and to all N reconciled. The server runs in a worker thread (its own event loop).
// Runs alternate (warm, cold, warm, ...), each on a fresh server; medians reported.
//
// usage (from the repo root, after `npm run build`):
//   node bench/failover.mjs [N=10000] [--runs 3] [--json out.json]
// Bounded: every wait has a timeout (60 s); fixed run count.
import { writeFileSync } from 'node:fs';
import { isMainThread, parentPort } from 'node:worker_threads';
import { benchArgs } from './args.mjs';
import { serveInThread, startServerThread, stopServerThread as stopServer, writeConfigMaps } from './serverThread.mjs';

if (!isMainThread) {
  const { startFakeApiServer } = await import('../dist/esm/testing.js');
  const api = await startFakeApiServer({ namespaces: ['bench'], historyLimit: 50_000, bookmarkIntervalMs: 0 });
  serveInThread(api, parentPort, (m) => {
    if (m.create) {
      writeConfigMaps(api, m.create);
      parentPort.postMessage({ kubeConfig: api.kubeConfigText() });
    }
  });
} else {
  const args = benchArgs(process.argv.slice(2));
  const RUNS = Number(args.option('runs', '3'));
  const jsonOut = args.option('json', undefined);
  const [N = 10000] = args.rest.map(Number);
  const rx = await import('../dist/esm/node.js');
  const timings = { leaseDuration: 2_000, renewDeadline: 1_200, retryPeriod: 300 };
  const LIMIT_MS = 60_000;

  const startServer = () => startServerThread(new URL(import.meta.url), { create: N });
  const within = (promise, what) =>
    Promise.race([promise, new Promise((_, reject) => setTimeout(() => reject(new Error(`timed out: ${what}`)), LIMIT_MS).unref())]);
  const statusIs = (ctl, wanted) =>
    new Promise((resolve) => {
      const sub = ctl.status$.subscribe((s) => {
        if (s === wanted) {
          queueMicrotask(() => sub.unsubscribe());
          resolve();
        }
      });
    });

  /** One replica: a transport of its own, an elector, and a controller (warm or built on leadership). */
  function replica(kc, identity, warm, onReconcile, onLead = () => {}) {
    const transport = rx.clientNodeTransport(kc);
    let factory;
    let ctl;
    const build = (leading$) => {
      factory = rx.sharedInformerFactory(transport, { namespace: 'bench', logger: false });
      ctl = rx.controller({ name: `failover-${identity}`, for: factory.configMaps(), leading$, logger: false, concurrency: 4, reconcile: (key) => onReconcile(key) });
      ctl.start();
    };
    const elector = rx.leaderElection({
      lock: rx.leaseLock(transport, 'bench', 'failover'),
      identity,
      ...timings,
      releaseOnCancel: true,
      logger: false,
      onStartedLeading: () => {
        if (!warm) build(undefined);
      },
    });
    // Subscribed before the controller: a warm controller reconciles synchronously inside the
    // leading$ emission, and its subscriber would see leadership only after that.
    elector.leading$.subscribe((l) => l && onLead());
    if (warm) build(elector.leading$);
    return {
      elector,
      get ctl() {
        return ctl;
      },
      async stop() {
        if (ctl) await ctl.stop();
        await elector.stop();
        if (factory) await factory.shutdown();
        transport.destroy();
      },
    };
  }

  async function run(warm) {
    const { worker, kc } = await startServer();
    let aSeen = 0;
    let aAll;
    const aDone = new Promise((r) => (aAll = r));
    const a = replica(kc, 'a', true, () => void (++aSeen === N && aAll()));
    a.elector.start();
    await within(aDone, 'A reconciles everything');
    let firstAt;
    let leadAt;
    let allAt;
    const seen = new Set();
    let bAll;
    const bDone = new Promise((r) => (bAll = r));
    const b = replica(
      kc,
      'b',
      warm,
      (key) => {
        firstAt ??= performance.now();
        seen.add(key);
        if (seen.size === N) {
          allAt = performance.now();
          bAll();
        }
      },
      () => void (leadAt ??= performance.now()),
    );
    b.elector.start();
    // A warm standby has listed and queued everything before the failover.
    if (warm) await within(statusIs(b.ctl, 'standby'), 'B warm (standby)');
    const t0 = performance.now();
    await a.stop();
    await within(bDone, 'B reconciles everything');
    await b.stop();
    await stopServer(worker);
    return { toFirstMs: firstAt - t0, leaderToFirstMs: firstAt - leadAt, toAllMs: allAt - t0 };
  }

  const median = (xs) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];
  const results = { warm: [], cold: [] };
  for (let r = 0; r < RUNS; r++) {
    results.warm.push(await run(true));
    results.cold.push(await run(false));
  }
  const summary = (rs) => ({
    toFirstMedianMs: Math.round(median(rs.map((x) => x.toFirstMs))),
    leaderToFirstMedianMs: Math.round(median(rs.map((x) => x.leaderToFirstMs))),
    toAllMedianMs: Math.round(median(rs.map((x) => x.toAllMs))),
    runs: rs.map((x) => ({ toFirstMs: Math.round(x.toFirstMs), leaderToFirstMs: Math.round(x.leaderToFirstMs), toAllMs: Math.round(x.toAllMs) })),
  });
  const result = { N, runs: RUNS, timings, warm: summary(results.warm), cold: summary(results.cold) };
  console.log(JSON.stringify(result, null, 2));
  if (jsonOut) writeFileSync(jsonOut, JSON.stringify(result, null, 2));
}
