import type { KubeConfig } from '@kubernetes/client-node';
import type * as NodeHttp from 'node:http';
import type * as NodeHttps from 'node:https';
import { RxkubeError } from '../errors.js';
import type { Transport, TransportRequest, TransportResponse } from './transport.js';
import { ApiServerUnreachableError, isFallbackKubeConfig, isUnreachable } from './unreachableError.js';

interface NodeModules {
  readonly http: typeof NodeHttp;
  readonly https: typeof NodeHttps;
}

let nodeModules: Promise<NodeModules> | undefined;

/**
 * node:http and node:https, loaded on the first request rather than imported: `rxkube` exports
 * this transport, and a static import of Node built-ins would break browser bundles of `rxkube`
 * that never use it. `process.getBuiltinModule` (Node >= 20.16) is meant for exactly this; the
 * dynamic import with a computed specifier (which bundlers leave alone) covers older Nodes.
 */
function loadNodeModules(): Promise<NodeModules> {
  nodeModules ??= (async () => {
    const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
    if (typeof proc?.getBuiltinModule === 'function') {
      return {
        http: proc.getBuiltinModule('node:http') as typeof NodeHttp,
        https: proc.getBuiltinModule('node:https') as typeof NodeHttps,
      };
    }
    const load = (id: string): Promise<unknown> => import(/* @vite-ignore */ /* webpackIgnore: true */ id);
    return {
      http: (await load('node:http')) as typeof NodeHttp,
      https: (await load('node:https')) as typeof NodeHttps,
    };
  })();
  return nodeModules;
}

/**
 * The client-node transport, with `destroy` to close its idle keep-alive connections.
 *
 * @example
 * ```ts
 * const transport: ClientNodeTransport = clientNodeTransport(kc);
 * // ... when done with every ListWatch over it:
 * transport.destroy();
 * ```
 */
export interface ClientNodeTransport extends Transport {
  /** Closes the idle pooled connections. Requests in flight are not affected. */
  destroy(): void;
}

/**
 * The Node {@link Transport}: node:http/https requests authenticated by a @kubernetes/client-node
 * `KubeConfig`. Every request asks the KubeConfig for its current options
 * (`kubeConfig.applyToHTTPSOptions`), so bearer tokens, client certificates, exec plugins and
 * token refresh, certificate authorities, `tls-server-name` and impersonation work as in
 * client-node, and `insecure-skip-tls-verify` applies only when the kubeconfig sets it. Connections
 * are pooled in the transport's own keep-alive agents (one pool per TLS identity); a cluster with
 * a `proxy-url` uses client-node's proxy agent instead.
 *
 * It does not use fetch: on Node, node:http measured cheaper in CPU (see docs/listwatch.md, Performance).
 *
 * @example
 * ```ts
 * import { KubeConfig } from '@kubernetes/client-node';
 * const kc = new KubeConfig();
 * kc.loadFromDefault();
 * const pods = listWatch<V1Pod>(clientNodeTransport(kc), { group: '', version: 'v1', plural: 'pods', namespaced: true });
 * ```
 */
export function clientNodeTransport(kubeConfig: KubeConfig): ClientNodeTransport {
  let agents: { http: NodeHttp.Agent; https: NodeHttps.Agent } | undefined;
  return {
    async request(req: TransportRequest): Promise<TransportResponse> {
      const { http, https } = await loadNodeModules();
      agents ??= { http: new http.Agent({ keepAlive: true }), https: new https.Agent({ keepAlive: true }) };
      const cluster = kubeConfig.getCurrentCluster();
      if (!cluster)
        throw new RxkubeError(
          'NoCurrentCluster',
          'the kubeconfig has no current cluster (set a current-context)',
        );
      const auth: NodeHttps.RequestOptions = {};
      await kubeConfig.applyToHTTPSOptions(auth);
      req.signal.throwIfAborted();
      const url = new URL(cluster.server);
      const secure = url.protocol === 'https:';
      const query = new URLSearchParams(req.query).toString();
      const options: NodeHttps.RequestOptions = {
        method: req.method,
        protocol: url.protocol,
        hostname: url.hostname,
        port: url.port,
        path: `${url.pathname.replace(/\/+$/, '')}${req.path}${query ? `?${query}` : ''}`,
        headers: {
          ...auth.headers,
          Accept: 'application/json',
          ...(req.body === undefined ? {} : { 'Content-Type': 'application/json' }),
        },
        auth: auth.auth,
        agent: cluster.proxyUrl ? auth.agent : secure ? agents.https : agents.http,
      };
      if (secure) {
        options.ca = auth.ca;
        options.cert = auth.cert;
        options.key = auth.key;
        options.pfx = auth.pfx;
        options.passphrase = auth.passphrase;
        options.servername = auth.servername;
        if (auth.rejectUnauthorized !== undefined) options.rejectUnauthorized = auth.rejectUnauthorized;
      }
      return new Promise<TransportResponse>((resolve, reject) => {
        let response: NodeHttp.IncomingMessage | undefined;
        const request = (secure ? https : http).request(options, (res) => {
          response = res;
          // The body's own iterator reports its errors; this keeps an unread body from throwing.
          res.on('error', () => undefined);
          resolve({
            status: res.statusCode ?? 0,
            header: (name) => {
              const value = res.headers[name.toLowerCase()];
              return Array.isArray(value) ? value.join(', ') : value;
            },
            body: res,
          });
        });
        // Not http.request's `signal` option: aborting through it a response that has just ended
        // (a consumer unsubscribing on the last event) destroys a socket already back in the pool,
        // and the AbortError surfaces as an uncaught exception. A finished response needs no abort.
        const onAbort = (): void => {
          if (response?.complete) return;
          request.destroy(new DOMException('This operation was aborted', 'AbortError'));
        };
        req.signal.addEventListener('abort', onAbort, { once: true });
        request.on('close', () => req.signal.removeEventListener('abort', onAbort));
        request.on('error', (err) => {
          if (!isUnreachable(err)) return reject(err);
          const target = {
            server: cluster.server,
            context: kubeConfig.getCurrentContext(),
            isFallback: isFallbackKubeConfig({
              cluster: cluster.name,
              server: cluster.server,
              user: kubeConfig.getCurrentUser()?.name,
              context: kubeConfig.getCurrentContext(),
            }),
          };
          reject(new ApiServerUnreachableError(req.path, target, err));
        });
        request.end(req.body);
      });
    },
    destroy() {
      agents?.http.destroy();
      agents?.https.destroy();
      agents = undefined;
    },
  };
}
