import type { TraceContext } from '../tracing/traceContext.js';
import type { ReconcileMetricEvent } from './controllerMetrics.js';
import { ReconcileError, ReconcileTimeoutError } from './controllerErrors.js';
import type { ReconcileOutcome } from './reconcileOutcome.js';

/**
 * One reconcile as a controller's `results$` tells it (kube-rs's applier yields the same): the
 * key, how it ended (`result`, the `controller_runtime_reconcile_total` label), what happens to
 * the key next (`requeueAfterMs` for `requeue_after`; rate-limited for `requeue` and a non-terminal
 * `error`), how long it ran (`seconds`, on the controller's clock), and how long it waited for its
 * own earlier writes first (`ownWritesWaitSeconds`, read-your-own-writes). `errors$` and
 * `metrics$` are derived from this stream.
 *
 * @example
 * ```ts
 * ctl.results$.pipe(filter((r) => r.result === 'error')).subscribe((r) => console.warn(r.key, r.error));
 * ```
 */
export interface ReconcileReport {
  readonly key: string;
  readonly result: ReconcileMetricEvent['result'];
  /** What the reconcile threw (for `error`). */
  readonly error?: unknown;
  /** A {@link TerminalError}: not retried. */
  readonly terminal: boolean;
  /** The reconcile ran past `reconcileTimeout`. */
  readonly timeout: boolean;
  /** The reconcile's ID (its context's `reconcileId`; on its `ReconcileError` and log line too). */
  readonly reconcileId: string;
  readonly seconds: number;
  /** For `requeue_after`: reconciled again after this many ms. */
  readonly requeueAfterMs?: number;
  /** The priority the key was queued at. */
  readonly priority: number;
  /** How many times the key had been retried before this reconcile. */
  readonly retries: number;
  /** How long the key waited for its own last writes to show in the informers (0 if it did not). */
  readonly ownWritesWaitSeconds: number;
}

/**
 * The {@link ReconcileReport} a controller emits: its `reconcileId` is the reconcile context's,
 * made on first read (a UUID costs more than the rest of a trivial reconcile's bookkeeping, and
 * most reports are never asked for it); `toJSON` includes it.
 *
 * @internal
 * @example
 * ```ts
 * results.next(new ControllerReconcileReport(run, outcome, seconds, ctx));
 * ```
 */
export class ControllerReconcileReport implements ReconcileReport {
  readonly key: string;
  readonly result: ReconcileReport['result'];
  readonly error: unknown;
  readonly terminal: boolean;
  readonly timeout: boolean;
  readonly seconds: number;
  readonly requeueAfterMs: number | undefined;
  readonly priority: number;
  readonly retries: number;
  readonly ownWritesWaitSeconds: number;
  readonly #context: { readonly reconcileId: string };

  constructor(
    run: { readonly key: string; readonly priority: number; readonly retries: number; readonly waitedSeconds: number },
    outcome: ReconcileOutcome,
    seconds: number,
    context: { readonly reconcileId: string },
  ) {
    this.key = run.key;
    this.result = outcome.result;
    this.error = outcome.result === 'error' ? outcome.error : undefined;
    this.terminal = outcome.result === 'error' && outcome.terminal;
    this.timeout = outcome.result === 'error' && outcome.error instanceof ReconcileTimeoutError;
    this.seconds = seconds;
    this.requeueAfterMs = outcome.result === 'requeue_after' ? outcome.ms : undefined;
    this.priority = run.priority;
    this.retries = run.retries;
    this.ownWritesWaitSeconds = run.waitedSeconds;
    this.#context = context;
  }

  get reconcileId(): string {
    return this.#context.reconcileId;
  }

  toJSON(): ReconcileReport {
    return { ...this, reconcileId: this.reconcileId };
  }
}

/**
 * The {@link ReconcileError} of a failed reconcile's report: what a controller's `errors$` (and
 * its log) carries for it.
 *
 * @example
 * ```ts
 * ctl.results$.pipe(filter((r) => r.result === 'error'), map((r) => reconcileErrorOf('web', r)));
 * ```
 */
export function reconcileErrorOf(controllerName: string, report: ReconcileReport, trace?: TraceContext): ReconcileError {
  return new ReconcileError(controllerName, report.key, report.error, report.terminal, report.retries, report.reconcileId, trace);
}
