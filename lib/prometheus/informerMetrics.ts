import { Counter, Gauge } from 'prom-client';
import type { Observable } from 'rxjs';
import type { HandlerLag } from '../informer/handlerRegistration.js';
import { ReflectorError } from '../reflector/reflectorError.js';
import type { Registers } from './registers.js';

/**
 * What {@link prometheusMetrics} reads of an informer: its last resource version, its store size,
 * whether it has synced, its handlers' lag and its errors. Every rxkube `Informer` fits.
 *
 * @example
 * ```ts
 * const source: InformerMetricsSource = factory.pods();
 * ```
 */
export interface InformerMetricsSource {
  lastSyncResourceVersion(): string;
  queuedItems(): number;
  getStore(): { readonly size: number };
  hasSynced(): boolean;
  /** The handlers' lag (queued notifications, oldest age); without it the lag gauge reads 0. */
  lag?(): HandlerLag;
  /** The informer's errors; the reflector's are counted by operation and by what it did next. */
  readonly errors$?: Observable<unknown>;
}

/**
 * The labels client-go gives informer metrics.
 *
 * @example
 * ```ts
 * const labels: InformerMetricLabels = { name: 'pods', group: '', version: 'v1', resource: 'pods' };
 * ```
 */
export interface InformerMetricLabels {
  readonly name: string;
  readonly group: string;
  readonly version: string;
  readonly resource: string;
}

const LABELS = ['name', 'group', 'version', 'resource'] as const;

/**
 * The informer gauges (read when scraped) and the list/watch error counter (from `errors$`).
 * @internal
 */
export function informerMetrics(
  registers: Registers,
): (informer: InformerMetricsSource, labels: InformerMetricLabels) => () => void {
  const informers = new Map<InformerMetricsSource, InformerMetricLabels>();
  const gauge = (name: string, help: string, read: (i: InformerMetricsSource) => number | undefined) =>
    new Gauge({
      name,
      help,
      labelNames: LABELS,
      registers,
      collect() {
        for (const [inf, labels] of informers) {
          const value = read(inf);
          if (value !== undefined) this.set({ ...labels }, value);
        }
      },
    });
  const gauges = [
    gauge(
      'informer_store_resource_version',
      'The resource version of the last list or event the informer has seen (numeric resource versions only).',
      (inf) => {
        const rv = inf.lastSyncResourceVersion();
        return rv !== '' && Number.isFinite(Number(rv)) ? Number(rv) : undefined;
      },
    ),
    gauge('informer_queued_items', "Notifications waiting in the informer's handler buffers.", (inf) =>
      inf.queuedItems(),
    ),
    gauge('rxkube_informer_store_items', 'Objects in the informer store.', (inf) => inf.getStore().size),
    gauge(
      'rxkube_informer_synced',
      'Whether the informer has stored and distributed its first list (1) or not yet (0).',
      (inf) => (inf.hasSynced() ? 1 : 0),
    ),
    gauge(
      'rxkube_informer_lag_seconds',
      'Age of the oldest notification its handlers have not handled yet (0 when none waits): how far the slowest handler is behind the store.',
      (inf) => (inf.lag?.().oldestAgeMs ?? 0) / 1000,
    ),
  ];
  const errors = new Counter({
    name: 'rxkube_informer_list_watch_errors_total',
    help: 'List and watch errors the reflector recovered from, by request (list, watch, watchList) and what it did next (relist, rewatch, listFromLatest, restartWatchList, fallbackToList).',
    labelNames: [...LABELS, 'operation', 'action'],
    registers,
  });
  return (informer, labels) => {
    informers.set(informer, labels);
    const sub = informer.errors$?.subscribe((e) => {
      if (e instanceof ReflectorError) errors.inc({ ...labels, operation: e.operation, action: e.action });
    });
    return () => {
      sub?.unsubscribe();
      informers.delete(informer);
      for (const g of gauges) g.remove({ ...labels });
    };
  };
}
