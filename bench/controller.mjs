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
//
// --tracing: instead, the controller run alone in three modes side by side (each set runs all
// three, the order alternating from set to set): `off` (no tracing option: today's code),
// `api` (rxkube/tracing's openTelemetryTracing() with no OpenTelemetry SDK registered: the API's
// no-op spans) and `sdk` (an SDK tracer with a BatchSpanProcessor and an exporter that drops
// every span), for the controller and its factory's list/watch alike. Reports each mode's median
// and its ratio to `off`; the bars: `api` level with `off` within noise, `sdk` at most 1.15x.
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import v8 from 'node:v8';
import vm from 'node:vm';
import { pathToFileURL } from 'node:url';
import { isMainThread, parentPort } from 'node:worker_threads';
import { benchArgs } from './args.mjs';
import { threadClock, threadClockSince } from './threadClock.mjs';
import {
  serveInThread,
  startServerThread,
  stopServerThread as stopServer,
  writeConfigMaps,
} from './serverThread.mjs';

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
  // --against PATH: each set also runs the informer and the controller of another build (its
  // dist/esm/node.js, the Node entry, as a KubeConfig needs it), alternating with this one's, and
  // reports this build's ratio beside that one's.
  const againstArg = args.option('against', '');
  // --profile DIR: a CPU profile of the main thread over each timed window (inspector), one file
  // per run, named after the build and the run kind; summarise with bench/profile.mjs --summary.
  const profileDir = args.option('profile', '');
  // --allocations: with --profile, a sampling heap profile (every allocation, collected or not)
  // instead of a CPU profile: .heapprofile files, summarised with bench/allocations.mjs.
  const allocations = args.switch('allocations');
  // --only informer|controller: time one side only (for profiles).
  const only = args.option('only', '');
  const tracingModes = args.switch('tracing') ? ['off', 'api', 'sdk'] : undefined;
  const [N = 10000] = args.rest.map(Number);
  const { resolve } = await import('node:path');
  const { mkdirSync } = await import('node:fs');
  const builds = [{ name: 'this', rx: await import('../dist/esm/node.js') }];
  if (againstArg) builds.push({ name: 'against', rx: await import(pathToFileURL(resolve(againstArg)).href) });
  const startServer = () => startServerThread(new URL(import.meta.url));
  const profiler = profileDir
    ? await (allocations ? heapProfiler : cpuProfiler)(profileDir, mkdirSync)
    : undefined;

  /**
   * Times from the create request until `done` resolves (it is armed before the request): wall
   * time, and the main thread's CPU and run-queue time over the same window (threadClock.mjs).
   */
  async function timed(worker, done, label) {
    await profiler?.start();
    const t0 = performance.now();
    const c0 = threadClock();
    worker.postMessage({ create: N });
    await done;
    const ms = performance.now() - t0;
    const clock = threadClockSince(c0);
    await profiler?.stop(label);
    return { ms, ...clock };
  }

  async function informerRun(build) {
    const { rx } = build;
    const { worker, kc } = await startServer();
    const factory = rx.sharedInformerFactory(kc, { namespace: 'bench' });
    const inf = factory.configMaps();
    let adds = 0;
    let resolveDone;
    const done = new Promise((r) => (resolveDone = r));
    inf.addEventHandler({ add: () => void (++adds === N && resolveDone()) });
    factory.start();
    await factory.waitForCacheSync();
    const timing = await timed(worker, done, `${build.name}-informer`);
    await factory.shutdown();
    await stopServer(worker);
    return timing;
  }

  async function controllerRun(build, mode = 'off') {
    const { rx } = build;
    const { worker, kc } = await startServer();
    const traced = mode === 'off' ? undefined : await tracingOf(mode);
    const factory = rx.sharedInformerFactory(kc, {
      namespace: 'bench',
      ...(traced ? { tracing: traced.tracing } : {}),
    });
    // A counter, as the informer run's handler has: each key is created once and reconciled once
    // (nothing requeues a success); checked after the timing. (A Set of the keys here cost the
    // controller run alone about 30 ms over 10,000 keys in a CPU profile.)
    let reconciled = 0;
    let resolveDone;
    const done = new Promise((r) => (resolveDone = r));
    const ctl = rx.controller({
      for: factory.configMaps(),
      concurrency: CONCURRENCY,
      ...(traced ? { tracing: traced.tracing } : {}),
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
    const timing = await timed(worker, done, `${build.name}-controller`);
    const { success } = ctl.stats().reconcileTotal;
    if (success !== N || factory.configMaps().listKeys().length !== N)
      throw new Error(`controller run: ${success} reconciles for ${N} keys`);
    await ctl.stop();
    await factory.shutdown();
    await traced?.shutdown();
    await stopServer(worker);
    return timing;
  }

  /** The tracing of a mode: `api`, the API alone (no SDK registered); `sdk`, an SDK tracer whose exporter drops every span. */
  async function tracingOf(mode) {
    const { openTelemetryTracing } = await import('../dist/esm/tracing.js');
    if (mode === 'api') return { tracing: openTelemetryTracing(), shutdown: async () => undefined };
    const { BasicTracerProvider, BatchSpanProcessor } = await import('@opentelemetry/sdk-trace-base');
    const dropAll = { export: (_spans, done) => done({ code: 0 }), shutdown: async () => undefined };
    const provider = new BasicTracerProvider({ spanProcessors: [new BatchSpanProcessor(dropAll)] });
    return {
      tracing: openTelemetryTracing({ tracer: provider.getTracer('bench') }),
      shutdown: () => provider.shutdown(),
    };
  }

  // Each run on a fresh server thread, with a full GC before it (so that one run's garbage is not
  // collected in the next one's window). A warm-up set first, not counted (the JIT compiles the
  // informer, the controller and client-node's parsing in it). Then RUNS sets, the order
  // alternating (informer first, then controller first; with --against, this build first, then
  // the other first), so that a drift of the machine's load falls on all alike. Medians of each;
  // the bar is the ratio of the wall-time medians.
  const gc = (() => {
    v8.setFlagsFromString('--expose-gc');
    return vm.runInNewContext('gc');
  })();
  const measured = async (run, build) => {
    gc();
    return run(build);
  };
  const median = (xs) => {
    const s = [...xs].sort((a, b) => a - b);
    return s.length % 2 === 1 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  };
  const round = (x) => (x === undefined ? undefined : Math.round(x));
  const kinds =
    only === 'informer'
      ? [informerRun]
      : only === 'controller'
        ? [controllerRun]
        : [informerRun, controllerRun];
  /** One set: every kind of run of every build, in an order that alternates from set to set. */
  async function set(r) {
    const order = r % 2 === 0 ? builds : [...builds].reverse();
    const out = new Map(builds.map((b) => [b.name, {}]));
    for (const build of order) {
      const runs = r % 2 === 0 ? kinds : [...kinds].reverse();
      for (const run of runs)
        out.get(build.name)[run === informerRun ? 'informer' : 'controller'] = await measured(run, build);
    }
    return out;
  }
  /** --tracing: the controller run in each mode, side by side (see the header); a warm-up set first. */
  async function tracingSets() {
    const [build] = builds;
    const loadBefore = os.loadavg().map((l) => Number(l.toFixed(2)));
    const runSet = async (r) => {
      const order = r % 2 === 0 ? tracingModes : [...tracingModes].reverse();
      const out = {};
      for (const mode of order) {
        gc();
        out[mode] = await controllerRun(build, mode);
      }
      return out;
    };
    await runSet(1);
    const sets = [];
    for (let r = 0; r < RUNS; r++) sets.push(await runSet(r));
    const modes = Object.fromEntries(
      tracingModes.map((mode) => {
        const runs = sets.map((x) => x[mode]);
        return [
          mode,
          {
            ms: runs.map((x) => round(x.ms)),
            medianMs: round(median(runs.map((x) => x.ms))),
            ...(runs[0].cpuMs === undefined ? {} : { cpuMedianMs: round(median(runs.map((x) => x.cpuMs))) }),
          },
        ];
      }),
    );
    const ratio = (mode, field) =>
      modes[mode][field] === undefined
        ? undefined
        : Number((modes[mode][field] / modes.off[field]).toFixed(2));
    const result = {
      N,
      concurrency: CONCURRENCY,
      runs: RUNS,
      loadAverage: { before: loadBefore, after: os.loadavg().map((l) => Number(l.toFixed(2))) },
      modes,
      apiRatio: ratio('api', 'medianMs'),
      sdkRatio: ratio('sdk', 'medianMs'),
      apiCpuRatio: ratio('api', 'cpuMedianMs'),
      sdkCpuRatio: ratio('sdk', 'cpuMedianMs'),
      sdkBar: 1.15,
    };
    result.pass = result.sdkRatio <= result.sdkBar;
    console.log(JSON.stringify(result));
    if (jsonOut) writeFileSync(jsonOut, JSON.stringify(result, null, 2));
  }

  if (tracingModes) await tracingSets();
  else await compare();

  async function compare() {
    const loadBefore = os.loadavg().map((l) => Number(l.toFixed(2)));
    const warmUp = await set(0);
    const sets = [];
    for (let r = 0; r < RUNS; r++) sets.push(await set(r));
    const loadAfter = os.loadavg().map((l) => Number(l.toFixed(2)));
    const of = (runs, field) => runs.map((x) => x[field]);
    const report = (name) => {
      const informer = sets.map((s) => s.get(name).informer).filter(Boolean);
      const controller = sets.map((s) => s.get(name).controller).filter(Boolean);
      const w = warmUp.get(name);
      const out = {
        warmUpMs: { informer: round(w.informer?.ms), controller: round(w.controller?.ms) },
        informerMs: of(informer, 'ms').map(round),
        controllerMs: of(controller, 'ms').map(round),
        informerMedianMs: informer.length ? round(median(of(informer, 'ms'))) : undefined,
        controllerMedianMs: controller.length ? round(median(of(controller, 'ms'))) : undefined,
      };
      if (informer.length === 0 || controller.length === 0) return out;
      const hasCpu = informer.every((x) => x.cpuMs !== undefined);
      return {
        ...out,
        ratio: Number((median(of(controller, 'ms')) / median(of(informer, 'ms'))).toFixed(2)),
        // Each pair's own ratio (controller over the informer run next to it), median.
        pairRatioMedian: Number(median(controller.map((c, i) => c.ms / informer[i].ms)).toFixed(2)),
        ...(hasCpu
          ? {
              // The main thread's CPU time (the client's own cost, whatever the load) and how long it
              // waited for a core (what the load added to the wall time).
              informerCpuMs: of(informer, 'cpuMs').map(round),
              controllerCpuMs: of(controller, 'cpuMs').map(round),
              informerCpuMedianMs: round(median(of(informer, 'cpuMs'))),
              controllerCpuMedianMs: round(median(of(controller, 'cpuMs'))),
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
      };
    };
    const result = {
      N,
      concurrency: CONCURRENCY,
      runs: RUNS,
      loadAverage: { before: loadBefore, after: loadAfter },
      ...report('this'),
      ...(againstArg ? { against: { build: againstArg, ...report('against') } } : {}),
      bar: 1.15,
    };
    if (result.ratio !== undefined)
      result.pass =
        result.ratio <= result.bar && (result.cpuRatio === undefined || result.cpuRatio <= result.bar);
    console.log(JSON.stringify(result));
    if (jsonOut) writeFileSync(jsonOut, JSON.stringify(result, null, 2));
  }
}

/** The main thread's CPU profile over windows: start(), then stop(label) writes DIR/label-K.cpuprofile. */
async function cpuProfiler(dir, mkdirSync) {
  const { Session } = await import('node:inspector/promises');
  mkdirSync(dir, { recursive: true });
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 100 });
  const counts = new Map();
  return {
    start: () => session.post('Profiler.start'),
    async stop(label) {
      const { profile } = await session.post('Profiler.stop');
      const k = (counts.get(label) ?? 0) + 1;
      counts.set(label, k);
      writeFileSync(`${dir}/${label}-${k}.cpuprofile`, JSON.stringify(profile));
    },
  };
}

/** The main thread's allocations over windows (sampling heap profiler, collected objects included). */
async function heapProfiler(dir, mkdirSync) {
  const { Session } = await import('node:inspector/promises');
  mkdirSync(dir, { recursive: true });
  const session = new Session();
  session.connect();
  const counts = new Map();
  return {
    start: () =>
      session.post('HeapProfiler.startSampling', {
        samplingInterval: 256,
        includeObjectsCollectedByMajorGC: true,
        includeObjectsCollectedByMinorGC: true,
      }),
    async stop(label) {
      const { profile } = await session.post('HeapProfiler.stopSampling');
      const k = (counts.get(label) ?? 0) + 1;
      counts.set(label, k);
      writeFileSync(`${dir}/${label}-${k}.heapprofile`, JSON.stringify(profile));
    },
  };
}
