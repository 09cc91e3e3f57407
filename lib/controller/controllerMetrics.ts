/**
 * What a controller tells its metrics as it happens, on `metrics$`: one `ownWritesWait` per key
 * that waited for its own writes (read-your-own-writes), and one `reconcile` per reconcile
 * run, with its result (the `result` label of `controller_runtime_reconcile_total`), its duration
 * in seconds on the controller's scheduler clock (`controller_runtime_reconcile_time_seconds`), and
 * whether it failed (`controller_runtime_reconcile_errors_total`) with a terminal error
 * (`controller_runtime_terminal_reconcile_errors_total`).
 *
 * @example
 * ```ts
 * ctl.metrics$.subscribe((m) => histogram.observe(m.seconds));
 * ```
 */
export type ControllerMetricEvent = ReconcileMetricEvent | OwnWritesMetricEvent;

/**
 * One reconcile run: see {@link ControllerMetricEvent}.
 *
 * @example
 * ```ts
 * const m: ReconcileMetricEvent = { type: 'reconcile', result: 'success', seconds: 0.004, terminal: false, timeout: false, reconcileId: 'r-1' };
 * ```
 */
export interface ReconcileMetricEvent {
  readonly type: 'reconcile';
  readonly result: 'success' | 'error' | 'requeue' | 'requeue_after';
  readonly seconds: number;
  readonly terminal: boolean;
  /** The reconcile ran past `reconcileTimeout` (`controller_runtime_reconcile_timeouts_total`). */
  readonly timeout: boolean;
  /** The reconcile's ID (its context's `reconcileId`). */
  readonly reconcileId: string;
}

/**
 * Read-your-own-writes: a key whose last reconcile wrote waited `seconds` for the informers to
 * show those writes before its next reconcile; `timedOut` when the bound passed first.
 *
 * @example
 * ```ts
 * ctl.metrics$.subscribe((m) => { if (m.type === 'ownWritesWait') waitHistogram.observe(m.seconds); });
 * ```
 */
export interface OwnWritesMetricEvent {
  readonly type: 'ownWritesWait';
  readonly seconds: number;
  readonly timedOut: boolean;
}

/**
 * A controller's figures now.
 * - `activeWorkers`: reconciles running (`controller_runtime_active_workers`).
 * - `maxConcurrentReconciles`: the `concurrency` option (`controller_runtime_max_concurrent_reconciles`).
 * - `reconcileTotal`: reconciles by result (`controller_runtime_reconcile_total{result}`).
 * - `reconcileErrorsTotal`, `terminalReconcileErrorsTotal`: failures, and the terminal ones among them.
 * - `reconcileTimeoutsTotal`: failures by `reconcileTimeout` (`controller_runtime_reconcile_timeouts_total`).
 * - `ownWritesWaitsTotal`, `ownWritesTimeoutsTotal`: reconciles that waited for the key's own
 *   writes (read-your-own-writes), and those among them that went ahead after the bound.
 *
 * @example
 * ```ts
 * const { activeWorkers, reconcileTotal } = ctl.stats();
 * ```
 */
export interface ControllerStats {
  readonly activeWorkers: number;
  readonly maxConcurrentReconciles: number;
  readonly reconcileTotal: Readonly<Record<ReconcileMetricEvent['result'], number>>;
  readonly reconcileErrorsTotal: number;
  readonly terminalReconcileErrorsTotal: number;
  readonly reconcileTimeoutsTotal: number;
  readonly ownWritesWaitsTotal: number;
  readonly ownWritesTimeoutsTotal: number;
}

/**
 * Where a controller is in its life, on `status$`:
 * `idle` (created) -> `waitingForSync` (started, informers listing) -> `running` (workers take
 * keys) / `standby` (synced, but `leading$` says false: events are queued, nothing reconciled) ->
 * `stopping` (draining the reconciles in flight) -> `stopped`; `failed` when the informers did not
 * sync in time.
 *
 * @example
 * ```ts
 * await firstValueFrom(ctl.status$.pipe(filter((s) => s === 'running')));
 * ```
 */
export type ControllerStatus = 'idle' | 'waitingForSync' | 'running' | 'standby' | 'stopping' | 'stopped' | 'failed';
