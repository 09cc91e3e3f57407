import type { SchedulerLike } from 'rxjs';
import type { Notification } from '../informer/notification.js';
import type { KubeObjectLike } from '../meta/kubeObject.js';
import { changeLinkOf } from './changeLink.js';
import type { ChangeLink, ReconcileSpan, ReconcileSpanEnd, ReconcileSpanStart, Tracing } from './tracing.js';
import { CausalReconcileSpan, writeCausesOf, type WriteCauses } from './writeCauses.js';

// Links per reconcile at most (OpenTelemetry's default span link limit); the rest are counted.
const MAX_LINKS = 128;

/** One change as told (its link is made only if the reconcile's span records). */
interface Change {
  readonly change: Notification<KubeObjectLike>;
  readonly source: string;
  readonly at: number;
}

/** The changes waiting for a key's next reconcile. */
interface Pending {
  links: Change[];
  dropped: number;
}

/**
 * A reconcile span's start whose `links` are made when read: a tracer that records nothing (no
 * SDK, not sampled) never reads them, and no link is made.
 */
class ReconcileStart implements ReconcileSpanStart {
  private made: ReadonlyArray<ChangeLink> | undefined;
  readonly queuedMs?: number;

  constructor(
    readonly controller: string,
    readonly key: string,
    private readonly id: () => string,
    readonly priority: number,
    readonly retries: number,
    readonly startTime: number,
    private readonly changes: ReadonlyArray<Change>,
    readonly droppedLinks: number,
    private readonly annotations: boolean,
    private readonly causes: WriteCauses,
  ) {
    if (changes.length > 0) this.queuedMs = startTime - changes[0].at;
  }

  // Made when read, as the reconcile context's own ID is.
  get reconcileId(): string {
    return this.id();
  }

  get links(): ReadonlyArray<ChangeLink> {
    return (this.made ??= this.changes.map((c) => changeLinkOf(c.change, c.source, c.at, this.annotations, this.causes)));
  }
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
 * const tracer = new ControllerTracer('web', tracing, scheduler, 4, (key) => acceptsKey(state, key));
 * tracer.changed('for')('ns/a', notification);
 * tracer.took('ns/a', scheduler.now());
 * const span = tracer.start(0, 'ns/a', () => ctx.reconcileId, 0, 0, 0);
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
    /** Whether the controller queues `key` now (a key it does not queue gathers no changes). */
    private readonly queues: (key: string) => boolean,
  ) {
    this.spans = Array.from({ length: workers }, () => undefined);
    this.causes = writeCausesOf(tracing);
  }

  /** What source `source`'s key mapping calls for each key a change queues. */
  changed(source: string): (key: string, change: Notification<KubeObjectLike>) => void {
    return (key, change) => {
      if (!this.queues(key)) return;
      let p = this.pending.get(key);
      if (p === undefined) this.pending.set(key, (p = { links: [], dropped: 0 }));
      if (p.links.length >= MAX_LINKS) p.dropped++;
      else p.links.push({ change, source, at: this.scheduler.now() });
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
  start(worker: number, key: string, reconcileId: () => string, priority: number, retries: number, waitedMs: number): ReconcileSpan {
    const t = this.taken.get(key);
    this.taken.delete(key);
    const now = this.scheduler.now();
    const startTime = t?.at ?? now;
    const { propagation } = this.tracing;
    const started = this.tracing.startReconcile(
      new ReconcileStart(this.controller, key, reconcileId, priority, retries, startTime, t?.links ?? [], t?.dropped ?? 0, propagation, this.causes),
    );
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
