import type { KubeObjectLike } from '../meta/kubeObject.js';
import type { WriteTracker } from '../write/writeTracker.js';
import { TRACEPARENT_ANNOTATION, formatTraceparent, type TraceContext } from './traceContext.js';
import type { ReconcileSpan, WriteSpan } from './tracing.js';

// A reconcile's writes as child spans of its span: rxkube's transport (jsonRequest$, apply) and
// client-node's API clients (clientNodeWrites) find the reconcile's span on the write tracker of
// the code running now (its async context), and ctx.track on the context itself.

/**
 * The span of the reconcile whose write tracker this is, if the controller traces.
 *
 * @internal
 * @example
 * ```ts
 * const span = reconcileSpanOf(currentWriteTracker());
 * ```
 */
export function reconcileSpanOf(tracker: WriteTracker | undefined): ReconcileSpan | undefined {
  return (tracker as { trace?: ReconcileSpan } | undefined)?.trace;
}

/**
 * Ends a write span with the server's answer (the object it stored, not a Status) or the error.
 *
 * @internal
 * @example
 * ```ts
 * endWriteSpan(span, 200, stored);
 * ```
 */
export function endWriteSpan(span: WriteSpan, status: number | undefined, answer: unknown, error?: unknown): void {
  const obj = isObject(answer) && (answer as { kind?: unknown }).kind !== 'Status' ? (answer as KubeObjectLike) : undefined;
  span.end({ ...(status === undefined ? {} : { status }), ...(obj === undefined ? {} : { object: obj }), ...(error === undefined ? {} : { error }) });
}

/**
 * `ctx.track(write)` in a traced reconcile: the awaited write as a child span, its answer recorded.
 *
 * @internal
 * @example
 * ```ts
 * const stored = await trackedWrite(span, core.patchNamespacedConfigMap(...), (a) => recordWrite(ctx, a));
 * ```
 */
export async function trackedWrite<R>(span: ReconcileSpan, write: PromiseLike<R>, record: (answer: R) => R): Promise<R> {
  const child = span.startWrite({ method: '', path: '', operation: 'track' });
  let answer: R;
  try {
    answer = await write;
  } catch (e) {
    endWriteSpan(child, undefined, undefined, e);
    throw e;
  }
  endWriteSpan(child, undefined, answer);
  return record(answer);
}

/**
 * KEP-5915's injection: `body` with the write span's trace context in its
 * `tracing.k8s.io/traceparent` annotation, when the write says what an object should be (a
 * create, update, apply or merge patch of the object itself); `body` unchanged for a status or
 * other subresource write, an Event, a JSON patch (a list of operations), a deletion, or when
 * propagation is off. A copy: the caller's object is not changed.
 *
 * @internal
 * @example
 * ```ts
 * const sent = withTraceparent('PUT', '/api/v1/namespaces/ns/configmaps/a', cm, writeSpan.context);
 * ```
 */
export function withTraceparent(method: string, path: string, body: unknown, context: TraceContext | undefined): unknown {
  if (context === undefined || !injects(method, path) || !isObject(body)) return body;
  const b = body as { metadata?: { annotations?: Record<string, string> | null } | null };
  const metadata = b.metadata ?? {};
  return { ...b, metadata: { ...metadata, annotations: { ...(metadata.annotations ?? {}), [TRACEPARENT_ANNOTATION]: formatTraceparent(context) } } };
}

/**
 * What a write is, for its span's name: `create`, `update`, `patch`, `apply`, `delete`, with the
 * subresource written (`update status`), or `event` for an Event.
 *
 * @internal
 * @example
 * ```ts
 * writeOperation('PATCH', '/api/v1/namespaces/ns/pods/a/status', 'application/merge-patch+json'); // 'patch status'
 * ```
 */
export function writeOperation(method: string, path: string, contentType: string | undefined): string {
  const m = method.toUpperCase();
  const verb = m === 'POST' ? 'create' : m === 'PUT' ? 'update' : m === 'DELETE' ? 'delete' : contentType?.includes('apply-patch') ? 'apply' : 'patch';
  const named = namedSegments(path);
  if (named[0] === 'events') return 'event';
  return named.length > 2 ? `${verb} ${named[2]}` : verb;
}

/** The path's segments from the resource on (`['configmaps', 'a', 'status']`). */
function namedSegments(path: string): string[] {
  const segments = path.split('?')[0].split('/').filter((s) => s !== '');
  const rest = segments.slice(segments[0] === 'api' ? 2 : 3);
  return rest[0] === 'namespaces' && rest.length >= 3 ? rest.slice(2) : rest;
}

/**
 * Whether KEP-5915 injects on a write of `method` to `path` (not its status, nor Events).
 *
 * @internal
 * @example
 * ```ts
 * injects('PUT', '/api/v1/namespaces/ns/configmaps/a'); // true
 * injects('PUT', '/api/v1/namespaces/ns/pods/a/status'); // false
 * ```
 */
export function injects(method: string, path: string): boolean {
  const m = method.toUpperCase();
  if (m !== 'POST' && m !== 'PUT' && m !== 'PATCH') return false;
  // /api/v1/namespaces/ns/pods/a/status: a subresource is a segment after the name.
  const named = namedSegments(path);
  if (named.length > 2 || named.length === 0) return false; // a subresource, or a namespace's own path
  return named[0] !== 'events';
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}
