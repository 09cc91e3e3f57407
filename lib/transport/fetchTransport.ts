import { RxkubeError } from '../errors.js';
import type { Transport, TransportRequest, TransportResponse } from './transport.js';

/**
 * `fetchTransport` was given a kubeconfig (a client-node `KubeConfig`) or no `baseUrl`. It cannot
 * authenticate the way a kubeconfig says: `fetch` in a browser has no client certificates, exec
 * plugins, token files, CA, `tls-server-name`, `insecure-skip-tls-verify` or `proxy-url` (the browser
 * decides TLS and proxies). Bearer tokens and impersonation it sends as `headers`; everything else
 * needs an authenticating proxy in front (`kubectl proxy`, an ingress). See docs/auth.md.
 *
 * @example
 * ```ts
 * try { fetchTransport(kc as never); } catch (e) { if (e instanceof FetchTransportUnsupportedError) console.log(e.message); }
 * ```
 */
export class FetchTransportUnsupportedError extends RxkubeError {
  constructor() {
    super(
      'FetchTransportUnsupportedError',
      'fetchTransport takes { baseUrl, headers? }, not a kubeconfig: fetch cannot use client certificates, exec plugins, token files, ' +
        'a CA, tls-server-name, insecure-skip-tls-verify or proxy-url. Point baseUrl at an authenticating proxy (kubectl proxy, an ingress), ' +
        'pass a bearer token or Impersonate-* headers in `headers`, or use clientNodeTransport(kubeConfig) on Node',
    );
  }
}

/**
 * Options of {@link fetchTransport}.
 *
 * @example
 * ```ts
 * const options: FetchTransportOptions = { baseUrl: '/k8s', init: { credentials: 'include' } };
 * ```
 */
export interface FetchTransportOptions {
  /**
   * The API server's URL, or a prefix it is served under: `http://127.0.0.1:8001` (`kubectl proxy`),
   * `/k8s` (an ingress or dev-server proxy on the app's own origin), `https://host/k8s`.
   */
  readonly baseUrl: string;
  /** Headers for every request (e.g. `Authorization`), or a function giving them per request. */
  readonly headers?:
    | Readonly<Record<string, string>>
    | (() => Readonly<Record<string, string>> | Promise<Readonly<Record<string, string>>>);
  /** Other `fetch` options, e.g. `{ credentials: 'include' }` for a cookie-authenticated proxy. */
  readonly init?: Omit<RequestInit, 'method' | 'headers' | 'signal' | 'body'>;
  /** The `fetch` to use; default `globalThis.fetch`. */
  readonly fetch?: typeof fetch;
}

/**
 * A {@link Transport} over plain `fetch` and web streams, for browsers (an Angular app reaching the
 * API server through `kubectl proxy` or an ingress) and any runtime with `fetch`. It adds no
 * authentication of its own: the proxy authenticates, or you pass `headers`.
 *
 * @example
 * ```ts
 * // kubectl proxy --port=8001, or an Angular dev-server proxy of /k8s to it
 * const transport = fetchTransport({ baseUrl: '/k8s' });
 * const pods = listWatch<V1Pod>(transport, { group: '', version: 'v1', plural: 'pods', namespaced: true });
 * ```
 */
export function fetchTransport(options: FetchTransportOptions): Transport {
  if (typeof options?.baseUrl !== 'string' || typeof (options as { getCurrentCluster?: unknown }).getCurrentCluster === 'function')
    throw new FetchTransportUnsupportedError();
  const base = options.baseUrl.replace(/\/+$/, '');
  return {
    async request(req: TransportRequest): Promise<TransportResponse> {
      const doFetch = options.fetch ?? globalThis.fetch;
      const extra = typeof options.headers === 'function' ? await options.headers() : options.headers;
      const query = new URLSearchParams(req.query).toString();
      const response = await doFetch(`${base}${req.path}${query ? `?${query}` : ''}`, {
        ...options.init,
        method: req.method,
        headers: {
          Accept: req.accept ?? 'application/json',
          ...(req.body === undefined ? {} : { 'Content-Type': req.contentType ?? 'application/json' }),
          ...extra,
        },
        ...(req.body === undefined ? {} : { body: req.body }),
        signal: req.signal,
      });
      return {
        status: response.status,
        header: (name) => response.headers.get(name) ?? undefined,
        body: readChunks(response.body),
      };
    },
  };
}

/** A web ReadableStream as an AsyncIterable (not every browser makes streams iterable yet). */
async function* readChunks(body: ReadableStream<Uint8Array> | null): AsyncGenerator<Uint8Array> {
  if (!body) return;
  const reader = body.getReader();
  let done = false;
  try {
    for (;;) {
      const next = await reader.read();
      if (next.done) {
        done = true;
        return;
      }
      yield next.value;
    }
  } finally {
    // Stopped early (unsubscribed): cancel, so the connection is released.
    if (!done) reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
}
