/**
 * rxkube/prometheus: registers rxkube's work queue, controller and informer metrics on a prom-client
 * registry (prom-client is an optional peer dependency: install it to use this entry).
 * @packageDocumentation
 */
export {
  prometheusMetrics,
  type PrometheusMetrics,
  type InformerMetricsSource,
  type InformerMetricLabels,
} from './prometheusMetrics.js';
export {
  grafanaDashboard,
  dashboardRows,
  DASHBOARD_SELECTOR,
  type GrafanaDashboardOptions,
  type DashboardRow,
  type DashboardPanel,
  type DashboardQuery,
} from './grafanaDashboard.js';
export {
  alertingRules,
  prometheusRule,
  type AlertThresholds,
  type AlertingRule,
  type RuleFile,
} from './alertingRules.js';
export type { WebhookServerMetricsSource } from './webhookServerMetrics.js';
