/**
 * rxkube/tracing: OpenTelemetry traces of rxkube's controllers and informers (@opentelemetry/api
 * is an optional peer dependency: install it to use this entry), and KEP-5915's trace context
 * annotation.
 * @packageDocumentation
 */
export { openTelemetryTracing, type OpenTelemetryTracingOptions } from './openTelemetryTracing.js';
export { TRACEPARENT_ANNOTATION, TRACING_ANNOTATION_PREFIX, annotatedTraceContext, formatTraceparent, parseTraceparent, type TraceContext } from './traceContext.js';
export type { ChangeLink } from './tracing.js';
export type { ReconcileLogContext } from './reconcileLogContext.js';
export type {
  Tracing,
  ReconcileSpan,
  ReconcileSpanStart,
  ReconcileSpanEnd,
  WriteSpan,
  WriteSpanStart,
  RequestSpan,
  RequestSpanStart,
  TracedRequests,
} from './tracing.js';
export { tracedListWatch } from './tracedListWatch.js';
