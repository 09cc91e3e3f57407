import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { load } from 'js-yaml';
import { alertingRules, grafanaDashboard } from '../../lib/prometheus/index.js';
import { observabilityFiles } from '../../lib/prometheus/observabilityFiles.js';

describe('observability/: the shipped dashboard and rules are what rxkube/prometheus generates', () => {
  it.each(Object.keys(observabilityFiles()))('%s is current (npm run observability rewrites it)', (name) => {
    expect(readFileSync(join(process.cwd(), 'observability', name), 'utf8')).toBe(observabilityFiles()[name]);
  });

  it('the YAML reads back as the rules and the PrometheusRule objects', () => {
    expect(load(observabilityFiles()['alerting-rules.yaml'])).toEqual(alertingRules());
    const rule = load(observabilityFiles()['prometheus-rule.yaml']) as { kind: string; spec: unknown };
    expect(rule.kind).toBe('PrometheusRule');
    expect(rule.spec).toEqual(alertingRules());
  });

  it("every panel query selects the dashboard's job and namespace, and panel ids are unique", () => {
    const dashboard = grafanaDashboard() as {
      panels: Array<{ id: number; type: string; targets?: Array<{ expr: string }> }>;
    };
    const ids = dashboard.panels.map((p) => p.id);
    expect(new Set(ids).size).toBe(ids.length);
    const exprs = dashboard.panels.flatMap((p) => p.targets ?? []).map((t) => t.expr);
    for (const expr of exprs) expect(expr).toContain('job="$job", namespace="$namespace"');
  });
});
