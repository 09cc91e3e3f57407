import type { TraceContext } from './traceContext.js';

/**
 * What a structured logger should print with a reconcile's lines: controller-runtime's log keys
 * (`controller`, `namespace`, `name`, `reconcileID`) and, when the reconcile is traced,
 * OpenTelemetry's log correlation fields (`trace_id`, `span_id`, `trace_flags`).
 *
 * @example
 * ```ts
 * import pino from 'pino';
 * const log = pino();
 * const reconcile: Reconciler<V1ConfigMap> = async (key, ctx) => {
 *   log.child(ctx.logContext).info('reconciling'); // {"controller":"web","reconcileID":"...","trace_id":"...",...}
 * };
 * ```
 */
export interface ReconcileLogContext {
  readonly controller: string;
  /** The key's namespace (none for a cluster-scoped object). */
  readonly namespace?: string;
  readonly name: string;
  readonly reconcileID: string;
  readonly trace_id?: string;
  readonly span_id?: string;
  /** `01` when sampled, as W3C prints the flags. */
  readonly trace_flags?: string;
}

/**
 * The log context of controller `controller`'s reconcile `reconcileId` of `key`, in span `trace` if any.
 *
 * @example
 * ```ts
 * reconcileLogContext('web', 'ns/a', 'r1', undefined); // { controller: 'web', namespace: 'ns', name: 'a', reconcileID: 'r1' }
 * ```
 */
export function reconcileLogContext(controller: string, key: string, reconcileId: string, trace: TraceContext | undefined): ReconcileLogContext {
  const slash = key.indexOf('/');
  const where = slash < 0 ? { name: key } : { namespace: key.slice(0, slash), name: key.slice(slash + 1) };
  if (trace === undefined) return { controller, ...where, reconcileID: reconcileId };
  return {
    controller,
    ...where,
    reconcileID: reconcileId,
    trace_id: trace.traceId,
    span_id: trace.spanId,
    trace_flags: (trace.traceFlags & 0xff).toString(16).padStart(2, '0'),
  };
}
