import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { Controller } from '../controller/controller.js';
import type { WorkQueue } from '../workqueue/workQueue.js';
import type { LeaderElector } from '../leaderelection/leaderElection.js';
import { informerMetrics, type InformerMetricLabels, type InformerMetricsSource } from './informerMetrics.js';
import { webhookServerMetrics, type WebhookServerMetricsSource } from './webhookServerMetrics.js';

export type { InformerMetricLabels, InformerMetricsSource } from './informerMetrics.js';
import { leaderElectionMetrics } from './leaderElectionMetrics.js';
import type { Registers } from './registers.js';

/**
 * Adds rxkube's queues, controllers and informers to a prom-client registry; each `add...` returns
 * a function that removes what it added.
 *
 * @example
 * ```ts
 * const metrics = prometheusMetrics(registry);
 * const remove = metrics.addController(ctl);
 * ```
 */
export interface PrometheusMetrics {
  /** client-go's `workqueue_*` metrics, labels `name` and `controller` (the queue's name). */
  addWorkQueue(queue: WorkQueue<unknown>): () => void;
  /** controller-runtime's `controller_runtime_*` metrics (label `controller`), and its queue's. */
  addController(controller: Controller): () => void;
  /**
   * `informer_queued_items`, `informer_store_resource_version` (client-go), and rxkube's
   * `rxkube_informer_store_items`, `rxkube_informer_synced`, `rxkube_informer_lag_seconds` and
   * `rxkube_informer_list_watch_errors_total` (each with what the reflector did: relist, rewatch...).
   */
  addInformer(informer: InformerMetricsSource, labels: InformerMetricLabels): () => void;
  /** client-go's `leader_election_master_status` (label `name`: the lock's `namespace/name`): 1 while leading. */
  addLeaderElector(elector: LeaderElector): () => void;
  /**
   * controller-runtime's webhook metrics of an rxkube/webhooks server (label `webhook`: the path):
   * `controller_runtime_webhook_requests_total{webhook,code}`, `..._latency_seconds{webhook}`,
   * `..._requests_in_flight{webhook}`, `controller_runtime_webhook_panics_total`,
   * `controller_runtime_conversion_webhook_panics_total`, and certwatcher's
   * `certwatcher_read_certificate_total` / `..._errors_total`.
   */
  addWebhookServer(server: WebhookServerMetricsSource): () => void;
}

// client-go's workqueue buckets: ExponentialBuckets(10e-9, 10, 12).
const QUEUE_BUCKETS = Array.from({ length: 12 }, (_, i) => 1e-8 * 10 ** i);
// controller-runtime's reconcile_time_seconds buckets.
const RECONCILE_BUCKETS = [
  0.005, 0.01, 0.025, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0, 1.25,
  1.5, 1.75, 2.0, 2.5, 3.0, 3.5, 4.0, 4.5, 5, 6, 7, 8, 9, 10, 15, 20, 25, 30, 40, 50, 60,
];
const RESULTS = ['success', 'error', 'requeue', 'requeue_after'] as const;

/**
 * Registers the metrics of rxkube's work queues, controllers and informers on a prom-client
 * `Registry` you pass, under client-go's and controller-runtime's names, so existing dashboards
 * work. Counters and histograms follow the core's `metrics$`; gauges read `stats()` when scraped.
 * Counters start from the totals at the time of `add...`. Call it once per registry.
 *
 * `informer_queued_items` counts the notifications waiting in the informer's handler buffers (the
 * FIFO hands on each burst at once, so that is where rxkube's backlog is).
 *
 * @example
 * ```ts
 * import { Registry } from 'prom-client';
 * import { prometheusMetrics } from 'rxkube/prometheus';
 *
 * const registry = new Registry();
 * const metrics = prometheusMetrics(registry);
 * metrics.addController(ctl);
 * metrics.addInformer(deployments, { name: 'deployments', group: 'apps', version: 'v1', resource: 'deployments' });
 * const text = await registry.metrics();
 * ```
 */
export function prometheusMetrics(registry: Registry): PrometheusMetrics {
  const registers = [registry];
  const addWorkQueue = workQueueMetrics(registers);
  const addControllerOnly = controllerMetrics(registers);
  return {
    addWorkQueue,
    addController(controller) {
      const removeController = addControllerOnly(controller);
      const removeQueue = addWorkQueue(controller.queue as WorkQueue<unknown>);
      return () => {
        removeController();
        removeQueue();
      };
    },
    addInformer: informerMetrics(registers),
    addLeaderElector: leaderElectionMetrics(registers),
    addWebhookServer: webhookServerMetrics(registers),
  };
}

function workQueueMetrics(registers: Registers): (queue: WorkQueue<unknown>) => () => void {
  const queues = new Set<WorkQueue<unknown>>();
  const labelNames = ['name', 'controller'];
  const labelsOf = (queue: WorkQueue<unknown>) => ({ name: queue.name, controller: queue.name });
  const gauge = (name: string, help: string, read: (queue: WorkQueue<unknown>) => number) =>
    new Gauge({
      name,
      help,
      labelNames,
      registers,
      collect() {
        for (const queue of queues) this.set(labelsOf(queue), read(queue));
      },
    });
  // Depth per priority level, as controller-runtime's priority queue labels it; read at scrape,
  // so a level that emptied reads 0 until the next scrape drops it (an empty queue shows level 0).
  const depth = new Gauge({
    name: 'workqueue_depth',
    help: 'Current depth of the work queue.',
    labelNames: [...labelNames, 'priority'],
    registers,
    collect() {
      this.reset();
      for (const queue of queues) {
        const levels = queue.stats().depthByPriority;
        if (levels.size === 0) this.set({ ...labelsOf(queue), priority: '0' }, 0);
        for (const [priority, n] of levels) this.set({ ...labelsOf(queue), priority: String(priority) }, n);
      }
    },
  });
  const gauges = [
    gauge(
      'workqueue_unfinished_work_seconds',
      'Seconds of work in progress not yet observed by work_duration; large values indicate stuck workers.',
      (x) => x.stats().unfinishedWorkSeconds,
    ),
    gauge(
      'workqueue_longest_running_processor_seconds',
      'Seconds the longest running processor of the work queue has been running.',
      (x) => x.stats().longestRunningProcessorSeconds,
    ),
  ];
  const adds = new Counter({
    name: 'workqueue_adds_total',
    help: 'Total number of adds handled by the work queue.',
    labelNames,
    registers,
  });
  const retries = new Counter({
    name: 'workqueue_retries_total',
    help: 'Total number of retries handled by the work queue.',
    labelNames,
    registers,
  });
  const histogram = (name: string, help: string) =>
    new Histogram({ name, help, labelNames, buckets: QUEUE_BUCKETS, registers });
  const queueDuration = histogram(
    'workqueue_queue_duration_seconds',
    'Seconds an item stays in the work queue before being requested.',
  );
  const workDuration = histogram(
    'workqueue_work_duration_seconds',
    'Seconds processing an item from the work queue takes.',
  );
  return (queue) => {
    const labels = labelsOf(queue);
    queues.add(queue);
    const start = queue.stats();
    adds.inc(labels, start.addsTotal);
    retries.inc(labels, start.retriesTotal);
    const sub = queue.metrics$.subscribe((m) => {
      if (m.type === 'add') adds.inc(labels);
      else if (m.type === 'retry') retries.inc(labels);
      else if (m.type === 'get') queueDuration.observe(labels, m.queueSeconds);
      else workDuration.observe(labels, m.workSeconds);
    });
    return () => {
      sub.unsubscribe();
      queues.delete(queue);
      for (const g of gauges) g.remove(labels);
      depth.reset();
    };
  };
}

function controllerMetrics(registers: Registers): (controller: Controller) => () => void {
  const controllers = new Set<Controller>();
  const gauge = (name: string, help: string, read: (c: Controller) => number) =>
    new Gauge({
      name,
      help,
      labelNames: ['controller'],
      registers,
      collect() {
        for (const c of controllers) this.set({ controller: c.name }, read(c));
      },
    });
  const gauges = [
    gauge(
      'controller_runtime_active_workers',
      'Number of currently used workers per controller.',
      (c) => c.stats().activeWorkers,
    ),
    gauge(
      'controller_runtime_max_concurrent_reconciles',
      'Maximum number of concurrent reconciles per controller.',
      (c) => c.stats().maxConcurrentReconciles,
    ),
  ];
  const counter = (name: string, help: string, labelNames = ['controller']) =>
    new Counter({ name, help, labelNames, registers });
  const reconcileTotal = counter(
    'controller_runtime_reconcile_total',
    'Total number of reconciliations per controller.',
    ['controller', 'result'],
  );
  const reconcileErrors = counter(
    'controller_runtime_reconcile_errors_total',
    'Total number of reconciliation errors per controller.',
  );
  const terminalErrors = counter(
    'controller_runtime_terminal_reconcile_errors_total',
    'Total number of terminal reconciliation errors per controller.',
  );
  const timeouts = counter(
    'controller_runtime_reconcile_timeouts_total',
    'Total number of reconciliation timeouts per controller.',
  );
  const reconcileTime = new Histogram({
    name: 'controller_runtime_reconcile_time_seconds',
    help: 'Length of time per reconciliation per controller.',
    labelNames: ['controller'],
    buckets: RECONCILE_BUCKETS,
    registers,
  });
  const ownWritesWait = new Histogram({
    name: 'rxkube_controller_own_writes_wait_seconds',
    help: 'How long a key waited for the informers to show its own last writes before its next reconcile (read-your-own-writes).',
    labelNames: ['controller'],
    buckets: RECONCILE_BUCKETS,
    registers,
  });
  const ownWritesTimeouts = counter(
    'rxkube_controller_own_writes_timeouts_total',
    "Reconciles that went ahead on a cache that had not shown the key's own writes within readYourWritesTimeout.",
  );
  return (controller) => {
    const labels = { controller: controller.name };
    controllers.add(controller);
    const start = controller.stats();
    for (const result of RESULTS) reconcileTotal.inc({ ...labels, result }, start.reconcileTotal[result]);
    reconcileErrors.inc(labels, start.reconcileErrorsTotal);
    terminalErrors.inc(labels, start.terminalReconcileErrorsTotal);
    timeouts.inc(labels, start.reconcileTimeoutsTotal);
    ownWritesTimeouts.inc(labels, start.ownWritesTimeoutsTotal);
    const sub = controller.metrics$.subscribe((m) => {
      if (m.type === 'ownWritesWait') {
        ownWritesWait.observe(labels, m.seconds);
        if (m.timedOut) ownWritesTimeouts.inc(labels);
        return;
      }
      reconcileTotal.inc({ ...labels, result: m.result });
      if (m.result === 'error') reconcileErrors.inc(labels);
      if (m.terminal) terminalErrors.inc(labels);
      if (m.timeout) timeouts.inc(labels);
      reconcileTime.observe(labels, m.seconds);
    });
    return () => {
      sub.unsubscribe();
      controllers.delete(controller);
      for (const g of gauges) g.remove(labels);
    };
  };
}
