// The Grafana dashboard of rxkube's metrics, as data, in the conventions of kubebuilder's Grafana
// plugin for controller-runtime metrics (a `DS_PROMETHEUS` input, `job` and `namespace` variables,
// one row per subsystem, 5m rates, P50/P90/P99 from the histograms), so a team that runs Go
// operators reads it the same way. observability/grafana-dashboard.json is this object, written.

/**
 * One Prometheus query of a panel: the expression (with `$job` and `$namespace`) and its legend.
 *
 * @example
 * ```ts
 * const q: DashboardQuery = { expr: 'sum(rate(workqueue_adds_total{job="$job"}[5m])) by (name)', legend: '{{name}}' };
 * ```
 */
export interface DashboardQuery {
  readonly expr: string;
  readonly legend: string;
}

/**
 * A panel as {@link grafanaDashboard} lays it out: a time series, a gauge or a stat.
 *
 * @example
 * ```ts
 * const p: DashboardPanel = { title: 'Queue depth', kind: 'timeseries', unit: 'short', queries: [] };
 * ```
 */
export interface DashboardPanel {
  readonly title: string;
  readonly description?: string;
  readonly kind: 'timeseries' | 'gauge' | 'stat';
  readonly unit: string;
  readonly queries: ReadonlyArray<DashboardQuery>;
}

/**
 * A row of panels.
 *
 * @example
 * ```ts
 * const row: DashboardRow = { title: 'Work queue', panels: [] };
 * ```
 */
export interface DashboardRow {
  readonly title: string;
  readonly panels: ReadonlyArray<DashboardPanel>;
}

/**
 * Options of {@link grafanaDashboard}.
 *
 * @example
 * ```ts
 * const options: GrafanaDashboardOptions = { title: 'My operator', uid: 'my-operator' };
 * ```
 */
export interface GrafanaDashboardOptions {
  /** Default `rxkube controllers`. */
  readonly title?: string;
  /** Default `rxkube-controllers`. */
  readonly uid?: string;
}

/** The label matcher every query carries: the scrape job and the namespace of the pods. */
export const DASHBOARD_SELECTOR = 'job="$job", namespace="$namespace"';

const sel = (extra = ''): string => `{${DASHBOARD_SELECTOR}${extra ? `, ${extra}` : ''}}`;
const rate = (metric: string, by: string, extra = ''): string =>
  `sum(rate(${metric}${sel(extra)}[5m])) by (${by})`;
const quantiles = (histogram: string, by: string, legend: string): DashboardQuery[] =>
  [0.5, 0.9, 0.99].map((q) => ({
    expr: `histogram_quantile(${q}, sum(rate(${histogram}_bucket${sel()}[5m])) by (${by}, le))`,
    legend: `P${Math.round(q * 100)} ${legend}`,
  }));

/**
 * The rows of rxkube's dashboard: reconciliation, work queue, informers, read-your-own-writes and
 * leader election, each panel with its queries. {@link grafanaDashboard} lays them out.
 *
 * @example
 * ```ts
 * for (const row of dashboardRows()) console.log(row.title, row.panels.length);
 * ```
 */
export function dashboardRows(): DashboardRow[] {
  return [
    {
      title: 'Reconciliation',
      panels: [
        {
          title: 'Workers in use',
          kind: 'gauge',
          unit: 'short',
          queries: [
            { expr: `controller_runtime_active_workers${sel()}`, legend: '{{controller}} {{instance}}' },
          ],
        },
        {
          title: 'Reconciles per second by result',
          description: 'controller_runtime_reconcile_total: success, error, requeue, requeue_after',
          kind: 'timeseries',
          unit: 'ops',
          queries: [
            {
              expr: rate('controller_runtime_reconcile_total', 'controller, result'),
              legend: '{{controller}} {{result}}',
            },
          ],
        },
        {
          title: 'Reconcile errors per second',
          description:
            'Errors (retried with backoff), terminal errors (not retried) and reconciles past reconcileTimeout',
          kind: 'timeseries',
          unit: 'ops',
          queries: [
            {
              expr: rate('controller_runtime_reconcile_errors_total', 'controller'),
              legend: 'errors {{controller}}',
            },
            {
              expr: rate('controller_runtime_terminal_reconcile_errors_total', 'controller'),
              legend: 'terminal {{controller}}',
            },
            {
              expr: rate('controller_runtime_reconcile_timeouts_total', 'controller'),
              legend: 'timeouts {{controller}}',
            },
          ],
        },
        {
          title: 'Reconcile duration (P50, P90, P99)',
          kind: 'timeseries',
          unit: 's',
          queries: quantiles('controller_runtime_reconcile_time_seconds', 'controller', '{{controller}}'),
        },
      ],
    },
    {
      title: 'Work queue',
      panels: [
        {
          title: 'Depth by priority',
          description: 'Keys waiting, by priority level (initial lists and unchanged resyncs go at -100)',
          kind: 'timeseries',
          unit: 'short',
          queries: [
            {
              expr: `sum(workqueue_depth${sel()}) by (name, priority)`,
              legend: '{{name}} priority {{priority}}',
            },
          ],
        },
        {
          title: 'Adds per second',
          kind: 'timeseries',
          unit: 'ops',
          queries: [{ expr: rate('workqueue_adds_total', 'name'), legend: '{{name}}' }],
        },
        {
          title: 'Retries per second',
          kind: 'timeseries',
          unit: 'ops',
          queries: [{ expr: rate('workqueue_retries_total', 'name'), legend: '{{name}}' }],
        },
        {
          title: 'Time in queue (P50, P90, P99)',
          kind: 'timeseries',
          unit: 's',
          queries: quantiles('workqueue_queue_duration_seconds', 'name', '{{name}}'),
        },
        {
          title: 'Work duration (P50, P90, P99)',
          kind: 'timeseries',
          unit: 's',
          queries: quantiles('workqueue_work_duration_seconds', 'name', '{{name}}'),
        },
        {
          title: 'Work in progress',
          description:
            'Seconds of unfinished work and the longest running reconcile: large values mean stuck workers',
          kind: 'timeseries',
          unit: 's',
          queries: [
            {
              expr: `sum(workqueue_unfinished_work_seconds${sel()}) by (name)`,
              legend: 'unfinished {{name}}',
            },
            {
              expr: `max(workqueue_longest_running_processor_seconds${sel()}) by (name)`,
              legend: 'longest {{name}}',
            },
          ],
        },
      ],
    },
    {
      title: 'Informers',
      panels: [
        {
          title: 'Synced',
          description: '1 once the first list is stored and distributed',
          kind: 'stat',
          unit: 'short',
          queries: [{ expr: `min(rxkube_informer_synced${sel()}) by (resource)`, legend: '{{resource}}' }],
        },
        {
          title: 'Informer lag',
          description: 'Age of the oldest notification a handler has not handled, and how many wait',
          kind: 'timeseries',
          unit: 's',
          queries: [
            { expr: `max(rxkube_informer_lag_seconds${sel()}) by (resource)`, legend: 'oldest {{resource}}' },
            { expr: `sum(informer_queued_items${sel()}) by (resource)`, legend: 'queued {{resource}}' },
          ],
        },
        {
          title: 'List/watch errors per second by action',
          description:
            'What the reflector did: relist, rewatch, listFromLatest, restartWatchList, fallbackToList',
          kind: 'timeseries',
          unit: 'ops',
          queries: [
            {
              expr: rate('rxkube_informer_list_watch_errors_total', 'resource, action'),
              legend: '{{resource}} {{action}}',
            },
          ],
        },
        {
          title: 'Objects in store',
          kind: 'timeseries',
          unit: 'short',
          queries: [
            { expr: `max(rxkube_informer_store_items${sel()}) by (resource)`, legend: '{{resource}}' },
          ],
        },
      ],
    },
    {
      title: 'Read your own writes',
      panels: [
        {
          title: 'Wait for own writes (P50, P90, P99)',
          kind: 'timeseries',
          unit: 's',
          queries: quantiles('rxkube_controller_own_writes_wait_seconds', 'controller', '{{controller}}'),
        },
        {
          title: 'Own-write timeouts per second',
          description: 'Reconciles that went ahead before the cache showed their own last write',
          kind: 'timeseries',
          unit: 'ops',
          queries: [
            {
              expr: rate('rxkube_controller_own_writes_timeouts_total', 'controller'),
              legend: '{{controller}}',
            },
          ],
        },
      ],
    },
    {
      title: 'Leader election',
      panels: [
        {
          title: 'Leading replicas',
          description: 'How many replicas lead each lock (1 is healthy, 0 is no leader)',
          kind: 'stat',
          unit: 'short',
          queries: [{ expr: `sum(leader_election_master_status${sel()}) by (name)`, legend: '{{name}}' }],
        },
        {
          title: 'Leader by replica',
          kind: 'timeseries',
          unit: 'short',
          queries: [
            {
              expr: `max(leader_election_master_status${sel()}) by (name, instance)`,
              legend: '{{name}} {{instance}}',
            },
          ],
        },
      ],
    },
  ];
}

const DATASOURCE = '${DS_PROMETHEUS}';
const WIDTH = 24;

function panelJson(p: DashboardPanel, id: number, x: number, y: number, w: number): object {
  return {
    datasource: DATASOURCE,
    ...(p.description ? { description: p.description } : {}),
    fieldConfig: {
      defaults: {
        unit: p.unit,
        ...(p.kind === 'timeseries'
          ? { custom: { fillOpacity: 10, lineWidth: 1, showPoints: 'never' } }
          : {}),
      },
      overrides: [],
    },
    gridPos: { h: 8, w, x, y },
    id,
    options:
      p.kind === 'timeseries'
        ? {
            legend: { calcs: ['max', 'mean'], displayMode: 'table', placement: 'bottom', showLegend: true },
            tooltip: { mode: 'multi', sort: 'none' },
          }
        : { reduceOptions: { calcs: ['lastNotNull'], fields: '', values: false } },
    targets: p.queries.map((q, i) => ({
      datasource: DATASOURCE,
      expr: q.expr,
      legendFormat: q.legend,
      refId: String.fromCharCode(65 + i),
    })),
    title: p.title,
    type: p.kind,
  };
}

const variable = (name: string, query: string): object => ({
  datasource: DATASOURCE,
  definition: query,
  hide: 0,
  includeAll: false,
  label: name,
  multi: false,
  name,
  options: [],
  query: { query, refId: `${name}-query` },
  refresh: 2,
  sort: 1,
  type: 'query',
});

/**
 * rxkube's Grafana dashboard (import it in Grafana, or use observability/grafana-dashboard.json):
 * reconciles, the work queue by priority, informer sync, lag and relists, read-your-own-writes
 * waits and leader election, for the metrics `prometheusMetrics` registers.
 *
 * @example
 * ```ts
 * import { writeFileSync } from 'node:fs';
 * import { grafanaDashboard } from 'rxkube/prometheus';
 *
 * writeFileSync('dashboard.json', JSON.stringify(grafanaDashboard({ title: 'Backups' }), null, 2));
 * ```
 */
export function grafanaDashboard(options: GrafanaDashboardOptions = {}): object {
  const panels: object[] = [];
  let id = 1;
  let y = 0;
  for (const row of dashboardRows()) {
    panels.push({
      collapsed: false,
      gridPos: { h: 1, w: WIDTH, x: 0, y },
      id: id++,
      panels: [],
      title: row.title,
      type: 'row',
    });
    y += 1;
    const perLine = row.panels.length === 4 ? 4 : Math.min(3, row.panels.length);
    const w = WIDTH / perLine;
    row.panels.forEach((p, i) => {
      panels.push(panelJson(p, id++, (i % perLine) * w, y + Math.floor(i / perLine) * 8, w));
    });
    y += Math.ceil(row.panels.length / perLine) * 8;
  }
  return {
    __inputs: [
      {
        name: 'DS_PROMETHEUS',
        label: 'Prometheus',
        description: '',
        type: 'datasource',
        pluginId: 'prometheus',
        pluginName: 'Prometheus',
      },
    ],
    __requires: [{ type: 'datasource', id: 'prometheus', name: 'Prometheus', version: '1.0.0' }],
    annotations: { list: [] },
    description:
      'rxkube controllers: reconciles, work queues, informers, read-your-own-writes and leader election (controller-runtime and client-go metric names).',
    editable: true,
    graphTooltip: 1,
    links: [],
    panels,
    refresh: '30s',
    schemaVersion: 39,
    tags: ['rxkube', 'controller-runtime', 'kubernetes'],
    templating: {
      list: [
        variable('job', 'label_values(controller_runtime_reconcile_total, job)'),
        variable('namespace', 'label_values(controller_runtime_reconcile_total{job="$job"}, namespace)'),
      ],
    },
    time: { from: 'now-1h', to: 'now' },
    timezone: '',
    title: options.title ?? 'rxkube controllers',
    uid: options.uid ?? 'rxkube-controllers',
    version: 1,
  };
}
