import {
  INVALID_SPAN_CONTEXT,
  SpanKind,
  SpanStatusCode,
  context as otelContext,
  isSpanContextValid,
  trace,
  type Attributes,
  type Link,
  type Span,
  type SpanContext,
  type Tracer,
} from '@opentelemetry/api';
import { tracedListWatch } from './tracedListWatch.js';
import type { TraceContext } from './traceContext.js';
import type { ChangeLink, ReconcileSpan, ReconcileSpanEnd, ReconcileSpanStart, RequestSpan, RequestSpanStart, Tracing, WriteSpan, WriteSpanStart } from './tracing.js';

/**
 * Options of {@link openTelemetryTracing}.
 *
 * @example
 * ```ts
 * const options: OpenTelemetryTracingOptions = { propagation: true };
 * ```
 */
export interface OpenTelemetryTracingOptions {
  /** The tracer spans are started on; default the global provider's tracer `rxkube`. */
  readonly tracer?: Tracer;
  /**
   * KEP-5915 propagation (opt-in): writes a reconcile sends carry their span in the object's
   * `tracing.k8s.io/traceparent` annotation, and changes that arrive with one link to it.
   */
  readonly propagation?: boolean;
}

const NOOP_WRITE: WriteSpan = Object.freeze({ context: undefined, end: () => undefined });

/**
 * rxkube's traces through @opentelemetry/api (an optional peer dependency): give it as the
 * `tracing` option of `controller` and `sharedInformerFactory`. Spans go wherever the
 * application's OpenTelemetry SDK sends them; with no SDK registered, the API's spans record
 * nothing and rxkube adds next to no work (bench/controller.mjs `--tracing`).
 *
 * - `reconcile <controller>` (kind consumer, a new root as KEP-5915 says): one per reconcile, with
 *   a span link to every change coalesced into it (its watch event type and resourceVersion, and
 *   the span of the write that caused it where one is known), child spans for its writes (with the
 *   resourceVersion the server answered) and for its wait for its own writes;
 * - `list <resource>` and `watch <resource>` (kind client): the informers' requests.
 *
 * @example
 * ```ts
 * import { NodeSDK } from '@opentelemetry/sdk-node';
 * import { controller, sharedInformerFactory } from 'rxkube';
 * import { openTelemetryTracing } from 'rxkube/tracing';
 *
 * new NodeSDK().start();
 * const tracing = openTelemetryTracing({ propagation: true });
 * declare const factory: ReturnType<typeof sharedInformerFactory>;
 * const ctl = controller({ for: factory.configMaps(), reconcile: async () => undefined, tracing });
 * ```
 */
export function openTelemetryTracing(options: OpenTelemetryTracingOptions = {}): Tracing {
  const tracer = options.tracer ?? trace.getTracer('rxkube');
  const propagation = options.propagation === true;
  const tracing: Tracing = {
    propagation,
    startReconcile: (start) => startReconcileSpan(tracer, propagation, start),
    startRequest: (start) => startRequestSpan(tracer, start),
    traceListWatch: (lw, what) => tracedListWatch(lw, tracing, what),
  };
  return tracing;
}

function startReconcileSpan(tracer: Tracer, propagation: boolean, start: ReconcileSpanStart): ReconcileSpan {
  const span = tracer.startSpan(`reconcile ${start.controller}`, { kind: SpanKind.CONSUMER, root: true, startTime: start.startTime });
  // No SDK (or not sampled): no attributes, no links (start.links is made when read), no child spans.
  if (!span.isRecording()) return new OtelReconcileSpan(tracer, span, propagation, false);
  const { links } = start;
  const attributes: Attributes = {
    'rxkube.controller': start.controller,
    'rxkube.reconcile.key': start.key,
    'rxkube.reconcile.id': start.reconcileId,
    'rxkube.reconcile.priority': start.priority,
    'rxkube.reconcile.retries': start.retries,
    'rxkube.reconcile.changes': links.length + start.droppedLinks,
  };
  const slash = start.key.indexOf('/');
  if (slash >= 0) attributes['k8s.namespace.name'] = start.key.slice(0, slash);
  if (start.queuedMs !== undefined) attributes['rxkube.reconcile.queued_ms'] = start.queuedMs;
  if (start.droppedLinks > 0) attributes['rxkube.reconcile.changes_not_linked'] = start.droppedLinks;
  span.setAttributes(attributes);
  if (links.length > 0 && typeof span.addLinks === 'function') span.addLinks(links.map(linkOf));
  return new OtelReconcileSpan(tracer, span, propagation, true);
}

/** A change as a span link: to the write that caused it, or (none known) an invalid context with its attributes, as OpenTelemetry records them. */
function linkOf(change: ChangeLink): Link {
  const attributes: Attributes = { 'rxkube.change.source': change.source, 'rxkube.change.type': change.type };
  if (change.kind !== undefined) attributes['rxkube.object.kind'] = change.kind;
  if (change.namespace !== undefined) attributes['k8s.namespace.name'] = change.namespace;
  if (change.name !== undefined) attributes['rxkube.object.name'] = change.name;
  if (change.resourceVersion !== undefined) attributes['rxkube.object.resource_version'] = change.resourceVersion;
  if (change.causeFrom !== undefined) attributes['rxkube.change.cause'] = change.causeFrom;
  const context: SpanContext = change.cause === undefined ? INVALID_SPAN_CONTEXT : { ...change.cause, isRemote: change.causeFrom === 'annotation' };
  return { context, attributes };
}

const traceContextOf = (span: Span): TraceContext | undefined => {
  const c = span.spanContext();
  return isSpanContextValid(c) ? { traceId: c.traceId, spanId: c.spanId, traceFlags: c.traceFlags } : undefined;
};

class OtelReconcileSpan implements ReconcileSpan {
  readonly context: TraceContext | undefined;

  constructor(
    private readonly tracer: Tracer,
    private readonly span: Span,
    readonly propagation: boolean,
    private readonly recording: boolean,
  ) {
    this.context = recording ? traceContextOf(span) : undefined;
  }

  run<A, R>(fn: (arg: A) => R, arg: A): R {
    if (!this.recording) return fn(arg);
    return otelContext.with(trace.setSpan(otelContext.active(), this.span), fn, undefined, arg);
  }

  ownWritesWait(startTime: number, endTime: number): void {
    if (!this.recording) return;
    const parent = trace.setSpan(otelContext.active(), this.span);
    this.tracer.startSpan('read-your-own-writes wait', { kind: SpanKind.INTERNAL, startTime }, parent).end(endTime);
  }

  startWrite(start: WriteSpanStart): WriteSpan {
    if (!this.recording) return NOOP_WRITE;
    const parent = trace.setSpan(otelContext.active(), this.span);
    const attributes: Attributes = { 'rxkube.write.operation': start.operation };
    if (start.method !== '') attributes['http.request.method'] = start.method;
    if (start.path !== '') attributes['url.path'] = start.path;
    const span = this.tracer.startSpan(start.operation, { kind: SpanKind.CLIENT, attributes }, parent);
    return new OtelWriteSpan(span);
  }

  end(end: ReconcileSpanEnd): void {
    const span = this.span;
    if (this.recording) {
      if (end.result === 'error') {
        span.setAttributes({ 'rxkube.reconcile.result': end.result, 'rxkube.reconcile.terminal': end.terminal === true });
        failed(span, end.error);
      } else if (end.requeueAfterMs !== undefined) {
        span.setAttributes({ 'rxkube.reconcile.result': end.result, 'rxkube.reconcile.requeue_after_ms': end.requeueAfterMs });
      } else {
        span.setAttribute('rxkube.reconcile.result', end.result);
      }
    }
    span.end(end.endTime);
  }
}

class OtelWriteSpan implements WriteSpan {
  readonly context: TraceContext | undefined;

  constructor(private readonly span: Span) {
    this.context = traceContextOf(span);
  }

  end(result: Parameters<WriteSpan['end']>[0]): void {
    const { span } = this;
    if (result.status !== undefined) span.setAttribute('http.response.status_code', result.status);
    const meta = result.object?.metadata;
    if (result.object?.kind !== undefined) span.setAttribute('rxkube.object.kind', result.object.kind);
    if (meta?.namespace !== undefined) span.setAttribute('k8s.namespace.name', meta.namespace);
    if (meta?.name !== undefined) span.setAttribute('rxkube.object.name', meta.name);
    if (meta?.resourceVersion !== undefined) span.setAttribute('rxkube.object.resource_version', meta.resourceVersion);
    if (result.error !== undefined) failed(span, result.error);
    span.end();
  }
}

function failed(span: Span, error: unknown): void {
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof Error) span.recordException(error);
  span.setStatus({ code: SpanStatusCode.ERROR, message });
}

function startRequestSpan(tracer: Tracer, start: RequestSpanStart): RequestSpan {
  const attributes: Attributes = { 'rxkube.resource': start.resource, 'http.request.method': 'GET', 'url.path': start.path };
  if (start.namespace !== undefined) attributes['k8s.namespace.name'] = start.namespace;
  if (start.resourceVersion !== undefined) attributes['rxkube.request.resource_version'] = start.resourceVersion;
  if (start.reason !== undefined) attributes['rxkube.list.reason'] = start.reason;
  const span = tracer.startSpan(`${start.operation} ${start.resource}`, { kind: SpanKind.CLIENT, root: true, startTime: start.startTime, attributes });
  if (!span.isRecording()) return { page: () => undefined, event: () => undefined, end: (e) => span.end(e.endTime) };
  let pages = 0;
  let items = 0;
  let events = 0;
  return {
    page: (n) => {
      pages++;
      items += n;
    },
    event: () => {
      events++;
    },
    end: (e) => {
      if (start.operation === 'list') span.setAttributes({ 'rxkube.list.pages': pages, 'rxkube.list.items': items });
      else span.setAttribute('rxkube.watch.events', events);
      if (e.status !== undefined) span.setAttribute('http.response.status_code', e.status);
      if (e.resourceVersion !== undefined) span.setAttribute('rxkube.response.resource_version', e.resourceVersion);
      if (e.error !== undefined) failed(span, e.error);
      span.end(e.endTime);
    },
  };
}
