// rxkube's Grafana dashboard and alerting rules, checked by a real Prometheus (Debian's package,
// via scripts/ensure-prometheus.sh): it scrapes an rxkube controller's /metrics on loopback while
// the controller runs against the fake API server, then evaluates every dashboard query and every
// alert expression. The alerts run with the same expressions as observability/ and small
// thresholds (alertingRules' options), so that the scenario makes them fire within seconds.
// Waits are bounded polls on Prometheus' answers (never sleep-then-assert).
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { CoreV1Api, type V1ConfigMap } from '@kubernetes/client-node';
import { Registry } from 'prom-client';
import '../../lib/transport/clientNode.js';
import { controller, type Controller } from '../../lib/controller/controller.js';
import { builtInResources } from '../../lib/factory/builtInResources.js';
import { informer, type Informer } from '../../lib/informer/informer.js';
import { leaderElection, type LeaderElector } from '../../lib/leaderelection/leaderElection.js';
import { leaseLock } from '../../lib/leaderelection/leaseLock.js';
import { listWatch } from '../../lib/listwatch/createListWatch.js';
import { alertingRules, dashboardRows, prometheusMetrics } from '../../lib/prometheus/index.js';
import { observabilityFiles } from '../../lib/prometheus/observabilityFiles.js';
import { toYaml } from '../../lib/prometheus/yamlText.js';
import { startFakeApiServer, type FakeApiServer } from '../../lib/testing/index.js';
import { waitFor } from '../support/waitFor.js';

const execFileP = promisify(execFile);
const NAMESPACE = 'rxkube-test';
const JOB = 'rxkube';
const fast = { random: () => 0, backoff: { initialMs: 50, capMs: 200, jitter: 0 } };

/** The directory of prometheus and promtool: fails (never skips) when none can be had. */
function prometheusBinDir(): string {
  try {
    const out = execFileSync('bash', [join(process.cwd(), 'scripts', 'ensure-prometheus.sh')], {
      encoding: 'utf8',
      timeout: 120_000,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    return out.trim().split('\n').pop()!;
  } catch (e) {
    throw new Error(
      `no prometheus binary: install Debian's prometheus package or set PROMETHEUS_BIN_DIR (scripts/ensure-prometheus.sh: ${String((e as { stderr?: unknown }).stderr ?? e)})`,
      { cause: e },
    );
  }
}

const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as AddressInfo;
      s.close(() => resolve(port));
    });
  });

interface QueryAnswer {
  readonly status: string;
  readonly error?: string;
  readonly data?: {
    readonly result: ReadonlyArray<{
      readonly metric: Record<string, string>;
      readonly value: [number, string];
    }>;
  };
}

let bin: string;
let dir: string;
let prom: ChildProcess | undefined;
let promUrl: string;
let metricsServer: Server;
let api: FakeApiServer;
let ctl: Controller | undefined;
let cms: Informer<V1ConfigMap> | undefined;
let missing: Informer<V1ConfigMap> | undefined;
let holder: LeaderElector | undefined;
let standby: LeaderElector | undefined;
let release: (() => void) | undefined;

async function query(expr: string): Promise<QueryAnswer> {
  const res = await fetch(`${promUrl}/api/v1/query?query=${encodeURIComponent(expr)}`);
  return (await res.json()) as QueryAnswer;
}

const substitute = (expr: string) => expr.replaceAll('$job', JOB).replaceAll('$namespace', NAMESPACE);

beforeAll(async () => {
  bin = prometheusBinDir();
  dir = mkdtempSync(join(tmpdir(), 'rxkube-prometheus-'));
  api = await startFakeApiServer({ bookmarkIntervalMs: 0 });
  api.create('namespaces', { metadata: { name: NAMESPACE } });
  const kc = api.kubeConfig();
  const registry = new Registry();
  const metrics = prometheusMetrics(registry);
  metricsServer = createServer((req, res) => {
    void registry.metrics().then((text) => {
      res.writeHead(200, { 'Content-Type': registry.contentType });
      res.end(text);
    });
  });
  await new Promise<void>((resolve) => metricsServer.listen(0, '127.0.0.1', resolve));
  const metricsPort = (metricsServer.address() as AddressInfo).port;

  // The scenario: a ConfigMap controller whose `bad-*` keys fail, whose `stuck` key never returns
  // until the test ends, and whose `good-*` keys write a label (read-your-own-writes waits); an
  // informer of a resource the server does not serve (never syncs); an elector that stands by
  // because another replica (not reporting) holds the lock.
  for (const name of ['good-a', 'good-b', 'bad-a', 'bad-b', 'stuck'])
    api.create('configmaps', { metadata: { name, namespace: NAMESPACE }, data: {} });
  const core = kc.makeApiClient(CoreV1Api);
  cms = informer(listWatch<V1ConfigMap>(kc, builtInResources.configMaps, { namespace: NAMESPACE }), {
    reflector: fast,
    name: 'configmaps',
  });
  missing = informer(
    listWatch<V1ConfigMap>(kc, {
      group: 'example.com',
      version: 'v1',
      plural: 'widgets',
      namespaced: true,
      kind: 'Widget',
    }),
    { reflector: fast, name: 'widgets' },
  );
  const stuck = new Promise<void>((resolve) => (release = resolve));
  ctl = controller({
    name: 'configmaps',
    for: cms,
    concurrency: 3,
    reconcile: async (key, ctx) => {
      const name = ctx.object?.metadata?.name ?? '';
      if (name === 'stuck') return stuck;
      if (name.startsWith('bad-')) throw new Error(`cannot reconcile ${key}`);
      if (name.startsWith('good-') && ctx.object?.metadata?.labels?.['seen'] !== 'yes') {
        await ctx.track(
          core.patchNamespacedConfigMap({
            name,
            namespace: NAMESPACE,
            body: [{ op: 'add', path: '/metadata/labels', value: { seen: 'yes' } }],
          }),
        );
      }
    },
  });
  holder = leaderElection({
    lock: leaseLock(kc, NAMESPACE, 'configmaps-controller'),
    identity: 'elsewhere',
    leaseDuration: 15_000,
    renewDeadline: 10_000,
    retryPeriod: 2_000,
  });
  standby = leaderElection({
    lock: leaseLock(kc, NAMESPACE, 'configmaps-controller'),
    identity: 'here',
    leaseDuration: 15_000,
    renewDeadline: 10_000,
    retryPeriod: 2_000,
  });
  metrics.addController(ctl);
  metrics.addInformer(cms, { name: 'configmaps', group: '', version: 'v1', resource: 'configmaps' });
  metrics.addInformer(missing, { name: 'widgets', group: 'example.com', version: 'v1', resource: 'widgets' });
  metrics.addLeaderElector(standby);
  holder.start();
  await waitFor(() => holder!.isLeader(), 'the other replica to lead', 10_000);
  standby.start();
  missing.start();
  ctl.start();

  const port = await freePort();
  promUrl = `http://127.0.0.1:${port}`;
  const rules = join(dir, 'rules.yaml');
  // Same expressions as observability/alerting-rules.yaml; thresholds a test can reach.
  writeFileSync(
    rules,
    toYaml(alertingRules({ stuckQueueSeconds: 2, for: '0s', noLeaderFor: '0s', unsyncedFor: '0s' })),
  );
  writeFileSync(
    join(dir, 'prometheus.yml'),
    toYaml({
      global: { scrape_interval: '1s', evaluation_interval: '1s' },
      rule_files: [rules],
      scrape_configs: [
        {
          job_name: JOB,
          static_configs: [{ targets: [`127.0.0.1:${metricsPort}`], labels: { namespace: NAMESPACE } }],
        },
      ],
    }),
  );
  prom = spawn(
    join(bin, 'prometheus'),
    [
      `--config.file=${join(dir, 'prometheus.yml')}`,
      `--storage.tsdb.path=${join(dir, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
      '--log.level=warn',
    ],
    {
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  let stderr = '';
  prom.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  let ready = false;
  const deadline = Date.now() + 30_000;
  while (!ready && Date.now() < deadline && prom.exitCode === null) {
    ready = await fetch(`${promUrl}/-/ready`).then(
      (r) => r.ok,
      () => false,
    );
    if (!ready) await new Promise((r) => setTimeout(r, 100));
  }
  if (!ready) throw new Error(`prometheus did not become ready: ${stderr}`);
}, 90_000);

afterAll(async () => {
  release?.();
  if (prom && prom.exitCode === null) {
    const exited = new Promise((r) => prom!.once('exit', r));
    prom.kill('SIGTERM');
    await exited;
  }
  await ctl?.stop();
  await Promise.all([cms?.stop(), missing?.stop(), standby?.stop(), holder?.stop()]);
  await new Promise((r) => metricsServer?.close(r));
  await api?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
}, 60_000);

describe("a real Prometheus evaluates rxkube's dashboard and alerts", () => {
  it('promtool accepts the rules file observability/ ships, and it is what the generators write', async () => {
    const rules = join(dir, 'shipped-rules.yaml');
    writeFileSync(rules, observabilityFiles()['alerting-rules.yaml']);
    const { stdout } = await execFileP(join(bin, 'promtool'), ['check', 'rules', rules]);
    expect(stdout).toContain(`SUCCESS: ${alertingRules().groups[0].rules.length} rules found`);
  });

  it('every dashboard query evaluates without error and returns series for this scenario', async () => {
    const queries = dashboardRows().flatMap((row) =>
      row.panels.flatMap((p) =>
        p.queries.map((q) => ({ panel: `${row.title} / ${p.title}`, expr: substitute(q.expr) })),
      ),
    );
    expect(queries.length).toBeGreaterThan(20);
    const answers = new Map<string, QueryAnswer>();
    const empty = () => queries.filter((q) => !answers.get(q.expr)?.data?.result.length);
    // Rates need two scrapes; quantiles need an observation in the window.
    const deadline = Date.now() + 45_000;
    while (empty().length > 0 && Date.now() < deadline) {
      for (const q of empty()) answers.set(q.expr, await query(q.expr));
      if (empty().length > 0) await new Promise((r) => setTimeout(r, 500));
    }
    for (const q of queries)
      expect({
        panel: q.panel,
        status: answers.get(q.expr)?.status,
        error: answers.get(q.expr)?.error,
      }).toEqual({ panel: q.panel, status: 'success', error: undefined });
    expect(empty().map((q) => `${q.panel}: ${q.expr}`)).toEqual([]);
  }, 60_000);

  it('the scenario fires the stuck queue, no leader, failing reconciles and unsynced informer alerts; every alert expression evaluates', async () => {
    const expected = [
      'RxkubeInformerUnsynced',
      'RxkubeNoLeader',
      'RxkubeReconcileErrors',
      'RxkubeWorkQueueStuck',
    ];
    let firing: string[] = [];
    const deadline = Date.now() + 45_000;
    while (Date.now() < deadline) {
      const res = (await (await fetch(`${promUrl}/api/v1/alerts`)).json()) as {
        data: { alerts: ReadonlyArray<{ labels: Record<string, string>; state: string }> };
      };
      firing = [
        ...new Set(res.data.alerts.filter((a) => a.state === 'firing').map((a) => a.labels.alertname)),
      ].sort();
      if (expected.every((a) => firing.includes(a))) break;
      await new Promise((r) => setTimeout(r, 500));
    }
    expect(firing).toEqual(expect.arrayContaining(expected));
    const unsynced = await query('rxkube_informer_synced == 0');
    expect(unsynced.data?.result.map((r) => r.metric.resource)).toEqual(['widgets']);
    for (const rule of alertingRules().groups[0].rules) {
      const answer = await query(rule.expr);
      expect({ alert: rule.alert, status: answer.status, error: answer.error }).toEqual({
        alert: rule.alert,
        status: 'success',
        error: undefined,
      });
    }
  }, 60_000);
});
