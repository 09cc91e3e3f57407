import { Observable } from 'rxjs';
import { RxkubeError } from '../errors.js';
import { apiStatusErrorFromResponse } from './apiStatusErrorFromResponse.js';
import { concatBytes } from './streamRequest.js';
import type { Transport, TransportRequest } from './transport.js';
import { TransportError } from './transportError.js';
import { currentWriteTracker } from '../write/writeScope.js';
import { recordWrite } from '../write/writeTracker.js';
import { endWriteSpan, reconcileSpanOf, withTraceparent, writeOperation } from '../tracing/writeSpans.js';

/**
 * One JSON request as a cold Observable of the parsed response body: each subscription sends it,
 * unsubscribing aborts it. A write subscribed to inside a controller's reconcile records its answer
 * for that reconcile (read-your-own-writes, see `WriteScope`). `options` add a query and a content type other than JSON's (the body is
 * sent as JSON text either way: an apply's `application/apply-patch+yaml` takes JSON, which is YAML). A non-2xx status errors with an `ApiStatusError` (so a 404 or a 409 is
 * told by `statusCode`); a failure below HTTP, or a body that is not JSON, with a
 * {@link TransportError}.
 *
 * @example
 * ```ts
 * jsonRequest$(transport, 'PUT', '/apis/coordination.k8s.io/v1/namespaces/default/leases/a', lease)
 *   .subscribe({ next: (stored) => console.log(stored), error: (e) => e instanceof ApiStatusError && e.statusCode === 409 });
 * ```
 */
export function jsonRequest$(
  transport: Transport,
  method: TransportRequest['method'],
  path: string,
  body?: unknown,
  options: { readonly query?: Readonly<Record<string, string>>; readonly contentType?: string } = {},
): Observable<unknown> {
  return new Observable<unknown>((subscriber) => {
    const abort = new AbortController();
    // A write sent inside a reconcile is recorded for it (read-your-own-writes), as client-node's are.
    const tracker = method === 'GET' ? undefined : currentWriteTracker();
    // In a traced reconcile: the write is a child span, and carries it in KEP-5915's annotation.
    const span = reconcileSpanOf(tracker);
    const write = span?.startWrite({ method, path, operation: writeOperation(method, path, options.contentType) });
    const sent = span?.propagation === true ? withTraceparent(method, path, body, write?.context) : body;
    let status: number | undefined;
    const run = async (): Promise<void> => {
      const response = await transport.request({
        method,
        path,
        query: options.query ?? {},
        signal: abort.signal,
        ...(sent === undefined ? {} : { body: JSON.stringify(sent) }),
        ...(options.contentType === undefined ? {} : { contentType: options.contentType }),
      });
      const parts: Uint8Array[] = [];
      for await (const chunk of response.body) parts.push(chunk.slice()); // a transport may reuse a chunk once the next is asked for
      const text = new TextDecoder().decode(concatBytes(parts));
      status = response.status;
      if (response.status < 200 || response.status > 299) {
        throw apiStatusErrorFromResponse(response.status, text, response.header('retry-after'), `${method} ${path}`);
      }
      const parsed: unknown = text === '' ? undefined : JSON.parse(text);
      if (tracker !== undefined && (parsed as { kind?: unknown } | undefined)?.kind !== 'Status') recordWrite(tracker, parsed, { deleted: method === 'DELETE' });
      if (write !== undefined) endWriteSpan(write, response.status, parsed);
      subscriber.next(parsed);
      subscriber.complete();
    };
    run().catch((err: unknown) => {
      if (write !== undefined) endWriteSpan(write, status, undefined, err);
      if (abort.signal.aborted) return; // we aborted: nobody is listening
      subscriber.error(err instanceof RxkubeError ? err : new TransportError(`${path} (${method})`, err));
    });
    return () => abort.abort();
  });
}
