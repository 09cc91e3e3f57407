// Prometheus alerting rules for rxkube's metrics. One source for the plain rules file (promtool,
// prometheus.yml `rule_files`) and the prometheus-operator PrometheusRule; the thresholds are
// options, so a test can run the same expressions with small numbers.

/**
 * The thresholds of {@link alertingRules}; every one has a production default.
 *
 * @example
 * ```ts
 * const t: AlertThresholds = { stuckQueueSeconds: 1200, errorRatio: 0.2 };
 * ```
 */
export interface AlertThresholds {
  /** A reconcile running this long, or keys waiting with no work done for this long: stuck. Default 600. */
  readonly stuckQueueSeconds?: number;
  /** Share of reconciles that fail, over 5 minutes, above which they are failing. Default 0.1. */
  readonly errorRatio?: number;
  /** How long a condition must hold before the alert fires (`for`). Default `15m` (`5m` for no leader). */
  readonly for?: string;
  /** How long a lock may have no leader. Default `5m`. */
  readonly noLeaderFor?: string;
  /** How long an informer may stay unsynced. Default `10m`. */
  readonly unsyncedFor?: string;
}

/**
 * One alerting rule, as Prometheus reads it.
 *
 * @example
 * ```ts
 * const r: AlertingRule = { alert: 'X', expr: 'up == 0', for: '5m', labels: { severity: 'warning' }, annotations: { summary: 'down' } };
 * ```
 */
export interface AlertingRule {
  readonly alert: string;
  readonly expr: string;
  readonly for: string;
  readonly labels: { readonly severity: 'warning' | 'critical' };
  readonly annotations: { readonly summary: string; readonly description: string };
}

/**
 * A Prometheus rules file's content (`groups`), for `rule_files` and `promtool check rules`.
 *
 * @example
 * ```ts
 * const file: RuleFile = { groups: [{ name: 'rxkube', rules: [] }] };
 * ```
 */
export interface RuleFile {
  readonly groups: ReadonlyArray<{ readonly name: string; readonly rules: ReadonlyArray<AlertingRule> }>;
}

const BY = 'namespace, job';

/**
 * rxkube's alerts: a stuck work queue, a lock without a leader, failing reconciles, an informer that
 * stays unsynced, reconciles that time out waiting for their own writes, and an informer that
 * relists over and over. Each description says what to look at.
 *
 * @example
 * ```ts
 * import { alertingRules } from 'rxkube/prometheus';
 *
 * const file = alertingRules({ stuckQueueSeconds: 1200 });
 * console.log(file.groups[0].rules.map((r) => r.alert));
 * ```
 */
export function alertingRules(thresholds: AlertThresholds = {}): RuleFile {
  const stuck = thresholds.stuckQueueSeconds ?? 600;
  const ratio = thresholds.errorRatio ?? 0.1;
  const forDefault = thresholds.for ?? '15m';
  const rules: AlertingRule[] = [
    {
      alert: 'RxkubeWorkQueueStuck',
      expr:
        `max by (${BY}, name) (workqueue_longest_running_processor_seconds) > ${stuck}` +
        ` or (sum by (${BY}, name) (workqueue_depth) > 0 unless sum by (${BY}, name) (increase(workqueue_work_duration_seconds_count[${stuck}s])) > 0)`,
      for: forDefault,
      labels: { severity: 'warning' },
      annotations: {
        summary: 'Work queue {{ $labels.name }} is stuck',
        description:
          'Queue {{ $labels.name }} in {{ $labels.namespace }} has a reconcile running for over ' +
          `${stuck}s, or keys waiting while no reconcile finished for ${stuck}s: look for a reconcile that never returns (set reconcileTimeout) or workers stopped by a lost lease.`,
      },
    },
    {
      alert: 'RxkubeNoLeader',
      expr: `max by (${BY}, name) (leader_election_master_status) == 0`,
      for: thresholds.noLeaderFor ?? '5m',
      labels: { severity: 'critical' },
      annotations: {
        summary: 'No replica leads {{ $labels.name }}',
        description:
          "Every replica reporting lock {{ $labels.name }} stands by: nothing reconciles. Check the Lease, the replicas' errors$ and RBAC on coordination.k8s.io leases.",
      },
    },
    {
      alert: 'RxkubeReconcileErrors',
      expr:
        `sum by (${BY}, controller) (rate(controller_runtime_reconcile_errors_total[5m]))` +
        ` / sum by (${BY}, controller) (rate(controller_runtime_reconcile_total[5m])) > ${ratio}`,
      for: forDefault,
      labels: { severity: 'warning' },
      annotations: {
        summary: 'Controller {{ $labels.controller }} fails reconciles',
        description: `More than ${ratio * 100}% of {{ $labels.controller }}'s reconciles fail: its errors$ (or log) says why for each key.`,
      },
    },
    {
      alert: 'RxkubeInformerUnsynced',
      expr: 'rxkube_informer_synced == 0',
      for: thresholds.unsyncedFor ?? '10m',
      labels: { severity: 'warning' },
      annotations: {
        summary: 'Informer {{ $labels.resource }} has not synced',
        description:
          'The informer of {{ $labels.resource }} ({{ $labels.group }}/{{ $labels.version }}) in {{ $labels.instance }} has not stored its first list: its controllers wait. rxkube_informer_list_watch_errors_total and the log say why (RBAC, an unserved resource, an unreachable server).',
      },
    },
    {
      alert: 'RxkubeOwnWritesTimeouts',
      expr: `sum by (${BY}, controller) (rate(rxkube_controller_own_writes_timeouts_total[10m])) > 0`,
      for: forDefault,
      labels: { severity: 'warning' },
      annotations: {
        summary: 'Controller {{ $labels.controller }} reconciles on stale reads',
        description:
          'Reconciles of {{ $labels.controller }} went ahead before the informers showed their own writes (readYourWritesTimeout): the watch lags; check informer lag and relists.',
      },
    },
    {
      alert: 'RxkubeInformerRelisting',
      expr: `sum by (${BY}, resource) (rate(rxkube_informer_list_watch_errors_total{action="relist"}[15m])) * 900 > 3`,
      for: forDefault,
      labels: { severity: 'warning' },
      annotations: {
        summary: 'Informer {{ $labels.resource }} relists over and over',
        description:
          'More than 3 relists of {{ $labels.resource }} in 15 minutes: each one lists every object again. The log says why (410 too old, network, 5xx).',
      },
    },
  ];
  return { groups: [{ name: 'rxkube', rules }] };
}

/**
 * The same rules as a prometheus-operator `PrometheusRule` (monitoring.coreos.com/v1).
 *
 * @example
 * ```ts
 * const rule = prometheusRule({ name: 'backup-controller', namespace: 'backups' });
 * ```
 */
export function prometheusRule(
  meta: {
    readonly name: string;
    readonly namespace?: string;
    readonly labels?: { readonly [k: string]: string };
  },
  thresholds?: AlertThresholds,
): object {
  return {
    apiVersion: 'monitoring.coreos.com/v1',
    kind: 'PrometheusRule',
    metadata: {
      name: meta.name,
      ...(meta.namespace ? { namespace: meta.namespace } : {}),
      ...(meta.labels ? { labels: { ...meta.labels } } : {}),
    },
    spec: alertingRules(thresholds),
  };
}
