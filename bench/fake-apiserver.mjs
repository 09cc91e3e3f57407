// Benchmark of rxkube/testing's fake API server: is it ever the bottleneck?
//   npm run build && node --max-old-space-size=8192 bench/fake-apiserver.mjs [N=100000] [M=100000]
// (the benchmark itself parses the whole 430 MB list of 100k pods, hence the larger heap)
// 1. seeds N realistic pods (~4 KB JSON each) and times a full LIST (one response) and a paged LIST
//    (limit=500, following continue) over loopback, reading every byte;
// 2. writes M updates of those pods through the server's own update path (`writeMany`) while one
//    watcher on loopback (a worker thread counting lines) receives them: writeAndWatchEventsPerSec,
//    bounded by JSON.stringify of each 4 KB pod; then a second watcher resumes from before those M
//    changes and receives them from history: watchEventsPerSec, the streaming rate alone.
// Prints one JSON line.
import http from 'node:http';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';

if (!isMainThread) {
  // The watcher: a raw loopback client that counts newline-terminated events.
  const { url, rv, M } = workerData;
  let lines = 0;
  let bytes = 0;
  let first = 0;
  http.get(`${url}/api/v1/pods?watch=true&resourceVersion=${rv}`, (res) => {
    parentPort.postMessage({ type: 'open' });
    res.on('data', (chunk) => {
      if (!first) first = performance.now();
      bytes += chunk.length;
      for (let i = chunk.indexOf(10); i >= 0; i = chunk.indexOf(10, i + 1)) lines++;
      if (lines >= M) {
        parentPort.postMessage({ type: 'done', lines, bytes, at: performance.timeOrigin + performance.now() });
        res.destroy();
      }
    });
  });
} else {
  const N = Number(process.argv[2] ?? 100000);
  const M = Number(process.argv[3] ?? 100000);
  // RXKUBE_TESTING=<another build>/dist/esm/testing.js compares builds side by side.
  const { startFakeApiServer } = await import(process.env.RXKUBE_TESTING ?? '../dist/esm/testing.js');
  const fetchAll = (url) =>
    new Promise((resolve, reject) => {
      http
        .get(url, (res) => {
          const chunks = [];
          res.on('data', (c) => chunks.push(c));
          res.on('end', () => resolve(Buffer.concat(chunks)));
        })
        .on('error', reject);
    });

  let t = performance.now();
  const api = await startFakeApiServer({ http: true, seedPods: N, historyLimit: M + 10 });
  const seedMs = performance.now() - t;

  t = performance.now();
  const full = await fetchAll(`${api.url}/api/v1/pods`);
  const listMs = performance.now() - t;
  const parsed = JSON.parse(full.toString('utf8'));
  if (parsed.items.length !== N) throw new Error(`listed ${parsed.items.length} pods, expected ${N}`);

  t = performance.now();
  let cont = '';
  let paged = 0;
  for (let pages = 0; pages < N / 500 + 2; pages++) {
    const body = JSON.parse((await fetchAll(`${api.url}/api/v1/pods?limit=500${cont ? `&continue=${cont}` : ''}`)).toString('utf8'));
    paged += body.items.length;
    cont = body.metadata.continue ?? '';
    if (!cont) break;
  }
  const pagedListMs = performance.now() - t;
  if (paged !== N) throw new Error(`paged list returned ${paged} pods, expected ${N}`);

  // The objects to write: the listed pods, each update changing one status field (a status write).
  const pods = parsed.items.slice(0, Math.min(N, 1000));
  for (const p of pods) delete p.metadata.resourceVersion; // unconditional update, as built-ins allow
  // Each watcher runs in a worker thread and reports when it has counted M lines.
  const watcher = async (rv) => {
    const worker = new Worker(new URL(import.meta.url), { workerData: { url: api.url, rv, M } });
    await new Promise((r) => worker.once('message', r));
    const done = new Promise((r) => worker.on('message', (m) => m.type === 'done' && r(m)));
    return { worker, done };
  };

  // 2a. Writes and watch together: M updates through writeMany, one live watcher.
  const fromRv = api.resourceVersion;
  const live = await watcher(fromRv);
  await api.waitForWatches(1);
  const start = performance.timeOrigin + performance.now();
  const cpu0 = process.cpuUsage();
  let j = 0;
  await new Promise((resolve) => {
    const burst = () => {
      const end = Math.min(M, j + 1000);
      const batch = [];
      for (; j < end; j++) {
        const p = pods[j % pods.length];
        // A real change (the seeded pods have 0), so every write is an event; writes keep no reference.
        p.status.containerStatuses[0].restartCount = j + 1;
        batch.push(p);
      }
      // Through /status, as the kubelet writes it (the main resource keeps the stored status).
      api.writeMany('pods', batch, { subresource: 'status' });
      if (j < M) setImmediate(burst);
      else resolve();
    };
    burst();
  });
  const result = await live.done;
  const cpu = process.cpuUsage(cpu0); // the process's CPU (both threads): steadier than wall time on a loaded machine
  const writeAndWatchSec = (result.at - start) / 1000;
  await live.worker.terminate();

  // 2b. Streaming alone: a watcher resuming from before those M changes gets them all from history,
  // already serialised: the server's send path (one write per event) is all that runs.
  const replayStart = performance.timeOrigin + performance.now();
  const replay = await watcher(fromRv);
  const replayed = await replay.done;
  const replaySec = (replayed.at - replayStart) / 1000;
  await replay.worker.terminate();
  await api.close();
  console.log(
    JSON.stringify({
      N,
      M,
      seedMs: Math.round(seedMs),
      listMs: Math.round(listMs),
      listMB: Math.round(full.length / 1e6),
      pagedListMs: Math.round(pagedListMs),
      watchEventsPerSec: Math.round(M / replaySec),
      writeAndWatchEventsPerSec: Math.round(M / writeAndWatchSec),
      writeAndWatchCpuUsPerEvent: Math.round((cpu.user + cpu.system) / M),
      avgEventBytes: Math.round(result.bytes / result.lines),
      heapMB: Math.round(process.memoryUsage().heapUsed / 1e6),
    }),
  );
}
