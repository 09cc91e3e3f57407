// rxkube's Grafana dashboard and alerting rules, checked by a real Prometheus (Debian's package,
// via scripts/ensure-prometheus.sh): it scrapes an rxkube controller's /metrics on loopback while
// the controller runs against the fake API server (prometheusScenario.ts), then evaluates every
// dashboard query and every alert expression. The alerts run with the same expressions as
// observability/ and small thresholds (alertingRules' options), so that the scenario makes them
// fire within seconds. Waits are bounded polls on Prometheus' answers (never sleep-then-assert).
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { alertingRules, dashboardRows } from '../../lib/prometheus/index.js';
import { observabilityFiles } from '../../lib/prometheus/observabilityFiles.js';
import {
  startPrometheusScenario,
  substitute,
  type PrometheusScenario,
  type QueryAnswer,
} from './prometheusScenario.js';

const execFileP = promisify(execFile);
let scenario: PrometheusScenario;

beforeAll(async () => {
  scenario = await startPrometheusScenario({
    stuckQueueSeconds: 2,
    for: '0s',
    noLeaderFor: '0s',
    unsyncedFor: '0s',
  });
}, 90_000);

afterAll(async () => {
  await scenario?.close();
}, 60_000);

describe("a real Prometheus evaluates rxkube's dashboard and alerts", () => {
  it('promtool accepts the rules file observability/ ships, and it is what the generators write', async () => {
    const rules = join(scenario.workDir, 'shipped-rules.yaml');
    writeFileSync(rules, observabilityFiles()['alerting-rules.yaml']);
    const { stdout } = await execFileP(join(scenario.binDir, 'promtool'), ['check', 'rules', rules]);
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
      for (const q of empty()) answers.set(q.expr, await scenario.query(q.expr));
      if (empty().length > 0) await new Promise((r) => setTimeout(r, 500));
    }
    for (const q of queries) {
      const a = answers.get(q.expr);
      expect({ panel: q.panel, status: a?.status, error: a?.error }).toEqual({
        panel: q.panel,
        status: 'success',
        error: undefined,
      });
    }
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
      const res = (await (await fetch(`${scenario.promUrl}/api/v1/alerts`)).json()) as {
        data: { alerts: ReadonlyArray<{ labels: Record<string, string>; state: string }> };
      };
      firing = [
        ...new Set(res.data.alerts.filter((a) => a.state === 'firing').map((a) => a.labels.alertname)),
      ].sort();
      if (expected.every((a) => firing.includes(a))) break;
      await new Promise((r) => setTimeout(r, 500));
    }
    expect(firing).toEqual(expect.arrayContaining(expected));
    const unsynced = await scenario.query('rxkube_informer_synced == 0');
    expect(unsynced.data?.result.map((r) => r.metric.resource)).toEqual(['widgets']);
    for (const rule of alertingRules().groups[0].rules) {
      const answer = await scenario.query(rule.expr);
      expect({ alert: rule.alert, status: answer.status, error: answer.error }).toEqual({
        alert: rule.alert,
        status: 'success',
        error: undefined,
      });
    }
  }, 60_000);
});
