import type { LogContext } from '../logging/errorLogger.js';
import type { TraceContext } from '../tracing/traceContext.js';
import { causeMessage, RxkubeError } from '../errors.js';

/**
 * A reconcile failed (threw, rejected, errored or timed out). `cause` is what it threw; `terminal`
 * says whether it was a {@link TerminalError} (not retried) or not (requeued with the rate limiter).
 *
 * @example
 * ```ts
 * ctl.errors$.subscribe((e) => { if (e instanceof ReconcileError) console.warn(e.key, e.retries, e.message); });
 * ```
 */
export class ReconcileError extends RxkubeError {
  /** The key whose reconcile failed. */
  readonly key: string;
  /** True for a {@link TerminalError}: not requeued. */
  readonly terminal: boolean;
  /** How many times the key had been retried before this failure. */
  readonly retries: number;
  /** The failed reconcile's ID (its context's `reconcileId`); `''` when not from a reconcile. */
  readonly reconcileId: string;
  /** The failed reconcile's span, when the controller traces (its log line carries the IDs). */
  readonly trace?: TraceContext;

  constructor(controllerName: string, key: string, cause: unknown, terminal: boolean, retries: number, reconcileId = '', trace?: TraceContext) {
    const what = causeMessage(cause);
    super(
      'ReconcileError',
      `controller ${JSON.stringify(controllerName)}: reconcile of ${JSON.stringify(key)} failed: ${what}; ${
        terminal ? 'terminal error: not retried until the object changes' : `retrying with backoff (retry ${retries + 1})`
      }${reconcileId ? ` [reconcileID ${reconcileId}]` : ''}`,
      { cause },
    );
    this.key = key;
    this.terminal = terminal;
    this.retries = retries;
    this.reconcileId = reconcileId;
    if (trace !== undefined) this.trace = trace;
  }

  /** What the controller's log line carries besides its message (see `Logger`): key, `reconcileID`, and the span's IDs when traced. */
  get logContext(): LogContext {
    if (this.reconcileId === '') return { key: this.key };
    const t = this.trace;
    if (t === undefined) return { key: this.key, reconcileID: this.reconcileId };
    return { key: this.key, reconcileID: this.reconcileId, trace_id: t.traceId, span_id: t.spanId, trace_flags: (t.traceFlags & 0xff).toString(16).padStart(2, '0') };
  }
}

/**
 * A reconcile ran longer than the controller's `reconcileTimeout`. Its `signal` is aborted (an
 * Observable reconcile is unsubscribed), the key is released and retried with the rate limiter.
 * A Promise reconcile that ignores the signal may still be running: honour `ctx.signal`.
 *
 * @example
 * ```ts
 * const reconcile: Reconciler<V1Pod> = async (key, { signal }) => { await fetch(url, { signal }); };
 * ```
 */
export class ReconcileTimeoutError extends RxkubeError {
  readonly key: string;
  readonly timeoutMs: number;

  constructor(key: string, timeoutMs: number) {
    super(
      'ReconcileTimeoutError',
      `reconcile of ${JSON.stringify(key)} did not finish within ${timeoutMs} ms; aborted its signal and will retry (raise reconcileTimeout if it needs longer)`,
    );
    this.key = key;
    this.timeoutMs = timeoutMs;
  }
}

/**
 * The informers a controller uses did not sync within `cacheSyncTimeout`; the controller stopped
 * without reconciling anything (controller-runtime's `CacheSyncTimeout`). Check the API server, the
 * credentials and the permissions to list and watch each resource.
 *
 * @example
 * ```ts
 * ctl.errors$.subscribe((e) => { if (e instanceof CacheSyncTimeoutError) process.exitCode = 1; });
 * ```
 */
export class CacheSyncTimeoutError extends RxkubeError {
  readonly timeoutMs: number;

  constructor(controllerName: string, timeoutMs: number) {
    super(
      'CacheSyncTimeoutError',
      `controller ${JSON.stringify(controllerName)}: its informers did not sync within ${timeoutMs} ms; stopped. Check that the API server is reachable and that listing and watching each resource is allowed`,
    );
    this.timeoutMs = timeoutMs;
  }
}


/**
 * `leading$` or `keyFilter$` errored. The controller takes the safe side and keeps it: not leading
 * (nothing is reconciled) or no keys (nothing passes), until it is stopped and a new one is started.
 *
 * @example
 * ```ts
 * ctl.errors$.subscribe((e) => { if (e instanceof ControllerInputError) console.error(e.input, e.message); });
 * ```
 */
export class ControllerInputError extends RxkubeError {
  /** Which input failed. */
  readonly input: 'leading$' | 'keyFilter$';

  constructor(controllerName: string, input: 'leading$' | 'keyFilter$', cause: unknown) {
    const what = causeMessage(cause);
    super(
      'ControllerInputError',
      `controller ${JSON.stringify(controllerName)}: ${input} errored (${what}); ${
        input === 'leading$' ? 'treating this replica as not leading' : 'reconciling no keys'
      } until the controller is restarted`,
      { cause },
    );
    this.input = input;
  }
}

/**
 * A reconcile returned a {@link ReconcileResult} the controller cannot act on: a `requeueAfter` or
 * `priority` that is not a finite number (`'50'`, `NaN`). It counts as a failed reconcile: reported
 * as the cause of a {@link ReconcileError} and retried with the rate limiter.
 *
 * @example
 * ```ts
 * const reconcile: Reconciler<V1Pod> = () => ({ requeueAfter: Number(process.env.PERIOD) }); // NaN when unset: refused
 * ```
 */
export class InvalidReconcileResultError extends RxkubeError {
  /** The field at fault. */
  readonly field: 'requeueAfter' | 'priority';

  constructor(field: 'requeueAfter' | 'priority', value: unknown) {
    super(
      'InvalidReconcileResultError',
      `the reconcile returned ${field}: ${typeof value === 'string' ? JSON.stringify(value) : causeMessage(value)} (${typeof value}); it must be a finite number${field === 'requeueAfter' ? ' of milliseconds' : ''}`,
    );
    this.field = field;
  }
}
