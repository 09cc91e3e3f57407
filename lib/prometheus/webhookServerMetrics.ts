import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { WebhookServerMetric, WebhookServerStats } from '../webhooks/webhookServerMetrics.js';
import type { Observable } from 'rxjs';

/**
 * What {@link prometheusMetrics}' `addWebhookServer` reads of a webhook server: its metric events
 * and its in-flight counts. Every rxkube/webhooks `WebhookServer` fits.
 *
 * @example
 * ```ts
 * const source: WebhookServerMetricsSource = server;
 * ```
 */
export interface WebhookServerMetricsSource {
  readonly metrics$: Observable<WebhookServerMetric>;
  stats(): WebhookServerStats;
}

// controller-runtime's webhook latency buckets: ExponentialBuckets(10e-9, 10, 12).
const LATENCY_BUCKETS = Array.from({ length: 12 }, (_, i) => 1e-8 * 10 ** i);

/**
 * Internal: controller-runtime's webhook metrics (`controller_runtime_webhook_*`, label `webhook` =
 * the path) and its certwatcher's read counters, registered on first use.
 */
export function webhookServerMetrics(registers: Registry[]): (server: WebhookServerMetricsSource) => () => void {
  const servers = new Set<WebhookServerMetricsSource>();
  let metrics: ReturnType<typeof create> | undefined;
  const create = () => ({
    latency: new Histogram({ name: 'controller_runtime_webhook_latency_seconds', help: 'Histogram of the latency of processing admission requests', labelNames: ['webhook'], buckets: LATENCY_BUCKETS, registers }),
    requests: new Counter({ name: 'controller_runtime_webhook_requests_total', help: 'Total number of admission requests by HTTP status code.', labelNames: ['webhook', 'code'], registers }),
    inFlight: new Gauge({
      name: 'controller_runtime_webhook_requests_in_flight',
      help: 'Current number of admission requests being served.',
      labelNames: ['webhook'],
      registers,
      collect() {
        for (const s of servers) for (const [webhook, n] of s.stats().inFlight) this.set({ webhook }, n);
      },
    }),
    panics: new Counter({ name: 'controller_runtime_webhook_panics_total', help: 'Total number of webhook panics', registers }),
    conversionPanics: new Counter({ name: 'controller_runtime_conversion_webhook_panics_total', help: 'Total number of conversion webhook panics', registers }),
    certificateReads: new Counter({ name: 'certwatcher_read_certificate_total', help: 'Total number of certificate reads', registers }),
    certificateErrors: new Counter({ name: 'certwatcher_read_certificate_errors_total', help: 'Total number of certificate read errors', registers }),
  });
  return (server) => {
    const m = (metrics ??= create());
    // Zero series, as controller-runtime initialises them.
    m.panics.inc(0);
    m.conversionPanics.inc(0);
    for (const webhook of server.stats().paths) {
      m.requests.inc({ webhook, code: '200' }, 0);
      m.requests.inc({ webhook, code: '500' }, 0);
      m.inFlight.set({ webhook }, 0);
    }
    servers.add(server);
    const sub = server.metrics$.subscribe((e) => {
      if (e.type === 'request') {
        m.requests.inc({ webhook: e.webhook, code: String(e.code) });
        m.latency.observe({ webhook: e.webhook }, e.seconds);
      } else if (e.type === 'panic') (e.webhookType === 'conversion' ? m.conversionPanics : m.panics).inc();
      else {
        m.certificateReads.inc();
        if (e.failed) m.certificateErrors.inc();
      }
    });
    return () => {
      sub.unsubscribe();
      servers.delete(server);
      for (const webhook of server.stats().paths) m.inFlight.remove({ webhook });
    };
  };
}
