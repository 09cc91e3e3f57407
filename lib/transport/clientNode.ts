import type { KubeConfig } from '@kubernetes/client-node';
import type * as NodeHttp from 'node:http';
import type * as NodeHttps from 'node:https';
import type * as NodeCrypto from 'node:crypto';
import { RxkubeError } from '../errors.js';
import { CredentialError } from './credentialError.js';
import { trackClientNodeWrites } from './clientNodeWrites.js';
import { kubeConfigCredentials, messageOf, type AppliedCredentials } from './kubeConfigCredentials.js';
import type { Transport, TransportRequest, TransportResponse } from './transport.js';
import {
  ApiServerUnreachableError,
  isFallbackKubeConfig,
  isUnreachable,
  NoKubeConfigError,
  type ApiServerTarget,
} from './unreachableError.js';

interface NodeModules {
  readonly http: typeof NodeHttp;
  readonly https: typeof NodeHttps;
  readonly crypto: typeof NodeCrypto;
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
        crypto: proc.getBuiltinModule('node:crypto') as typeof NodeCrypto,
      };
    }
    const load = (id: string): Promise<unknown> => import(/* @vite-ignore */ /* webpackIgnore: true */ id);
    return {
      http: (await load('node:http')) as typeof NodeHttp,
      https: (await load('node:https')) as typeof NodeHttps,
      crypto: (await load('node:crypto')) as typeof NodeCrypto,
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
 * Options of {@link clientNodeTransport}.
 *
 * @example
 * ```ts
 * const options: ClientNodeTransportOptions = { impersonate: { groups: ['system:authenticated', 'viewers'] } };
 * ```
 */
export interface ClientNodeTransportOptions {
  /**
   * Impersonation headers client-node does not send: a kubeconfig's `as-groups`, `as-uid` and
   * `as-user-extra` are dropped when client-node loads it (only `as` becomes `Impersonate-User`).
   * Give them here; they go with every request, next to the kubeconfig's `as`.
   */
  readonly impersonate?: {
    readonly groups?: ReadonlyArray<string>;
    readonly uid?: string;
    readonly extra?: Readonly<Record<string, ReadonlyArray<string>>>;
  };
}

/**
 * The Node {@link Transport}: node:http/https requests authenticated by a @kubernetes/client-node
 * `KubeConfig`. Every request asks the KubeConfig for its current options
 * (`kubeConfig.applyToHTTPSOptions`), so bearer tokens, client certificates, exec plugins and
 * token files, certificate authorities, `tls-server-name` and impersonation (`as`) work as in
 * client-node, and `insecure-skip-tls-verify` applies only when the kubeconfig sets it. Connections
 * are pooled in the transport's own keep-alive agents (one pool per TLS identity); a cluster with
 * a `proxy-url` uses client-node's proxy agent instead.
 *
 * Credentials that expire are handled as client-go does (see docs/auth.md): after a 401, cached
 * exec and token-file credentials are dropped and the request is sent once more if the new ones
 * differ. Credentials that cannot be obtained or used fail as a {@link CredentialError}.
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
export function clientNodeTransport(kubeConfig: KubeConfig, transportOptions: ClientNodeTransportOptions = {}): ClientNodeTransport {
  // Writes a reconcile sends through API clients of this KubeConfig are recorded for it (read-your-own-writes).
  trackClientNodeWrites(kubeConfig);
  let agents: { http: NodeHttp.Agent; https: NodeHttps.Agent } | undefined;
  const credentials = kubeConfigCredentials(kubeConfig);
  const extraHeaders = impersonationHeaders(transportOptions.impersonate);
  const send = (modules: NodeModules, applied: AppliedCredentials, req: TransportRequest): Promise<SentResponse> => {
    const { http, https } = modules;
    agents ??= { http: new http.Agent({ keepAlive: true }), https: new https.Agent({ keepAlive: true }) };
    const { options, secure } = requestOptions(kubeConfig, applied.options, req, agents, extraHeaders);
    return new Promise<SentResponse>((resolve, reject) => {
      let response: NodeHttp.IncomingMessage | undefined;
      let request: NodeHttp.ClientRequest;
      try {
        request = (secure ? https : http).request(options, (res) => {
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
            discard: () => void res.resume(),
          });
        });
      } catch (e) {
        // TLS material Node cannot use (a key that does not match its certificate) fails here, synchronously.
        reject(unusableTlsMaterial(kubeConfig, e));
        return;
      }
      // Not http.request's `signal` option: aborting through it a response that has just ended
      // (a consumer unsubscribing on the last event) destroys a socket already back in the pool,
      // and the AbortError surfaces as an uncaught exception. A finished response needs no abort.
      const onAbort = (): void => {
        if (response?.complete) return;
        request.destroy(new DOMException('This operation was aborted', 'AbortError'));
      };
      req.signal.addEventListener('abort', onAbort, { once: true });
      request.on('close', () => req.signal.removeEventListener('abort', onAbort));
      request.on('error', (err) => reject(isUnreachable(err) ? unreachable(kubeConfig, req, err) : err));
      request.end(req.body);
    });
  };
  return {
    async request(req: TransportRequest): Promise<TransportResponse> {
      // No kubeconfig at all: no request can succeed, so say that rather than client-node's
      // "HTTP protocol is not allowed" from deep inside its agent.
      const target = targetOf(kubeConfig);
      if (target.isFallback && kubeConfig.getCurrentCluster()?.skipTLSVerify !== true) {
        throw new NoKubeConfigError(req.path, target);
      }
      const modules = await loadNodeModules();
      let used = await credentials.apply();
      req.signal.throwIfAborted();
      let response = await send(modules, used, req);
      if (response.status === 401) {
        const renewed = await credentials.refreshAfter401(used);
        if (renewed) {
          response.discard();
          req.signal.throwIfAborted();
          used = renewed;
          response = await send(modules, used, req);
        }
      }
      if (response.status === 401) {
        const expired = expiredClientCertificate(modules, kubeConfig, used);
        if (expired) {
          response.discard();
          throw expired;
        }
      }
      return response;
    },
    destroy() {
      agents?.http.destroy();
      agents?.https.destroy();
      agents = undefined;
    },
  };
}

/** The node:http(s) options of one request: the cluster's URL, the credentials' headers and TLS material. */
function requestOptions(
  kubeConfig: KubeConfig,
  auth: NodeHttps.RequestOptions,
  req: TransportRequest,
  agents: { http: NodeHttp.Agent; https: NodeHttps.Agent },
  extraHeaders: NodeHttp.OutgoingHttpHeaders,
): { options: NodeHttps.RequestOptions; secure: boolean } {
  const cluster = kubeConfig.getCurrentCluster();
  if (!cluster)
    throw new RxkubeError('NoCurrentCluster', 'the kubeconfig has no current cluster (set a current-context)');
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
      ...extraHeaders,
      Accept: req.accept ?? 'application/json',
      ...(req.body === undefined ? {} : { 'Content-Type': req.contentType ?? 'application/json' }),
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
  return { options, secure };
}

/** Where requests go, and whether that is client-node's no-kubeconfig fallback. */
function targetOf(kubeConfig: KubeConfig): ApiServerTarget {
  const cluster = kubeConfig.getCurrentCluster();
  const server = cluster?.server ?? '';
  return {
    server,
    context: kubeConfig.getCurrentContext(),
    isFallback: isFallbackKubeConfig({
      cluster: cluster?.name,
      server,
      user: kubeConfig.getCurrentUser()?.name,
      context: kubeConfig.getCurrentContext(),
    }),
  };
}

/** A connection refused or a name not resolved: say which server and kubeconfig (or its absence). */
function unreachable(kubeConfig: KubeConfig, req: TransportRequest, err: Error): ApiServerUnreachableError {
  return new ApiServerUnreachableError(req.path, targetOf(kubeConfig), err);
}

interface SentResponse extends TransportResponse {
  /** Reads and drops the body, so the connection goes back to the pool. */
  discard(): void;
}

function impersonationHeaders(i: ClientNodeTransportOptions['impersonate']): NodeHttp.OutgoingHttpHeaders {
  const headers: NodeHttp.OutgoingHttpHeaders = {};
  if (i?.groups?.length) headers['Impersonate-Group'] = [...i.groups];
  if (i?.uid !== undefined) headers['Impersonate-Uid'] = i.uid;
  for (const [key, values] of Object.entries(i?.extra ?? {})) headers[`Impersonate-Extra-${encodeURIComponent(key)}`] = [...values];
  return headers;
}

function unusableTlsMaterial(kc: KubeConfig, err: unknown): unknown {
  const code = (err as { code?: unknown } | undefined)?.code;
  if (typeof code !== 'string' || !code.startsWith('ERR_OSSL')) return err;
  const user = kc.getCurrentUser()?.name ?? '';
  const why = messageOf(err);
  return new CredentialError(user, `kubeconfig user "${user}": its client certificate, key or CA cannot be used (${why}); check that the key belongs to the certificate`, { cause: err });
}

/** After a 401: a CredentialError when the client certificate sent has expired (or is not yet valid), else undefined. */
function expiredClientCertificate(modules: NodeModules, kc: KubeConfig, applied: AppliedCredentials): CredentialError | undefined {
  const cert = applied.options.cert;
  if (cert === undefined || Array.isArray(cert)) return undefined;
  let x509: NodeCrypto.X509Certificate;
  try {
    x509 = new modules.crypto.X509Certificate(cert as string | Buffer);
  } catch {
    return undefined;
  }
  const now = Date.now();
  const from = Date.parse(x509.validFrom);
  const to = Date.parse(x509.validTo);
  if (now >= from && now <= to) return undefined;
  const user = kc.getCurrentUser()?.name ?? '';
  const when = now > to ? `expired on ${new Date(to).toISOString()}` : `is not valid before ${new Date(from).toISOString()}`;
  return new CredentialError(
    user,
    `kubeconfig user "${user}": the server answered 401 Unauthorized because the client certificate ${when}; renew it (kubeadm certs renew, or a fresh kubeconfig from the cluster's tooling)`,
  );
}
