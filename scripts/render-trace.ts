// Draws docs/images/trace.png and docs/images/logs.png: the spans of one scenario, as OpenTelemetry's in-memory exporter
// holds them, as a waterfall (one row per span, grouped by trace, links drawn as arrows), in HTML
// and SVG screenshotted by Debian's Chromium (headless), as scripts/render-dashboard.ts does.
// The scenario runs against rxkube's fake API server over real HTTP: an upstream writer (standing
// for `kubectl apply` under a traced client) creates ConfigMap `shop` with KEP-5915's annotation;
// controller `apps` reconciles it (linked to that write), creates `shop-config` with rxkube's
// apply and labels `shop` through client-node (child spans, the annotation carried), and
// reconciles `shop` again on its own write (linked to it, after waiting to read it); controller
// `configs`, traced by its own Tracing as another process would be, reconciles `shop-config`,
// linked through the annotation (its first attempt fails, and is retried). The informers' list and
// watch spans are there too. logs.png: the lines pino printed meanwhile (ctx.logContext in the
// reconciles, the controllers' error line through a Logger onto pino).
// usage: npx tsx --tsconfig tsconfig.spec.json scripts/render-trace.ts [trace.png] [logs.png]
import { execFileSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { SpanKind } from '@opentelemetry/api';
import { CoreV1Api } from '@kubernetes/client-node';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import type { ConfigMap } from 'kubernetes-types/core/v1.js';
import { setTimeout as sleep } from 'node:timers/promises';
import { pino } from 'pino';
import { controller, sharedInformerFactory, builtInResources, apply, TRACEPARENT_ANNOTATION, formatTraceparent, type ChangePredicate, type Logger } from '../lib/node.js';
import { openTelemetryTracing } from '../lib/tracing/index.js';
import { startFakeApiServer } from '../lib/testing/index.js';

const out = resolve(process.argv[2] ?? join('docs', 'images', 'trace.png'));
const logsOut = resolve(process.argv[3] ?? join('docs', 'images', 'logs.png'));
const logLines: string[] = [];
const log = pino({ base: undefined, timestamp: false }, { write: (line: string) => void logLines.push(line.trim()) });
// The error itself is left out of the picture (its message is the line's).
const logger: Logger = { error: (message, _err, context) => log.error({ ...context }, message) };

function sdk() {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  return { exporter, provider };
}

async function scenario(): Promise<ReadableSpan[]> {
  const api = await startFakeApiServer({ bookmarkIntervalMs: 0 });
  const one = sdk(); // the process of the upstream writer and controller `apps`
  const two = sdk(); // controller `configs`, as if in another process
  try {
    const kc = api.kubeConfig();
    const core = kc.makeApiClient(CoreV1Api);
    const tracingA = openTelemetryTracing({ tracer: one.provider.getTracer('rxkube'), propagation: true });
    const tracingB = openTelemetryTracing({ tracer: two.provider.getTracer('rxkube'), propagation: true });
    const factory = sharedInformerFactory(kc, { namespace: 'default', logger: false, tracing: tracingA });
    const factoryB = sharedInformerFactory(kc, { namespace: 'default', logger: false });
    const tier =
      (t: string): ChangePredicate<ConfigMap> =>
      (n) =>
        (n.type === 'update' ? n.newObject : (n.object as ConfigMap)).metadata?.labels?.['tier'] === t;
    const apps = controller<ConfigMap>({
      name: 'apps',
      for: factory.informerFor<ConfigMap>(builtInResources.configMaps),
      predicates: [tier('app')],
      tracing: tracingA,
      logger,
      reconcile: async (_key, ctx) => {
        const { object } = ctx;
        log.child(ctx.logContext).info('reconciling');
        if (object === undefined || object.metadata?.labels?.['observed'] === 'true') return;
        await sleep(2);
        const name = `${object.metadata?.name ?? ''}-config`;
        await apply<ConfigMap>(kc, builtInResources.configMaps, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'default', labels: { tier: 'config' } }, data: object.data }, { fieldManager: 'apps' });
        // client-node 1.x patches with a JSON patch (a list of operations: no annotation added).
        await core.patchNamespacedConfigMap({ name: object.metadata?.name ?? '', namespace: 'default', body: [{ op: 'add', path: '/metadata/labels/observed', value: 'true' }] });
      },
    });
    const configs = controller<ConfigMap>({
      name: 'configs',
      for: factoryB.informerFor<ConfigMap>(builtInResources.configMaps),
      predicates: [tier('config')],
      tracing: tracingB,
      logger,
      reconcile: async (_key, ctx) => {
        log.child(ctx.logContext).info('reconciling');
        await sleep(3);
        if (ctx.retries === 0) throw new Error('quota for shop-config not ready');
      },
    });
    apps.start();
    configs.start();
    await factory.waitForCacheSync();
    await factoryB.waitForCacheSync();
    await sleep(20);
    // The upstream write: a traced client's apply, its span stored on the object (KEP-5915).
    const upstream = one.provider.getTracer('kubectl').startSpan('kubectl apply configmap/shop', { kind: SpanKind.CLIENT });
    api.create('configmaps', {
      metadata: { name: 'shop', namespace: 'default', labels: { tier: 'app' }, annotations: { [TRACEPARENT_ANNOTATION]: formatTraceparent(upstream.spanContext()) } },
      data: { size: '3' },
    });
    await sleep(3);
    upstream.end();
    const done = () => two.exporter.getFinishedSpans().some((s) => s.name === 'reconcile configs' && s.attributes['rxkube.reconcile.result'] === 'success');
    for (let i = 0; i < 500 && !done(); i++) await sleep(10);
    await sleep(60);
    await apps.stop();
    await configs.stop();
    await factory.shutdown();
    await factoryB.shutdown();
    await sleep(20);
    return [...one.exporter.getFinishedSpans(), ...two.exporter.getFinishedSpans()];
  } finally {
    await api.close();
    await one.provider.shutdown();
    await two.provider.shutdown();
  }
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const msOf = (t: [number, number]) => t[0] * 1000 + t[1] / 1e6;
const KIND_COLORS: Record<number, string> = { [SpanKind.CONSUMER]: '#5794f2', [SpanKind.CLIENT]: '#73bf69', [SpanKind.INTERNAL]: '#f2cc0c' };

function detail(s: ReadableSpan): string {
  const a = s.attributes;
  const parts: string[] = [];
  if (a['rxkube.reconcile.key'] !== undefined) parts.push(String(a['rxkube.reconcile.key']), `result ${String(a['rxkube.reconcile.result'])}`);
  if (a['rxkube.object.resource_version'] !== undefined) parts.push(`${String(a['rxkube.object.name'])} @rv ${String(a['rxkube.object.resource_version'])}`);
  if (a['http.response.status_code'] !== undefined) parts.push(String(a['http.response.status_code']));
  if (a['rxkube.list.reason'] !== undefined) parts.push(`${String(a['rxkube.list.reason'])}, ${String(a['rxkube.list.items'])} items @rv ${String(a['rxkube.response.resource_version'])}`);
  if (a['rxkube.watch.events'] !== undefined) parts.push(`${String(a['rxkube.watch.events'])} events`);
  return parts.join(' · ');
}

function render(spans: ReadableSpan[]): string {
  const byId = new Map(spans.map((s) => [s.spanContext().spanId, s]));
  const depth = (s: ReadableSpan): number => (s.parentSpanContext && byId.has(s.parentSpanContext.spanId) ? 1 + depth(byId.get(s.parentSpanContext.spanId)!) : 0);
  const roots = spans.filter((s) => depth(s) === 0).sort((x, y) => msOf(x.startTime) - msOf(y.startTime));
  const rows: ReadableSpan[] = [];
  const childrenOf = (p: ReadableSpan) => spans.filter((c) => c.parentSpanContext?.spanId === p.spanContext().spanId).sort((x, y) => msOf(x.startTime) - msOf(y.startTime));
  const visit = (s: ReadableSpan) => {
    rows.push(s);
    childrenOf(s).forEach(visit);
  };
  roots.forEach(visit);
  // The time axis: up to the last span that is not a watch (watches run until shutdown).
  const t0 = Math.min(...spans.map((s) => msOf(s.startTime)));
  const t1 = Math.max(...spans.filter((s) => !s.name.startsWith('watch')).map((s) => msOf(s.endTime))) + 5;
  const labelW = 430;
  const barW = 900;
  const x = (t: number) => labelW + (Math.min(t, t1) - t0) * (barW / (t1 - t0));
  // Each row as tall as its lines: name, details, one per link.
  const tops = [40];
  rows.forEach((s) => tops.push(tops[tops.length - 1] + 36 + 11 * s.links.length));
  const y = (i: number) => tops[i];
  const index = new Map(rows.map((s, i) => [s.spanContext().spanId, i]));
  const parts: string[] = [];
  let lastTrace = '';
  rows.forEach((s, i) => {
    const d = depth(s);
    const traceId = s.spanContext().traceId;
    if (traceId !== lastTrace) {
      parts.push(`<line x1="0" x2="${labelW + barW + 20}" y1="${y(i) - 6}" y2="${y(i) - 6}" stroke="#2a2d35"/><text x="8" y="${y(i) + 9}" font-size="9" fill="#666">trace ${traceId.slice(0, 6)}</text>`);
      lastTrace = traceId;
    }
    const start = msOf(s.startTime);
    const end = msOf(s.endTime);
    const w = Math.max(2, x(end) - x(start));
    const color = s.status.code === 2 ? '#f2495c' : (KIND_COLORS[s.kind] ?? '#b877d9');
    parts.push(`<text x="${80 + d * 16}" y="${y(i) + 9}" font-size="13" fill="#ddd">${esc(s.name)}</text>`);
    parts.push(`<text x="${80 + d * 16}" y="${y(i) + 23}" font-size="10" fill="#999">${esc(detail(s))}</text>`);
    parts.push(`<rect x="${x(start)}" y="${y(i)}" width="${w}" height="14" rx="2" fill="${color}"/>`);
    const open = end > t1 ? ' →' : '';
    parts.push(`<text x="${x(start) + w + 4}" y="${y(i) + 11}" font-size="10" fill="#aaa">${(end - start).toFixed(1)} ms${open}</text>`);
    s.links.forEach((l, k) => {
      const a = l.attributes ?? {};
      const from = index.get(l.context.spanId);
      const why = `${String(a['rxkube.change.type'])} ${String(a['rxkube.object.kind'])} ${String(a['rxkube.object.name'])}@${String(a['rxkube.object.resource_version'])}${a['rxkube.change.cause'] ? ` ← ${String(a['rxkube.change.cause'])}` : ''}`;
      parts.push(`<text x="${80 + d * 16}" y="${y(i) + 35 + k * 11}" font-size="9" fill="#ff9830">link: ${esc(why)}</text>`);
      if (from === undefined) return;
      const src = rows[from];
      const x1 = x(msOf(src.endTime));
      const y1 = y(from) + 7;
      const x2 = x(start);
      const y2 = y(i) + 7;
      parts.push(`<path d="M ${x1} ${y1} C ${x1 + 40} ${y1}, ${x2 - 40} ${y2}, ${x2} ${y2}" stroke="#ff9830" fill="none" stroke-dasharray="4 3" marker-end="url(#arrow)"/>`);
    });
  });
  const height = y(rows.length) + 40;
  const legend = `<text x="${labelW}" y="22" font-size="11" fill="#aaa"><tspan fill="#5794f2">■</tspan> reconcile (consumer)  <tspan fill="#73bf69">■</tspan> request (client)  <tspan fill="#f2cc0c">■</tspan> internal  <tspan fill="#ff9830">⇢</tspan> span link (the change that caused a reconcile)   axis: ${(t1 - t0).toFixed(0)} ms</text>`;
  return `<!doctype html><html><head><meta charset="utf-8"><style>body{margin:0;background:#111217;font-family:'Liberation Sans',sans-serif}</style></head><body>
<svg width="${labelW + barW + 90}" height="${height}" xmlns="http://www.w3.org/2000/svg"><defs><marker id="arrow" markerWidth="8" markerHeight="8" refX="7" refY="4" orient="auto"><path d="M0,0 L8,4 L0,8 z" fill="#ff9830"/></marker></defs>
<text x="8" y="22" font-size="15" fill="#eee">rxkube trace: kubectl apply → apps → configs</text>${legend}${parts.join('')}</svg></body></html>`;
}

const spans = await scenario();
const work = mkdtempSync(join(tmpdir(), 'rxkube-trace-'));
try {
  const page = join(work, 'trace.html');
  const html = render(spans);
  writeFileSync(page, html);
  const height = Number(/height="(\d+)"/.exec(html)?.[1] ?? 800);
  mkdirSync(dirname(out), { recursive: true });
  execFileSync(
    'chromium',
    ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--hide-scrollbars', `--user-data-dir=${join(work, 'chromium')}`, `--window-size=1430,${height}`, `--screenshot=${out}`, `file://${page}`],
    { stdio: 'inherit', timeout: 60_000 },
  );
  console.log(`wrote ${out} (${spans.length} spans)`);
  const logsPage = join(work, 'logs.html');
  const colored = logLines.map((l) =>
    esc(l).replace(/&quot;|"(\w+)":/g, (m, k: string | undefined) => (k === undefined ? m : `"<span style="color:${/trace_id|span_id|reconcileID/.test(k) ? '#ff9830' : '#8ab8ff'}">${k}</span>":`)),
  );
  writeFileSync(
    logsPage,
    `<!doctype html><html><head><meta charset="utf-8"><style>body{margin:0;background:#111217;color:#ddd;font:12px 'DejaVu Sans Mono',monospace;padding:12px;white-space:pre-wrap;width:1400px}</style></head><body><div style="color:#aaa;font-family:'Liberation Sans',sans-serif;font-size:14px;margin-bottom:8px">pino lines of the same scenario (ctx.logContext; the controllers' error line through a Logger)</div>${colored.join('\n')}</body></html>`,
  );
  execFileSync(
    'chromium',
    ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--hide-scrollbars', `--user-data-dir=${join(work, 'chromium')}`, `--window-size=1430,${60 + logLines.length * 32}`, `--screenshot=${logsOut}`, `file://${logsPage}`],
    { stdio: 'inherit', timeout: 60_000 },
  );
  console.log(`wrote ${logsOut} (${logLines.length} lines)`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
