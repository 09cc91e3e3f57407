import type { KubeConfig } from '@kubernetes/client-node';
import type { KubeObjectLike } from '../meta/kubeObject.js';
import { currentWriteTracker } from '../write/writeScope.js';
import type { WriteTracker } from '../write/writeTracker.js';
import { recordWrite } from '../write/writeTracker.js';
import type { WriteSpan } from '../tracing/tracing.js';
import { endWriteSpan, injects, reconcileSpanOf, withTraceparent, writeOperation } from '../tracing/writeSpans.js';

// Read-your-own-writes without being told: the answers to the writes a reconcile sends through
// @kubernetes/client-node's API clients, recorded on that reconcile's write tracker (its async
// context, see WriteScope). Every API client made from a KubeConfig (`kc.makeApiClient`, before
// or after rxkube saw it) authenticates each request through that KubeConfig's
// `applySecurityAuthentication(context)`; that is where this hooks in. It taps the answer's bytes
// where client-node's HTTP stack hands them over: client-node 1.x sends with node-fetch over a
// node:http(s) Agent (the request's `agent`), 2.x with undici's fetch over a Dispatcher (the
// request's `dispatcher`, which takes interceptors). Nothing is done for reads, nor outside a
// reconcile, nor in a browser (no KubeConfig there).

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
// An answer larger than this is not read twice: its write is then waited for only up to the bound.
const MAX_BODY_BYTES = 8 * 1024 * 1024;
const hooked = new WeakSet<object>();
// Contexts already tapped (client-node may authenticate one request through two auth methods).
const tapped = new WeakSet<object>();

/** What the tap needs of client-node's `RequestContext` (1.x has `getAgent`, 2.x `getDispatcher`). */
interface RequestContextLike {
  getHttpMethod(): string;
  getUrl(): string;
  getBody?(): unknown;
  setBody?(body: string): void;
  getHeaders?(): Record<string, string>;
  getAgent?(): unknown;
  getDispatcher?(): unknown;
}

type Answer = (status: number, headers: (name: string) => string | undefined, body: Uint8Array) => void;

/**
 * Hooks `kubeConfig` (once; idempotent) so that every write a reconcile sends through a
 * client-node API client made from it is recorded, with the resourceVersion the server answered,
 * on the reconcile's write tracker: the key's next reconcile then waits until the controller's
 * informers show it (read-your-own-writes), as if the reconcile had called `ctx.wrote(answer)`.
 * rxkube calls it for every KubeConfig it is given (`clientNodeTransport`, `sharedInformerFactory`).
 * Writes outside a reconcile, and reads, pass untouched.
 *
 * @example
 * ```ts
 * trackClientNodeWrites(kc); // done by sharedInformerFactory(kc)
 * const core = kc.makeApiClient(CoreV1Api); // its writes inside a reconcile are now recorded
 * ```
 */
export function trackClientNodeWrites(kubeConfig: KubeConfig): void {
  const kc = kubeConfig as unknown as { applySecurityAuthentication?: (context: RequestContextLike) => Promise<void> };
  if (hooked.has(kc) || typeof kc.applySecurityAuthentication !== 'function') return;
  hooked.add(kc);
  const authenticate = kc.applySecurityAuthentication;
  kc.applySecurityAuthentication = async function (this: unknown, context: RequestContextLike): Promise<void> {
    // Read before the first await: the reconcile's context is the caller's.
    const tracker = currentWriteTracker();
    await authenticate.call(this, context);
    if (tracker === undefined || !WRITES.has(String(context.getHttpMethod?.()).toUpperCase()) || tapped.has(context)) return;
    tapped.add(context);
    const write = tracedWrite(tracker, context);
    tapAnswer(context, (status, header, body) => {
      const answer = recordAnswer(tracker, context, status, header, body);
      if (write !== undefined) endWriteSpan(write, status, answer);
    });
  };
}

/**
 * In a traced reconcile: the write's child span, and, with KEP-5915 propagation, its span in the
 * body's `tracing.k8s.io/traceparent` annotation (a JSON body of a create, update, apply or merge
 * patch; the body is serialized by now, so it is parsed and written again).
 */
function tracedWrite(tracker: WriteTracker, context: RequestContextLike): WriteSpan | undefined {
  const span = reconcileSpanOf(tracker);
  if (span === undefined) return undefined;
  const method = context.getHttpMethod().toUpperCase();
  const path = new URL(context.getUrl()).pathname;
  const headers = context.getHeaders?.() ?? {};
  const contentType = headers['Content-Type'] ?? headers['content-type'];
  const write = span.startWrite({ method, path, operation: writeOperation(method, path, contentType) });
  const body = context.getBody?.();
  if (!span.propagation || typeof body !== 'string' || typeof context.setBody !== 'function' || !injects(method, path)) return write;
  try {
    const parsed: unknown = JSON.parse(body);
    const sent = withTraceparent(method, path, parsed, write.context);
    if (sent !== parsed) context.setBody(JSON.stringify(sent));
  } catch {
    // Not JSON (YAML apply): sent as it is.
  }
  return write;
}

/** Records a 2xx JSON answer: the object written, or deleted (a DELETE's answer); returns the answer. */
function recordAnswer(
  tracker: WriteTracker,
  context: RequestContextLike,
  status: number,
  header: (name: string) => string | undefined,
  body: Uint8Array,
): unknown {
  if (status < 200 || status > 299) return undefined;
  const encoding = header('content-encoding');
  if ((encoding !== undefined && encoding !== 'identity') || !(header('content-type') ?? 'application/json').includes('json')) return undefined;
  let answer: unknown;
  try {
    answer = JSON.parse(new TextDecoder().decode(body));
  } catch {
    return undefined;
  }
  const deleted = context.getHttpMethod().toUpperCase() === 'DELETE';
  const gone = answer as { kind?: string; details?: { name?: string; uid?: string } } | null;
  if (deleted && gone?.kind === 'Status') {
    // The object is gone and the answer is a Status: the deletion by name (the namespace from the
    // path), without a kind (it counts for the primary if it is the key reconciled).
    const namespace = /\/namespaces\/([^/]+)\/[^/]+\/[^/?]+/.exec(new URL(context.getUrl()).pathname)?.[1];
    const metadata = { name: gone.details?.name, uid: gone.details?.uid, ...(namespace === undefined ? {} : { namespace: decodeURIComponent(namespace) }) };
    recordWrite(tracker, { metadata } as KubeObjectLike, { deleted });
    return answer;
  }
  recordWrite(tracker, answer as KubeObjectLike, { deleted });
  return answer;
}

/** Overrides the context's agent (1.x) or dispatcher (2.x) getter so that the answer is tapped. */
function tapAnswer(context: RequestContextLike, answer: Answer): void {
  if (typeof context.getDispatcher === 'function') {
    const getDispatcher = context.getDispatcher.bind(context);
    context.getDispatcher = () => tappedDispatcher(getDispatcher(), answer);
  } else if (typeof context.getAgent === 'function') {
    const getAgent = context.getAgent.bind(context);
    context.getAgent = () => armAgent(getAgent(), answer);
  }
}

interface NodeAgentLike {
  addRequest(request: NodeRequestLike, options: unknown): unknown;
}
interface NodeRequestLike {
  once(event: 'response', listener: (res: NodeResponseLike) => void): unknown;
}
interface NodeResponseLike {
  readonly statusCode?: number;
  readonly headers: Record<string, string | string[] | undefined>;
  on(event: 'data', listener: (chunk: Uint8Array) => void): unknown;
  on(event: 'end', listener: () => void): unknown;
}

/**
 * client-node 1.x: node-fetch reads the agent and makes its http.ClientRequest (which hands itself
 * to `agent.addRequest`) in the same synchronous run. So the agent is armed for the next request
 * made through it in this turn only: that request's response is tapped, then the agent is as before.
 */
function armAgent(agent: unknown, answer: Answer): unknown {
  const a = agent as (NodeAgentLike & { addRequest: NodeAgentLike['addRequest'] }) | undefined;
  if (a === undefined || a === null || typeof a.addRequest !== 'function' || Object.hasOwn(a, 'addRequest')) return agent;
  const disarm = () => {
    if (a.addRequest === armed) delete (a as Partial<NodeAgentLike>).addRequest;
  };
  const armed = function (this: unknown, request: NodeRequestLike, options: unknown): unknown {
    disarm();
    request.once('response', (res) => readNodeResponse(res, answer));
    return Object.getPrototypeOf(a).addRequest.call(this, request, options);
  };
  a.addRequest = armed;
  queueMicrotask(disarm);
  return agent;
}

function readNodeResponse(res: NodeResponseLike, answer: Answer): void {
  const chunks: Uint8Array[] = [];
  let size = 0;
  // Listening to 'data' as node-fetch pipes the body: both get every chunk, at the pipe's pace.
  res.on('data', (chunk) => {
    size += chunk.length;
    if (size <= MAX_BODY_BYTES) chunks.push(chunk);
  });
  res.on('end', () => {
    if (size > MAX_BODY_BYTES) return;
    const header = (name: string) => {
      const v = res.headers[name];
      return Array.isArray(v) ? v.join(', ') : v;
    };
    answer(res.statusCode ?? 0, header, concat(chunks, size));
  });
}

interface DispatcherLike {
  compose(interceptor: (dispatch: Dispatch) => Dispatch): unknown;
}
type Dispatch = (options: unknown, handler: Record<string, unknown>) => unknown;

/**
 * client-node 2.x: undici's fetch dispatches through the request's dispatcher; composed with an
 * interceptor, the response's start, data and end pass through a handler that also reads them.
 */
function tappedDispatcher(dispatcher: unknown, answer: Answer): unknown {
  const d = dispatcher as DispatcherLike | undefined;
  if (d === undefined || d === null || typeof d.compose !== 'function') return dispatcher;
  return d.compose((dispatch) => (options, handler) => dispatch(options, tappingHandler(handler, answer)));
}

function tappingHandler(handler: Record<string, unknown>, answer: Answer): Record<string, unknown> {
  let status = 0;
  let headers: Record<string, unknown> = {};
  const chunks: Uint8Array[] = [];
  let size = 0;
  const call = (name: string, args: unknown[]): unknown => (handler[name] as ((...a: unknown[]) => unknown) | undefined)?.apply(handler, args);
  const taps: Record<string, (...args: unknown[]) => unknown> = {
    onResponseStart: (...args) => {
      status = Number(args[1]);
      headers = (args[2] as Record<string, unknown> | undefined) ?? {};
      return call('onResponseStart', args);
    },
    onResponseData: (...args) => {
      const chunk = args[1] as Uint8Array;
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
      return call('onResponseData', args);
    },
    onResponseEnd: (...args) => {
      if (size <= MAX_BODY_BYTES) {
        const header = (name: string) => {
          const v = headers[name];
          return Array.isArray(v) ? v.join(', ') : v === undefined ? undefined : String(v);
        };
        // Recorded before fetch hands the body on: the reconcile sees its answer after this.
        answer(status, header, concat(chunks, size));
      }
      return call('onResponseEnd', args);
    },
  };
  return new Proxy(handler, {
    get: (target, key) => {
      if (typeof key === 'string' && key in taps && typeof target[key] === 'function') return taps[key];
      const value = target[key as string];
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

function concat(chunks: ReadonlyArray<Uint8Array>, size: number): Uint8Array {
  if (chunks.length === 1) return chunks[0];
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}
