// rxkube/webhooks over HTTPS against the floor, side by side in one sitting: admission reviews per
// second and latency percentiles for a validating and a mutating webhook served by webhookServer,
// and for a minimal node:https handler that parses the same review and answers it (the floor).
// Each server runs in a worker thread (kube-apiserver calls webhooks from another process); the
// client here keeps C connections alive on loopback and keeps C requests in flight.
//
//   npm run build && node bench/webhooks.mjs [--requests 20000] [--concurrency 16] [--runs 3] [--json out.json]
//
// Runs alternate (floor, validating, mutating, then the next order) with a warm-up of each server
// not counted; every run is bounded by --timeout seconds. Besides wall-clock figures (which a loaded
// machine moves), the server threads' CPU time per review (Linux schedstat), which it does not.
// Figures: docs/webhooks.md.
import { Agent, request } from 'node:https';
import { writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { benchArgs } from './args.mjs';
import { threadClock, threadClockSince } from './threadClock.mjs';

const PATHS = { floor: '/review', validating: '/validate-apps-v1-deployment', mutating: '/mutate-apps-v1-deployment' };

/** A Deployment of realistic size (about 2 KB of JSON), as the review's object. */
function deployment(i) {
  const labels = { app: `web-${i % 50}`, tier: 'frontend', 'app.kubernetes.io/part-of': 'shop' };
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: `web-${i}`, namespace: 'shop', uid: `0df28fbd-5f5f-4c5c-9f3b-${String(i).padStart(12, '0')}`, labels, annotations: { 'deployment.kubernetes.io/revision': '3' } },
    spec: {
      replicas: 3,
      selector: { matchLabels: labels },
      template: {
        metadata: { labels },
        spec: {
          containers: [
            {
              name: 'web',
              image: 'registry.example.com/shop/web:1.42.0',
              ports: [{ containerPort: 8080, protocol: 'TCP' }],
              env: Array.from({ length: 8 }, (_, k) => ({ name: `SETTING_${k}`, value: `value-${k}` })),
              resources: { requests: { cpu: '100m', memory: '128Mi' }, limits: { cpu: '500m', memory: '256Mi' } },
              readinessProbe: { httpGet: { path: '/healthz', port: 8080 }, periodSeconds: 5 },
            },
          ],
        },
      },
    },
  };
}

function reviewBody(i) {
  return JSON.stringify({
    apiVersion: 'admission.k8s.io/v1',
    kind: 'AdmissionReview',
    request: {
      uid: `705ab4f5-6393-11e8-b7cc-${String(i).padStart(12, '0')}`,
      kind: { group: 'apps', version: 'v1', kind: 'Deployment' },
      resource: { group: 'apps', version: 'v1', resource: 'deployments' },
      name: `web-${i}`,
      namespace: 'shop',
      operation: 'CREATE',
      userInfo: { username: 'system:serviceaccount:shop:deployer', groups: ['system:serviceaccounts', 'system:authenticated'] },
      object: deployment(i),
      oldObject: null,
      dryRun: false,
      options: { apiVersion: 'meta.k8s.io/v1', kind: 'CreateOptions' },
    },
  });
}

// ---- worker: one server ----
async function serve(kind) {
  const wh = await import('../dist/esm/webhooks.js');
  const certs = wh.generateCertificates({ ipAddresses: ['127.0.0.1'] });
  let close;
  let port;
  if (kind === 'floor') {
    const { createServer } = await import('node:https');
    // The floor: read the body, parse it, answer allowed with the uid; nothing else.
    const server = createServer({ cert: certs.serving.cert, key: certs.serving.key }, (req, res) => {
      const chunks = [];
      req.on('data', (c) => chunks.push(c));
      req.on('end', () => {
        const review = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        const body = JSON.stringify({ apiVersion: review.apiVersion, kind: 'AdmissionReview', response: { uid: review.request.uid, allowed: true } });
        res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
        res.end(body);
      });
    });
    await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = server.address().port;
    close = () => new Promise((resolve) => { server.close(resolve); server.closeAllConnections(); });
  } else {
    const deployments = wh.webhookResource({ group: 'apps', version: 'v1', plural: 'deployments', kind: 'Deployment', namespaced: true });
    const webhook =
      kind === 'validating'
        ? wh.validatingWebhook({ name: 'deployments.validate.example.com', resource: deployments, validate: (r) => ((r.object?.spec?.replicas ?? 0) <= 10 ? wh.allowed() : wh.denied('at most 10 replicas')) })
        : wh.mutatingWebhook({
            name: 'deployments.default.example.com',
            resource: deployments,
            mutate: () => wh.patched((d) => {
              d.metadata.labels['example.com/admitted'] = 'true';
              d.spec.revisionHistoryLimit ??= 5;
            }),
          });
    const server = wh.webhookServer({ webhooks: [webhook], certificates: wh.staticCertificate(certs.serving), host: '127.0.0.1', port: 0, logger: false });
    ({ port } = await server.start());
    close = () => server.stop(1000);
  }
  parentPort.on('message', async (m) => {
    if (m.close) {
      await close();
      parentPort.postMessage({ closed: true });
      parentPort.close();
    }
  });
  parentPort.postMessage({ port, ca: certs.caCert });
}

// ---- main: the load ----
function post(agent, ca, port, path, body) {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method: 'POST', agent, ca, headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) } }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => (res.statusCode === 200 ? resolve(Buffer.concat(chunks)) : reject(new Error(`HTTP ${res.statusCode}`))));
    });
    req.on('error', reject);
    req.end(body);
  });
}

async function load(server, path, bodies, concurrency, deadline) {
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
  const latencies = new Float64Array(bodies.length);
  let next = 0;
  const clock = threadClock();
  const started = performance.now();
  const loop = async () => {
    while (next < bodies.length) {
      if (performance.now() > deadline) throw new Error('run timed out');
      const i = next++;
      const t0 = performance.now();
      const reply = await post(agent, server.ca, server.port, path, bodies[i]);
      if (!JSON.parse(reply).response?.allowed) throw new Error(`review ${i} was not allowed`);
      latencies[i] = performance.now() - t0;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, loop));
  const seconds = (performance.now() - started) / 1000;
  // The other threads' CPU: the server's worker thread (and V8's and libuv's helpers), whatever
  // the load of the machine: the server's cost per review.
  const { otherCpuMs } = threadClockSince(clock);
  agent.destroy();
  latencies.sort();
  const pct = (p) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))];
  return { perSecond: bodies.length / seconds, p50: pct(50), p99: pct(99), serverCpuUs: otherCpuMs === undefined ? NaN : (otherCpuMs * 1000) / bodies.length };
}

function startServer(kind) {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL(import.meta.url), { workerData: { kind } });
    worker.once('error', reject);
    worker.once('message', (m) => resolve({ worker, port: m.port, ca: m.ca }));
  });
}
const stopServer = (s) => new Promise((resolve) => { s.worker.once('exit', resolve); s.worker.postMessage({ close: true }); });
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main() {
  const args = benchArgs(process.argv.slice(2));
  const requests = Number(args.option('requests', '20000'));
  const concurrency = Number(args.option('concurrency', '16'));
  const runs = Number(args.option('runs', '3'));
  const timeout = Number(args.option('timeout', '120')) * 1000;
  const jsonOut = args.option('json', undefined);
  const kinds = ['floor', 'validating', 'mutating'];
  const bodies = Array.from({ length: requests }, (_, i) => reviewBody(i));
  const warm = bodies.slice(0, Math.min(2000, requests));
  const results = Object.fromEntries(kinds.map((k) => [k, []]));
  console.log(`webhooks bench: ${requests} reviews of ${Buffer.byteLength(bodies[0])} bytes, ${concurrency} in flight on keep-alive HTTPS, ${runs} runs, node ${process.version}`);
  for (let run = 0; run < runs; run++) {
    const order = run % 2 === 0 ? kinds : [...kinds].reverse();
    for (const kind of order) {
      const server = await startServer(kind);
      try {
        await load(server, PATHS[kind], warm, concurrency, performance.now() + timeout);
        const r = await load(server, PATHS[kind], bodies, concurrency, performance.now() + timeout);
        results[kind].push(r);
        console.log(`  run ${run + 1} ${kind.padEnd(10)} ${r.perSecond.toFixed(0).padStart(6)} reviews/s  p50 ${r.p50.toFixed(2)} ms  p99 ${r.p99.toFixed(2)} ms  server CPU ${r.serverCpuUs.toFixed(0)} µs/review`);
      } finally {
        await stopServer(server);
      }
    }
  }
  const summary = Object.fromEntries(
    kinds.map((k) => [k, Object.fromEntries(['perSecond', 'p50', 'p99', 'serverCpuUs'].map((f) => [f, median(results[k].map((r) => r[f]))]))]),
  );
  console.log('medians:');
  for (const k of kinds) {
    const s = summary[k];
    const vs = k === 'floor' ? '' : `  (vs floor: rate ${(s.perSecond / summary.floor.perSecond).toFixed(2)}x, p99 ${(s.p99 / summary.floor.p99).toFixed(2)}x, CPU ${(s.serverCpuUs / summary.floor.serverCpuUs).toFixed(2)}x)`;
    console.log(`  ${k.padEnd(10)} ${s.perSecond.toFixed(0).padStart(6)} reviews/s  p50 ${s.p50.toFixed(2)} ms  p99 ${s.p99.toFixed(2)} ms  server CPU ${s.serverCpuUs.toFixed(0)} µs/review${vs}`);
  }
  if (jsonOut) writeFileSync(jsonOut, JSON.stringify({ requests, concurrency, runs, results, summary }, null, 2));
}

if (isMainThread) await main();
else await serve(workerData.kind);
