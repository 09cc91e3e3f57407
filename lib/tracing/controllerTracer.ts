import type { SchedulerLike } from 'rxjs';
import type { Notification } from '../informer/notification.js';
import type { KubeObjectLike } from '../meta/kubeObject.js';
import { changeLinkOf, type ChangeLink } from './changeLink.js';
import type { ReconcileSpan, ReconcileSpanEnd, Tracing } from './tracing.js';
import { CausalReconcileSpan, writeCausesOf, type WriteCauses } from './writeCauses.js';

// Links per reconcile at most (OpenTelemetry's default span link limit); the rest are counted.
const MAX_LINKS = 128;

/** The changes waiting for a key's next reconcile. */
interface Pending {
  links: ChangeLink[];
  dropped: number;
}

/** What a worker took with its key: the changes coalesced into its reconcile. */
interface Taken extends Pending {
  readonly at: number;
}

/**
 * A controller's tracing edge: it collects, per key, the changes its sources queue the key for
 * (a key queued again while queued or in flight is one reconcile: client-go's queue coalesces
 * them), hands a worker the changes of the key it takes, and drives the reconcile's span. The
 * changes a key gathers while its reconcile runs are its next reconcile's, as the queue's dirty
 * set makes them.
 *
 * @internal
 * @example
 * ```ts
 * const tracer = new ControllerTracer('web', tracing, scheduler, 4);
 * tracer.changed('for')('ns/a', notification);
 * tracer.took('ns/a', scheduler.now());
 * const span = tracer.start(0, 'ns/a', ctx.reconcileId, 0, 0, 0);
 * ```
 */
export class ControllerTracer {
  private readonly pending = new Map<string, Pending>();
  // By key: a key is held by one worker at a time.
  private readonly taken = new Map<string, Taken>();
  private readonly spans: Array<ReconcileSpan | undefined>;
  private readonly causes: WriteCauses;

  constructor(
    private readonly controller: string,
    readonly tracing: Tracing,
    private readonly scheduler: SchedulerLike,
    workers: number,
  ) {
    this.spans = Array.from({ length: workers }, () => undefined);
    this.causes = writeCausesOf(tracing);
  }

  /** What source `source`'s key mapping calls for each key a change queues. */
  changed(source: string): (key: string, change: Notification<KubeObjectLike>) => void {
    return (key, change) => {
      let p = this.pending.get(key);
      if (p === undefined) this.pending.set(key, (p = { links: [], dropped: 0 }));
      if (p.links.length >= MAX_LINKS) p.dropped++;
      else p.links.push(changeLinkOf(change, source, this.scheduler.now(), this.tracing.propagation, this.causes));
    };
  }

  /** A worker took `key` at `at`: the changes so far are its reconcile's. */
  took(key: string, at: number): void {
    const p = this.pending.get(key);
    this.pending.delete(key);
    this.taken.set(key, { at, links: p?.links ?? [], dropped: p?.dropped ?? 0 });
  }

  /**
   * `key` was let go unreconciled: its changes wait for its next reconcile (`keep`: put back in
   * the queue) or are forgotten with the key's later ones (no longer this replica's, or stopping).
   */
  released(key: string, keep: boolean): void {
    const t = this.taken.get(key);
    this.taken.delete(key);
    if (!keep) {
      this.pending.delete(key);
      return;
    }
    if (t === undefined) return;
    const later = this.pending.get(key);
    this.pending.set(key, { links: [...t.links, ...(later?.links ?? [])].slice(0, MAX_LINKS), dropped: t.dropped + (later?.dropped ?? 0) });
  }

  /** Starts the span of worker `worker`'s reconcile (after its wait for own writes, `waitedMs`). */
  start(worker: number, key: string, reconcileId: string, priority: number, retries: number, waitedMs: number): ReconcileSpan {
    const t = this.taken.get(key);
    this.taken.delete(key);
    const now = this.scheduler.now();
    const startTime = t?.at ?? now;
    const links = t?.links ?? [];
    const started = this.tracing.startReconcile({
      controller: this.controller,
      key,
      reconcileId,
      priority,
      retries,
      startTime,
      ...(links.length > 0 ? { queuedMs: startTime - links[0].at } : {}),
      links,
      droppedLinks: t?.dropped ?? 0,
    });
    // Its writes are remembered by the version they store: the changes they cause link to them.
    const span = started.context === undefined ? started : new CausalReconcileSpan(started, this.causes);
    if (waitedMs > 0) span.ownWritesWait(startTime, startTime + waitedMs);
    this.spans[worker] = span;
    return span;
  }

  /** Ends the span of worker `worker`'s reconcile with its outcome. */
  end(worker: number, outcome: { readonly result: ReconcileSpanEnd['result']; readonly ms?: number; readonly error?: unknown; readonly terminal?: boolean }): void {
    const span = this.spans[worker];
    this.spans[worker] = undefined;
    if (span === undefined) return;
    const { result, ms, error, terminal } = outcome;
    span.end({
      result,
      endTime: this.scheduler.now(),
      ...(ms === undefined ? {} : { requeueAfterMs: ms }),
      ...(result === 'error' ? { error, terminal: terminal === true } : {}),
    });
  }
}
