import type { KubeObjectLike } from '../meta/kubeObject.js';

// W3C Trace Context (https://www.w3.org/TR/trace-context/) as KEP-5915 stores it on objects: the
// `traceparent` text in the annotation `tracing.k8s.io/traceparent`. Nothing here imports
// @opentelemetry/api: the core reads and writes the text, rxkube/tracing turns it into links.

/**
 * The annotation prefix KEP-5915 reserves for trace context on Kubernetes objects (its
 * `TracingAnnotationPrefix`): a propagator's key (`traceparent`, `baggage`) after it.
 *
 * @example
 * ```ts
 * `${TRACING_ANNOTATION_PREFIX}traceparent` === TRACEPARENT_ANNOTATION;
 * ```
 */
export const TRACING_ANNOTATION_PREFIX = 'tracing.k8s.io/';

/**
 * KEP-5915's annotation for the W3C `traceparent` of the write that made an object's current spec
 * (`version-traceId-parentId-traceFlags`, e.g. `00-4bf92f3577b34da6a3ce929d0e0e4737-00f067aa0ba902b7-01`).
 *
 * @example
 * ```ts
 * const parent = configMap.metadata?.annotations?.[TRACEPARENT_ANNOTATION];
 * ```
 */
export const TRACEPARENT_ANNOTATION = `${TRACING_ANNOTATION_PREFIX}traceparent`;

/**
 * A span's identity in W3C terms: what a span link points at. `traceFlags` bit 0 is "sampled".
 *
 * @example
 * ```ts
 * const parent: TraceContext = { traceId: '4bf92f3577b34da6a3ce929d0e0e4737', spanId: '00f067aa0ba902b7', traceFlags: 1 };
 * ```
 */
export interface TraceContext {
  /** 32 lowercase hex digits, not all zero. */
  readonly traceId: string;
  /** 16 lowercase hex digits, not all zero. */
  readonly spanId: string;
  readonly traceFlags: number;
}

const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;
const ZERO_TRACE = '0'.repeat(32);
const ZERO_SPAN = '0'.repeat(16);

/**
 * Parses a W3C `traceparent` (version 00, or a later version's first four fields as the spec
 * says); `undefined` for anything invalid (all-zero IDs, version ff, wrong lengths, upper case).
 *
 * @example
 * ```ts
 * parseTraceparent('00-4bf92f3577b34da6a3ce929d0e0e4737-00f067aa0ba902b7-01'); // { traceId, spanId, traceFlags: 1 }
 * parseTraceparent('not one'); // undefined
 * ```
 */
export function parseTraceparent(text: string | undefined): TraceContext | undefined {
  if (typeof text !== 'string') return undefined;
  const m = TRACEPARENT.exec(text.trim());
  if (m === null) return undefined;
  const [, version, traceId, spanId, flags, rest] = m;
  // Version 00 has exactly four fields; ff is forbidden.
  if (version === 'ff' || (version === '00' && rest !== undefined)) return undefined;
  if (traceId === ZERO_TRACE || spanId === ZERO_SPAN) return undefined;
  return { traceId, spanId, traceFlags: parseInt(flags, 16) };
}

/**
 * The W3C `traceparent` text (version 00) of a trace context.
 *
 * @example
 * ```ts
 * formatTraceparent({ traceId: '4bf92f3577b34da6a3ce929d0e0e4737', spanId: '00f067aa0ba902b7', traceFlags: 1 });
 * // '00-4bf92f3577b34da6a3ce929d0e0e4737-00f067aa0ba902b7-01'
 * ```
 */
export function formatTraceparent(context: TraceContext): string {
  return `00-${context.traceId}-${context.spanId}-${(context.traceFlags & 0xff).toString(16).padStart(2, '0')}`;
}

/**
 * The trace context stored on an object by KEP-5915 (its `tracing.k8s.io/traceparent`
 * annotation), if it has a valid one.
 *
 * @example
 * ```ts
 * const cause = annotatedTraceContext(notification.newObject); // the write that made this spec
 * ```
 */
export function annotatedTraceContext(obj: KubeObjectLike | undefined): TraceContext | undefined {
  const annotations = (obj?.metadata as { annotations?: Record<string, string> } | undefined)?.annotations;
  const text = annotations?.[TRACEPARENT_ANNOTATION];
  return text === undefined ? undefined : parseTraceparent(text);
}
