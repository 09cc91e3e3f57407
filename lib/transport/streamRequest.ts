import { Observable } from 'rxjs';
import { RxkubeError } from '../errors.js';
import { apiStatusErrorFromResponse } from './apiStatusErrorFromResponse.js';
import type { Transport, TransportResponse } from './transport.js';
import { TransportError } from './transportError.js';

// An error body longer than this is cut: a Status is small, and the body is only for the message.
const maxErrorBodyBytes = 64 * 1024;

/**
 * A GET as a cold Observable of the response body's chunks: each subscription sends one request,
 * unsubscribing aborts it (the connection is closed). A non-2xx status errors with an
 * `ApiStatusError`; a failure below HTTP with a {@link TransportError}.
 *
 * ```
 * subscribe -> GET  --chunk--chunk--|       (2xx: the body)
 *                   --#                     (4xx/5xx: ApiStatusError)
 * unsubscribe      -> request aborted
 * ```
 *
 * @example
 * ```ts
 * streamRequest$(transport, '/api/v1/pods', { watch: 'true' }).pipe(decodeWatchEvents<V1Pod>());
 * ```
 */
export function streamRequest$(
  transport: Transport,
  path: string,
  query: Readonly<Record<string, string>>,
  accept?: string,
): Observable<Uint8Array> {
  return new Observable<Uint8Array>((subscriber) => {
    const abort = new AbortController();
    const run = async (): Promise<void> => {
      const response = await transport.request({ method: 'GET', path, query, signal: abort.signal, ...(accept === undefined ? {} : { accept }) });
      if (response.status < 200 || response.status > 299) throw await errorFrom(response, path);
      for await (const chunk of response.body) {
        if (subscriber.closed) return;
        subscriber.next(chunk);
      }
      subscriber.complete();
    };
    run().catch((err: unknown) => {
      if (abort.signal.aborted) return; // we aborted: nobody is listening
      subscriber.error(err instanceof RxkubeError ? err : new TransportError(path, err));
    });
    return () => abort.abort();
  });
}

async function errorFrom(response: TransportResponse, path: string): Promise<RxkubeError> {
  const parts: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of response.body) {
    parts.push(chunk);
    size += chunk.length;
    if (size >= maxErrorBodyBytes) break;
  }
  const text = new TextDecoder().decode(concatBytes(parts, size));
  return apiStatusErrorFromResponse(response.status, text, response.header('retry-after'), `GET ${path}`);
}

/**
 * Joins byte chunks into one array (one copy).
 *
 * @example
 * ```ts
 * concatBytes([new Uint8Array([1]), new Uint8Array([2, 3])]); // Uint8Array [1, 2, 3]
 * ```
 */
export function concatBytes(
  parts: ReadonlyArray<Uint8Array>,
  size = parts.reduce((n, p) => n + p.length, 0),
): Uint8Array {
  if (parts.length === 1 && parts[0]!.length === size) return parts[0]!;
  const out = new Uint8Array(size);
  let at = 0;
  for (const part of parts) {
    out.set(part.subarray(0, Math.min(part.length, size - at)), at);
    at += part.length;
    if (at >= size) break;
  }
  return out;
}
