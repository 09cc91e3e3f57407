// A scenario for a real Prometheus (Debian's package, via scripts/ensure-prometheus.sh): an rxkube
// controller against the fake API server, its /metrics on loopback, and Prometheus scraping it
// every second with rxkube's alerting rules. Used by realPrometheus.e2e.spec.ts and by
// scripts/render-dashboard.ts (docs/images/dashboard.png). Not a spec file.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CoreV1Api, type V1ConfigMap } from '@kubernetes/client-node';
import { Registry } from 'prom-client';
import '../../lib/transport/clientNode.js';
import { controller, type Controller } from '../../lib/controller/controller.js';
import { builtInResources } from '../../lib/factory/builtInResources.js';
import { informer, type Informer } from '../../lib/informer/informer.js';
import { leaderElection, type LeaderElector } from '../../lib/leaderelection/leaderElection.js';
import { leaseLock } from '../../lib/leaderelection/leaseLock.js';
import { listWatch } from '../../lib/listwatch/createListWatch.js';
import { alertingRules, prometheusMetrics, type AlertThresholds } from '../../lib/prometheus/index.js';
import { toYaml } from '../../lib/prometheus/yamlText.js';
import { startFakeApiServer, type FakeApiServer } from '../../lib/testing/index.js';
import { waitFor } from '../support/waitFor.js';

export const NAMESPACE = 'rxkube-test';
export const JOB = 'rxkube';
const fast = { random: () => 0, backoff: { initialMs: 50, capMs: 200, jitter: 0 } };

/** One answer of Prometheus' query API. */
export interface QueryAnswer {
  readonly status: string;
  readonly error?: string;
  readonly data?: {
    readonly result: ReadonlyArray<{
      readonly metric: Record<string, string>;
      readonly value: [number, string];
    }>;
  };
}

/** A running scenario: Prometheus' URL and binaries, and how to end it all. */
export interface PrometheusScenario {
  readonly promUrl: string;
  readonly binDir: string;
  readonly workDir: string;
  /** Prometheus' instant query. */
  query(expr: string): Promise<QueryAnswer>;
  /** Makes more ConfigMaps for the controller (`good-*` reconcile, `bad-*` fail). */
  churn(prefix: 'good' | 'bad', count: number): void;
  close(): Promise<void>;
}

/** The directory of prometheus and promtool: throws (never skips) when none can be had. */
export function prometheusBinDir(): string {
  try {
    const out = execFileSync('bash', [join(process.cwd(), 'scripts', 'ensure-prometheus.sh')], {
      encoding: 'utf8',
      timeout: 120_000,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    return out.trim().split('\n').pop()!;
  } catch (e) {
    const why = String((e as { stderr?: unknown }).stderr ?? e);
    throw new Error(
      `no prometheus binary: install Debian's prometheus package or set PROMETHEUS_BIN_DIR (scripts/ensure-prometheus.sh: ${why})`,
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

/** `$job` and `$namespace` of a dashboard query, as this scenario labels its scrape. */
export const substitute = (expr: string): string =>
  expr.replaceAll('$job', JOB).replaceAll('$namespace', NAMESPACE);

/**
 * Starts it: a ConfigMap controller whose `bad-*` keys fail, whose `stuck` key never returns until
 * close, and whose `good-*` keys write a label (read-your-own-writes waits); an informer of a
 * resource the server does not serve (never syncs); an elector standing by because another replica
 * (not reporting) holds the lock; Prometheus scraping all of it with rxkube's alerting rules at
 * `thresholds`.
 */
export async function startPrometheusScenario(thresholds: AlertThresholds): Promise<PrometheusScenario> {
  const binDir = prometheusBinDir();
  const workDir = mkdtempSync(join(tmpdir(), 'rxkube-prometheus-'));
  const closers: Array<() => unknown> = [() => rmSync(workDir, { recursive: true, force: true })];
  const close = async () => {
    for (const c of closers.reverse()) await c();
  };
  try {
    const api: FakeApiServer = await startFakeApiServer({ bookmarkIntervalMs: 0 });
    closers.push(() => api.close());
    api.create('namespaces', { metadata: { name: NAMESPACE } });
    const kc = api.kubeConfig();
    const registry = new Registry();
    const metrics = prometheusMetrics(registry);
    const metricsServer: Server = createServer((_req, res) => {
      void registry.metrics().then((text) => {
        res.writeHead(200, { 'Content-Type': registry.contentType });
        res.end(text);
      });
    });
    await new Promise<void>((resolve) => metricsServer.listen(0, '127.0.0.1', resolve));
    closers.push(() => new Promise((r) => metricsServer.close(r)));
    const metricsPort = (metricsServer.address() as AddressInfo).port;

    let made = 0;
    const churn = (prefix: 'good' | 'bad', count: number) => {
      for (let i = 0; i < count; i++)
        api.create('configmaps', {
          metadata: { name: `${prefix}-${made++}`, namespace: NAMESPACE },
          data: {},
        });
    };
    churn('good', 2);
    churn('bad', 2);
    api.create('configmaps', { metadata: { name: 'stuck', namespace: NAMESPACE }, data: {} });
    const core = kc.makeApiClient(CoreV1Api);
    const cms: Informer<V1ConfigMap> = informer(
      listWatch<V1ConfigMap>(kc, builtInResources.configMaps, { namespace: NAMESPACE }),
      { reflector: fast, name: 'configmaps' },
    );
    const widgets = {
      group: 'example.com',
      version: 'v1',
      plural: 'widgets',
      namespaced: true,
      kind: 'Widget',
    };
    const missing: Informer<V1ConfigMap> = informer(listWatch<V1ConfigMap>(kc, widgets), {
      reflector: fast,
      name: 'widgets',
    });
    let release: () => void = () => undefined;
    const stuck = new Promise<void>((resolve) => (release = resolve));
    const ctl: Controller = controller({
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
    const timings = { leaseDuration: 15_000, renewDeadline: 10_000, retryPeriod: 2_000 };
    const holder: LeaderElector = leaderElection({
      lock: leaseLock(kc, NAMESPACE, 'configmaps-controller'),
      identity: 'elsewhere',
      ...timings,
    });
    const standby: LeaderElector = leaderElection({
      lock: leaseLock(kc, NAMESPACE, 'configmaps-controller'),
      identity: 'here',
      ...timings,
    });
    closers.push(() => Promise.all([cms.stop(), missing.stop(), standby.stop(), holder.stop()]));
    closers.push(() => ctl.stop());
    closers.push(() => release());
    metrics.addController(ctl);
    metrics.addInformer(cms, { name: 'configmaps', group: '', version: 'v1', resource: 'configmaps' });
    metrics.addInformer(missing, {
      name: 'widgets',
      group: 'example.com',
      version: 'v1',
      resource: 'widgets',
    });
    metrics.addLeaderElector(standby);
    holder.start();
    await waitFor(() => holder.isLeader(), 'the other replica to lead', 10_000);
    standby.start();
    missing.start();
    ctl.start();

    const port = await freePort();
    const promUrl = `http://127.0.0.1:${port}`;
    const rules = join(workDir, 'rules.yaml');
    writeFileSync(rules, toYaml(alertingRules(thresholds)));
    const config = {
      global: { scrape_interval: '1s', evaluation_interval: '1s' },
      rule_files: [rules],
      scrape_configs: [
        {
          job_name: JOB,
          static_configs: [{ targets: [`127.0.0.1:${metricsPort}`], labels: { namespace: NAMESPACE } }],
        },
      ],
    };
    writeFileSync(join(workDir, 'prometheus.yml'), toYaml(config));
    const args = [
      `--config.file=${join(workDir, 'prometheus.yml')}`,
      `--storage.tsdb.path=${join(workDir, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
      '--log.level=warn',
    ];
    const prom: ChildProcess = spawn(join(binDir, 'prometheus'), args, {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    closers.push(async () => {
      if (prom.exitCode !== null || prom.signalCode !== null) return;
      const exited = new Promise((r) => prom.once('exit', r));
      prom.kill('SIGTERM');
      await exited;
    });
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
    const query = async (expr: string): Promise<QueryAnswer> =>
      (await (
        await fetch(`${promUrl}/api/v1/query?query=${encodeURIComponent(expr)}`)
      ).json()) as QueryAnswer;
    return { promUrl, binDir, workDir, query, churn, close };
  } catch (e) {
    await close();
    throw e;
  }
}
