import { recordWrite, type WriteTracker, type WroteOptions } from '../write/writeTracker.js';
import type { KubeObjectLike } from '../meta/kubeObject.js';
import { newReconcileId } from './reconcileId.js';
import { reconcileLogContext, type ReconcileLogContext } from '../tracing/reconcileLogContext.js';
import type { ReconcileSpan } from '../tracing/tracing.js';
import { trackedWrite } from '../tracing/writeSpans.js';
import type { ReconcileContext } from './reconciler.js';

/**
 * Where a reconcile's writes are recorded: the controller's write ledger, under the key reconciled.
 *
 * @internal
 * @example
 * ```ts
 * const recorder: WriteRecorder = { record: (key, obj, options) => ledger.record(key, obj, options) };
 * ```
 */
export interface WriteRecorder {
  record(reconcileKey: string, obj: KubeObjectLike, options?: WroteOptions): void;
}

/**
 * One reconcile's context (what `reconcile(key, ctx)` is handed), made once per reconcile with
 * nothing else: its AbortController, its ID and its bound `wrote` / `track` are made on first use.
 * Most reconciles read none of them, and each cost more than the rest of a trivial reconcile's
 * bookkeeping (bench/controller.mjs). It is also the reconcile's write tracker in its async
 * context (see `WriteScope`).
 *
 * @internal
 * @example
 * ```ts
 * const ctx = new ControllerReconcileContext(deployments.getByKey('ns/a'), 'ns/a', 0, 0, ledger);
 * reconcile('ns/a', ctx);
 * ```
 */
export class ControllerReconcileContext<T> implements ReconcileContext<T>, WriteTracker {
  private aborter: AbortController | undefined;
  private id: string | undefined;
  private wroteFn: WriteTracker['wrote'] | undefined;
  private trackFn: ReconcileContext<T>['track'] | undefined;

  constructor(
    readonly object: T | undefined,
    /** The key reconciled (what its writes are recorded under). */
    readonly key: string,
    readonly priority: number,
    readonly retries: number,
    private readonly recorder: WriteRecorder | undefined,
    private readonly controller = '',
  ) {}

  /** The reconcile's span (the controller's `tracing`), set once started: its writes are its child spans. */
  trace: ReconcileSpan | undefined;

  get logContext(): ReconcileLogContext {
    return reconcileLogContext(this.controller, this.key, this.reconcileId, this.trace?.context);
  }

  get signal(): AbortSignal {
    return (this.aborter ??= new AbortController()).signal;
  }

  get reconcileId(): string {
    return (this.id ??= newReconcileId());
  }

  // Bound on first read, so that `const { wrote } = ctx` works as a method call does.
  get wrote(): WriteTracker['wrote'] {
    return (this.wroteFn ??= (obj: KubeObjectLike, options?: WroteOptions) => this.recorder?.record(this.key, obj, options));
  }

  get track(): ReconcileContext<T>['track'] {
    return (this.trackFn ??= async <R>(write: PromiseLike<R>): Promise<R> => {
      if (this.trace === undefined) return recordWrite(this, await write);
      return trackedWrite(this.trace, write, (answer) => recordWrite(this, answer));
    });
  }

  /** Aborts `signal` (the reconcile timed out). */
  abort(): void {
    (this.aborter ??= new AbortController()).abort();
  }
}
