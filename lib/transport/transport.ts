/**
 * One HTTP request a {@link Transport} makes for a ListWatch: a GET on an API path, with a query
 * string (already decided, values unencoded) and an `AbortSignal` that aborts it, response body
 * included.
 *
 * @example
 * ```ts
 * const req: TransportRequest = { method: 'GET', path: '/api/v1/pods', query: { watch: 'true' }, signal: new AbortController().signal };
 * ```
 */
export interface TransportRequest {
  /** GET for lists and watches; the writes (a Lease lock's create, update, delete, an apply's PATCH) send a body. */
  readonly method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** The API path, e.g. `/api/v1/namespaces/default/pods`; the transport adds its server URL. */
  readonly path: string;
  /** Query parameters, unencoded, in the order to send them. */
  readonly query: Readonly<Record<string, string>>;
  /**
   * The `Accept` header; unset: `application/json`. Metadata-only lists and watches ask for
   * `application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json`. A transport
   * that ignores it still works: the answer's kind tells (see `metadataListWatch`).
   */
  readonly accept?: string;
  /** A request body (sent with `Content-Type: application/json` unless `contentType` says otherwise), for POST, PUT and PATCH. */
  readonly body?: string;
  /** The body's content type, e.g. `application/apply-patch+yaml`; default `application/json`. */
  readonly contentType?: string;
  /** Aborting it aborts the request or the body being read: the connection is closed. */
  readonly signal: AbortSignal;
}

/**
 * The response to a {@link TransportRequest}: status, headers, and the body as byte chunks.
 *
 * @example
 * ```ts
 * const res: TransportResponse = await transport.request(req);
 * if (res.status === 200) for await (const chunk of res.body) console.log(chunk.length);
 * ```
 */
export interface TransportResponse {
  readonly status: number;
  /** A response header by (case-insensitive) name, or `undefined`. */
  header(name: string): string | undefined;
  /**
   * The body, chunk by chunk, as it arrives. The iterator ends with the body and throws when the
   * connection fails or the request's signal aborts. A chunk must not be changed after it is
   * yielded until the next one is asked for.
   */
  readonly body: AsyncIterable<Uint8Array>;
}

/**
 * How a ListWatch talks HTTP: one method, GET a path, get the status, headers and a streamed body.
 * rxkube ships two: `clientNodeTransport(kubeConfig)` for Node (node:http/https with everything
 * the kubeconfig authenticates with) and `fetchTransport({ baseUrl })` for browsers (plain `fetch`
 * and web streams, e.g. through `kubectl proxy`). Implement it to plug in your own (a test double,
 * a tunnel, another HTTP client).
 *
 * @example
 * ```ts
 * const logging: Transport = {
 *   request: (req) => { console.log('GET', req.path, req.query); return inner.request(req); },
 * };
 * const lw = listWatch<V1Pod>(logging, pods);
 * ```
 */
export interface Transport {
  /** Sends the request; resolves when the status and headers have arrived. */
  request(request: TransportRequest): Promise<TransportResponse>;
}
