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
export type { WebhookServerMetricsSource } from './webhookServerMetrics.js';
