import type { SchedulerLike } from 'rxjs';
import type { ListWatch } from '../listwatch/listWatch.js';
import type { KubeObjectLike } from '../meta/kubeObject.js';
import type { TraceContext } from './traceContext.js';

// What rxkube's controllers and list/watch requests tell a tracer, as plain data: the core never
// imports @opentelemetry/api. `openTelemetryTracing()` from rxkube/tracing implements it; a
// controller or factory given no `tracing` option calls none of it (no cost).

/**
 * The start of one reconcile's span: which key, why (`links`: every change coalesced into this
 * reconcile), and how long it waited.
 *
 * @example
 * ```ts
 * const start: ReconcileSpanStart = { controller: 'web', key: 'ns/a', reconcileId: 'r1', priority: 0, retries: 0, startTime: 10, links: [], droppedLinks: 0 };
 * ```
 */
export interface ReconcileSpanStart {
  readonly controller: string;
  readonly key: string;
  /** controller-runtime's `reconcileID`, the same as the reconcile's `ctx.reconcileId`. */
  readonly reconcileId: string;
  readonly priority: number;
  readonly retries: number;
  /** When the worker took the key (ms, the controller's clock). */
  readonly startTime: number;
  /** From the first change coalesced into this reconcile to `startTime` (ms); unset for a requeue. */
  readonly queuedMs?: number;
  /** The changes of `for`, `owns` and `watches` that queued this reconcile, oldest first (made when first read: read it only if the span records). */
  readonly links: ReadonlyArray<ChangeLink>;
  /** Changes past the bound on links per reconcile (counted, not linked). */
  readonly droppedLinks: number;
}

/**
 * How a reconcile ended, for its span.
 *
 * @example
 * ```ts
 * span.end({ result: 'requeue_after', requeueAfterMs: 30_000, endTime: 42 });
 * ```
 */
export interface ReconcileSpanEnd {
  readonly result: 'success' | 'error' | 'requeue' | 'requeue_after';
  readonly requeueAfterMs?: number;
  readonly error?: unknown;
  /** True for a TerminalError (not retried). */
  readonly terminal?: boolean;
  readonly endTime: number;
}

/**
 * A write a reconcile sends (a create, update, patch, apply, delete, an Event), for its child span.
 *
 * @example
 * ```ts
 * const start: WriteSpanStart = { method: 'PATCH', path: '/api/v1/namespaces/ns/configmaps/a' };
 * ```
 */
export interface WriteSpanStart {
  readonly method: string;
  readonly path: string;
  /** What the write is: `create`, `update`, `patch`, `apply`, `delete`, with its subresource (`update status`), `event`, or `track` (`ctx.track`). */
  readonly operation: string;
}

/**
 * The child span of one write: ended with the server's answer (the object, carrying the
 * resourceVersion it was stored at) or the error.
 *
 * @example
 * ```ts
 * const w = span.startWrite({ method: 'POST', path: '/api/v1/namespaces/ns/configmaps' });
 * w.end({ status: 201, object: created });
 * ```
 */
export interface WriteSpan {
  /** This write's span (what KEP-5915 stores on the object written); undefined when not recording. */
  readonly context: TraceContext | undefined;
  end(result: { readonly status?: number; readonly object?: KubeObjectLike; readonly error?: unknown }): void;
}

/**
 * One reconcile's span, as the controller drives it.
 *
 * @example
 * ```ts
 * const span = tracing.startReconcile(start);
 * span.run(() => reconcile(key, ctx), undefined);
 * span.end({ result: 'success', endTime: scheduler.now() });
 * ```
 */
export interface ReconcileSpan {
  /** This span's trace context; undefined when not recording (no tracer registered, not sampled). */
  readonly context: TraceContext | undefined;
  /** KEP-5915 propagation (the tracing's `propagation`): its writes carry their span in the annotation. */
  readonly propagation: boolean;
  /** Calls `fn(arg)` with this span current (the tracer's own context), so that spans the reconcile starts are its children. */
  run<A, R>(fn: (arg: A) => R, arg: A): R;
  /** The wait for the reconcile's own writes before it started (read-your-own-writes), as a child span. */
  ownWritesWait(startTime: number, endTime: number): void;
  /** A child span for a write the reconcile sends. */
  startWrite(start: WriteSpanStart): WriteSpan;
  end(end: ReconcileSpanEnd): void;
}

/**
 * A list or watch request of an informer, for its span.
 *
 * @example
 * ```ts
 * const start: RequestSpanStart = { operation: 'list', resource: 'configmaps', path: '/api/v1/configmaps', resourceVersion: '0', startTime: 0 };
 * ```
 */
export interface RequestSpanStart {
  readonly operation: 'list' | 'watch';
  /** The resource (`configmaps`, `widgets.example.com`). */
  readonly resource: string;
  readonly path: string;
  readonly namespace?: string;
  /** The resourceVersion asked from (a list's `resourceVersion`, a watch's). */
  readonly resourceVersion?: string;
  /** Why this list is made: `initial`, or the reason the reflector relists (`expired`, `watchError`, ...). */
  readonly reason?: string;
  readonly startTime: number;
}

/**
 * A list or watch request's span: pages and events counted as they come, ended with the status.
 *
 * @example
 * ```ts
 * const s = tracing.startRequest(start);
 * s.page(500, '123'); s.end({ status: 200, resourceVersion: '123', endTime: 5 });
 * ```
 */
export interface RequestSpan {
  /** A list page arrived (`items` in it, its resourceVersion). */
  page(items: number, resourceVersion: string | undefined): void;
  /** A watch event arrived. */
  event(type: string, resourceVersion: string | undefined): void;
  end(end: { readonly status?: number; readonly resourceVersion?: string; readonly error?: unknown; readonly endTime: number }): void;
}

/**
 * What rxkube reports to a tracer (the `tracing` option of `controller` and
 * `sharedInformerFactory`). `openTelemetryTracing()` from `rxkube/tracing` makes one over
 * @opentelemetry/api; a test may implement it to record what happens.
 *
 * @example
 * ```ts
 * import { openTelemetryTracing } from 'rxkube/tracing';
 * const tracing: Tracing = openTelemetryTracing({ propagation: true });
 * ```
 */
export interface Tracing {
  /**
   * KEP-5915 propagation: writes a reconcile sends carry its trace context in the object's
   * `tracing.k8s.io/traceparent` annotation (creates, updates, applies and merge patches of an
   * object, never of its status), and changes that arrive with one link the reconcile to it.
   */
  readonly propagation: boolean;
  startReconcile(start: ReconcileSpanStart): ReconcileSpan;
  startRequest(start: RequestSpanStart): RequestSpan;
  /**
   * `lw` with a span per request (what `sharedInformerFactory` does with its informers' ListWatch):
   * `tracedListWatch(lw, this, what)` from rxkube. A method here, so that a factory without
   * tracing (a browser app's) carries none of it.
   */
  traceListWatch<T>(lw: ListWatch<T>, what: TracedRequests): ListWatch<T>;
}

/**
 * What a traced ListWatch names its spans after (see {@link Tracing.traceListWatch}).
 *
 * @example
 * ```ts
 * const what: TracedRequests = { resource: 'configmaps', path: '/api/v1/configmaps' };
 * ```
 */
export interface TracedRequests {
  /** The resource (`configmaps`, `widgets.example.com`). */
  readonly resource: string;
  readonly path: string;
  readonly namespace?: string;
  /** The clock of the spans' times; default `asyncScheduler`. */
  readonly scheduler?: SchedulerLike;
}

/**
 * One change that queued a reconcile (a span link of the reconcile's span): the watch event of a
 * `for`, `owns` or `watches` informer, and, where one is known, the write that caused it.
 *
 * @example
 * ```ts
 * const link: ChangeLink = { source: 'for', type: 'MODIFIED', kind: 'ConfigMap', namespace: 'ns', name: 'a', resourceVersion: '42', at: 7 };
 * ```
 */
export interface ChangeLink {
  /** Which source of the controller: `for`, `owns[0]`, `watches[1]`. */
  readonly source: string;
  /** The watch event type the change came as. */
  readonly type: 'ADDED' | 'MODIFIED' | 'DELETED';
  readonly kind?: string;
  readonly namespace?: string;
  readonly name?: string;
  readonly resourceVersion?: string;
  /** When the controller was told (ms, its clock). */
  readonly at: number;
  /**
   * The span of the write that made this change: one this process sent (`write`), or the one
   * KEP-5915's annotation names (`annotation`).
   */
  readonly cause?: TraceContext;
  readonly causeFrom?: 'write' | 'annotation';
}
