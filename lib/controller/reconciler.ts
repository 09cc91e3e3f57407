import type { ReconcileLogContext } from '../tracing/reconcileLogContext.js';
import type { Observable } from 'rxjs';
import type { WriteTracker } from '../write/writeTracker.js';

/**
 * What a reconcile may return (controller-runtime's `reconcile.Result`, kube-rs' `Action`):
 * nothing (done: the key's retry memory is forgotten), `{ requeueAfter: ms }` (reconcile again
 * then, e.g. to poll something outside the cluster), or `{ requeue: true }` (again, rate-limited;
 * deprecated in controller-runtime: prefer throwing or `requeueAfter`). `priority` is the priority
 * of that requeue.
 *
 * @example
 * ```ts
 * const result: ReconcileResult = { requeueAfter: 30_000 };
 * ```
 */
export interface ReconcileResult {
  readonly requeueAfter?: number;
  readonly requeue?: boolean;
  readonly priority?: number;
}

/**
 * What a reconcile is handed besides the key.
 * - `object`: the primary object as the `for` informer's store holds it now (`undefined` once deleted).
 * - `priority`: the priority the key was queued at.
 * - `retries`: how many times the key has been retried since it last succeeded.
 * - `signal`: aborted when the reconcile times out (`reconcileTimeout`).
 * - `reconcileId`: unique per reconcile (controller-runtime's `reconcileID`, a UUID); the same ID
 *   is on this reconcile's `ReconcileError`, its metric event and its log line.
 * - `wrote(obj)`: records a write made with client-node directly (pass what the server returned;
 *   `{ deleted: true }` for a deletion): the key's next reconcile waits until the informers have
 *   seen it (read-your-own-writes, see the controller's `readYourWrites`). Pass `ctx` as the
 *   `tracker` of rxkube's write helpers and they record their writes themselves.
 * - `track(promise)`: `await ctx.track(apps.patchNamespacedDeployment(...))` resolves to the
 *   server's answer, recorded with `wrote`.
 *
 * @example
 * ```ts
 * const reconcile: Reconciler<V1Pod> = async (key, { object, signal }) => {
 *   if (!object) return; // deleted
 *   await fetch(`https://example.invalid/${key}`, { signal });
 * };
 * ```
 */
export interface ReconcileContext<T> extends WriteTracker {
  readonly object: T | undefined;
  readonly priority: number;
  readonly retries: number;
  readonly signal: AbortSignal;
  readonly reconcileId: string;
  /**
   * What a structured logger should print with this reconcile's lines: controller, namespace,
   * name, `reconcileID`, and the trace and span IDs when the controller traces
   * (`pinoLogger.child(ctx.logContext)`).
   */
  readonly logContext: ReconcileLogContext;
  /** Awaits a write and records its answer (an object with a name) as {@link WriteTracker.wrote} does. */
  track<R>(write: PromiseLike<R>): Promise<R>;
}

/**
 * A reconcile: brings the world in line with the object at `key`, then returns (or resolves to, or
 * emits last) a {@link ReconcileResult} or nothing. Throwing (rejecting, erroring) requeues the key
 * with the rate limiter; a `TerminalError` does not. Returning an Observable lets marble tests run
 * reconciles on virtual time.
 *
 * @example
 * ```ts
 * const reconcile: Reconciler<V1Deployment> = async (key, { object }) => {
 *   if (!object) return;
 *   await patchLabel(object);
 *   return { requeueAfter: 60_000 };
 * };
 * ```
 */
export type Reconciler<T> = (
  key: string,
  ctx: ReconcileContext<T>,
) => ReconcileResult | void | PromiseLike<ReconcileResult | void> | Observable<ReconcileResult | void>;
