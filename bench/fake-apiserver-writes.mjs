// Write throughput of rxkube/testing's fake API server in-process (no HTTP, no watcher): M updates
// of a ConfigMap (a built-in type, which CRD validation must not slow down) and M updates of a custom
// resource whose CRD has a schema with bounds, a pattern and a CEL rule (pruned, defaulted and
// validated on every write), and M /status writes of realistic pods (1000, in turn, through
// `writeMany` as the watch benchmark writes them: the status splice with managedFields, statusWrite.ts).
// Compare two builds with RXKUBE_TESTING=<path to dist/esm/testing.js>.
// Rates are wall-clock; the CPU microseconds per write (process.cpuUsage) are steadier on a shared machine.
//   npm run build && node bench/fake-apiserver-writes.mjs [M=40000]
// Prints one JSON line.
const entry = process.env.RXKUBE_TESTING ?? new URL('../dist/esm/testing.js', import.meta.url).href;
const { startFakeApiServer } = await import(entry);
const M = Number(process.argv[2] ?? 40000);
const api = await startFakeApiServer({ http: true, seedPods: 1000, historyLimit: M + 10 });

const cpu = {};
function rate(n, write, name) {
  const t = performance.now();
  const c = process.cpuUsage();
  for (let i = 0; i < n; i++) write(i);
  const used = process.cpuUsage(c);
  cpu[name] = Math.round(((used.user + used.system) / n) * 100) / 100;
  return Math.round(n / ((performance.now() - t) / 1000));
}

let rv = api.create('configmaps', { metadata: { name: 'c', namespace: 'default' }, data: { a: '0' } }).metadata.resourceVersion;
const builtInUpdatesPerSec = rate(M, (i) => {
  rv = api.update('configmaps', { metadata: { name: 'c', namespace: 'default', resourceVersion: rv }, data: { a: String(i + 1), b: 'x'.repeat(200) } }).metadata.resourceVersion;
}, 'builtInCpuUsPerUpdate');

api.create('customresourcedefinitions.apiextensions.k8s.io', {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'widgets.example.com' },
  spec: {
    group: 'example.com',
    scope: 'Namespaced',
    names: { plural: 'widgets', kind: 'Widget' },
    versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', properties: { spec: {
      type: 'object',
      'x-kubernetes-validations': [{ rule: 'self.min <= self.max' }],
      properties: {
        min: { type: 'integer', minimum: 0 },
        max: { type: 'integer', maximum: 1000000 },
        name: { type: 'string', maxLength: 63, pattern: '^[a-z]+$' },
        replicas: { type: 'integer', default: 1 },
      },
    } } } } }],
  },
});
rv = api.create('widgets.example.com', { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w', namespace: 'default' }, spec: { min: 0, max: 1, name: 'a' } }).metadata.resourceVersion;
const customResourceUpdatesPerSec = rate(M, (i) => {
  const w = { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w', namespace: 'default', resourceVersion: rv }, spec: { min: 0, max: i + 1, name: 'a' } };
  rv = api.update('widgets.example.com', w).metadata.resourceVersion;
}, 'customResourceCpuUsPerUpdate');

// The pods as written back (copies: the server keeps no reference), one status field changed each time.
const pods = api.list('pods').items.map((p) => {
  const copy = structuredClone(p);
  delete copy.metadata.resourceVersion; // unconditional, as built-ins allow
  return copy;
});
let written = 0;
const podStatusWritesPerSec = rate(M / 1000, () => {
  const batch = [];
  for (let k = 0; k < 1000; k++, written++) {
    const p = pods[written % pods.length];
    p.status.containerStatuses[0].restartCount = written + 1;
    batch.push(p);
  }
  api.writeMany('pods', batch, { subresource: 'status' });
}, 'podStatusCpuUsPerBatchOf1000') * 1000;
cpu.podStatusCpuUsPerWrite = Math.round(cpu.podStatusCpuUsPerBatchOf1000 / 10) / 100;
delete cpu.podStatusCpuUsPerBatchOf1000;

console.log(JSON.stringify({ M, builtInUpdatesPerSec, customResourceUpdatesPerSec, podStatusWritesPerSec, ...cpu }));
await api.close();
