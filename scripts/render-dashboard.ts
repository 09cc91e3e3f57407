// Draws docs/images/dashboard.png: rxkube's Grafana dashboard (its rows, panels and queries, as
// grafanaDashboard lays them out) over a real Prometheus that scraped the scenario of
// spec/prometheus/prometheusScenario.ts for a while, rendered as SVG and screenshotted by Debian's
// Chromium (headless). Grafana itself is not needed: the picture shows what the queries answer.
// usage: npx tsx --tsconfig tsconfig.spec.json scripts/render-dashboard.ts [seconds=90] [out.png]
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { dashboardRows, type DashboardPanel } from '../lib/prometheus/index.js';
import { startPrometheusScenario, substitute } from '../spec/prometheus/prometheusScenario.js';

const seconds = Number(process.argv[2] ?? 90);
const out = resolve(process.argv[3] ?? join('docs', 'images', 'dashboard.png'));
type Series = { readonly label: string; readonly points: ReadonlyArray<[number, number]> };
const COLORS = ['#73bf69', '#f2cc0c', '#8ab8ff', '#ff780a', '#f2495c', '#5794f2', '#b877d9', '#fade2a'];

const legendOf = (template: string, metric: Record<string, string>) =>
  template.replace(/\{\{(\w+)\}\}/g, (_m, k: string) => metric[k] ?? '').trim();

function chart(panel: DashboardPanel, series: ReadonlyArray<Series>, w: number, h: number): string {
  const all = series.flatMap((s) => s.points.filter(([, v]) => Number.isFinite(v)));
  if (panel.kind !== 'timeseries') {
    const rows = series.map(
      (s, i) =>
        `<text x="${w / 2}" y="${50 + i * 60}" font-size="30" text-anchor="middle" fill="${COLORS[i % COLORS.length]}">${fmt(s.points.at(-1)?.[1])}</text><text x="${w / 2}" y="${66 + i * 60}" font-size="11" text-anchor="middle" fill="#aaa">${esc(s.label)}</text>`,
    );
    return `<svg width="${w}" height="${h}">${rows.join('')}</svg>`;
  }
  if (all.length === 0)
    return `<svg width="${w}" height="${h}"><text x="${w / 2}" y="${h / 2}" fill="#777" text-anchor="middle">No data</text></svg>`;
  const [t0, t1] = [Math.min(...all.map((p) => p[0])), Math.max(...all.map((p) => p[0]))];
  const vmax = Math.max(...all.map((p) => p[1]), 1e-9);
  const x = (t: number) => 36 + ((t - t0) / Math.max(t1 - t0, 1)) * (w - 46);
  const y = (v: number) => 10 + (1 - v / vmax) * (h - 60);
  const lines = series.map((s, i) => {
    const pts = s.points
      .filter(([, v]) => Number.isFinite(v))
      .map(([t, v]) => `${x(t).toFixed(1)},${y(v).toFixed(1)}`);
    return `<polyline fill="none" stroke="${COLORS[i % COLORS.length]}" stroke-width="1.6" points="${pts.join(' ')}"/>`;
  });
  const grid = [0, 0.5, 1].map(
    (f) =>
      `<line x1="36" x2="${w - 10}" y1="${y(vmax * f)}" y2="${y(vmax * f)}" stroke="#333"/><text x="32" y="${y(vmax * f) + 4}" font-size="10" text-anchor="end" fill="#999">${fmt(vmax * f)}</text>`,
  );
  const legend = series
    .slice(0, 4)
    .map(
      (s, i) =>
        `<text x="${40 + (i % 2) * ((w - 40) / 2)}" y="${h - 30 + Math.floor(i / 2) * 14}" font-size="10" fill="${COLORS[i % COLORS.length]}">■ <tspan fill="#ccc">${esc(s.label.slice(0, 40))}</tspan></text>`,
    );
  return `<svg width="${w}" height="${h}">${grid.join('')}${lines.join('')}${legend.join('')}</svg>`;
}

const esc = (s: string) => s.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
const fmt = (v: number | undefined) =>
  v === undefined || !Number.isFinite(v)
    ? '–'
    : Math.abs(v) >= 100
      ? v.toFixed(0)
      : Math.abs(v) >= 1
        ? v.toFixed(2)
        : v.toPrecision(2);

async function main(): Promise<void> {
  const scenario = await startPrometheusScenario({});
  try {
    const start = Date.now() / 1000;
    for (let i = 0; i < seconds / 3; i++) {
      scenario.churn('good', 3);
      if (i % 2 === 0) scenario.churn('bad', 1);
      await new Promise((r) => setTimeout(r, 3000));
    }
    const end = Date.now() / 1000;
    const range = async (expr: string, legend: string): Promise<Series[]> => {
      const q = new URLSearchParams({
        query: substitute(expr).replaceAll('[5m]', '[30s]'),
        start: String(start),
        end: String(end),
        step: '2',
      });
      const res = (await (await fetch(`${scenario.promUrl}/api/v1/query_range?${q}`)).json()) as {
        data: { result: Array<{ metric: Record<string, string>; values: Array<[number, string]> }> };
      };
      return res.data.result.map((r) => ({
        label: legendOf(legend, r.metric),
        points: r.values.map(([t, v]) => [t, Number(v)] as [number, number]),
      }));
    };
    const cells: string[] = [];
    for (const row of dashboardRows()) {
      cells.push(`<div class="row">${esc(row.title)}</div>`);
      const span = row.panels.length === 4 ? 6 : 24 / Math.min(3, row.panels.length);
      for (const p of row.panels) {
        const series = (await Promise.all(p.queries.map((q) => range(q.expr, q.legend)))).flat();
        const w = span * 58 - 12;
        cells.push(
          `<div class="panel" style="grid-column: span ${span}"><div class="title">${esc(p.title)}</div>${chart(p, series, w, 170)}</div>`,
        );
      }
    }
    const html = `<!doctype html><html><head><meta charset="utf-8"><style>
      body { margin: 0; background: #111217; font-family: 'Liberation Sans', sans-serif; color: #ccc; width: 1392px; }
      h1 { font-size: 18px; font-weight: 500; margin: 12px 16px; } .grid { display: grid; grid-template-columns: repeat(24, 1fr); gap: 8px; padding: 0 12px 12px; }
      .row { grid-column: span 24; font-size: 14px; font-weight: 600; padding: 8px 4px 0; border-bottom: 1px solid #2a2d35; }
      .panel { background: #181b1f; border: 1px solid #2a2d35; border-radius: 3px; padding: 6px; } .title { font-size: 12px; font-weight: 600; margin-bottom: 4px; }
      </style></head><body><h1>rxkube controllers · job=rxkube · namespace=rxkube-test · last ${Math.round(end - start)} s</h1><div class="grid">${cells.join('')}</div></body></html>`;
    const page = join(scenario.workDir, 'dashboard.html');
    writeFileSync(page, html);
    mkdirSync(dirname(out), { recursive: true });
    execFileSync(
      'chromium',
      [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--hide-scrollbars',
        `--user-data-dir=${join(scenario.workDir, 'chromium')}`,
        '--window-size=1392,1540',
        `--screenshot=${out}`,
        `file://${page}`,
      ],
      { stdio: 'inherit', timeout: 60_000 },
    );
    console.log(`wrote ${out}`);
  } finally {
    await scenario.close();
  }
}

await main();
