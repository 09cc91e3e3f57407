import { request } from 'node:https';
import type { SchedulerLike } from 'rxjs';

// How kube-apiserver calls a webhook (admission or CRD conversion): one POST of a review to the
// clientConfig's URL (or a Service's, which a test cluster maps to a URL or an in-process
// handler), TLS checked against the caBundle, `?timeout=Ns` added, the whole call bounded by the
// timeout on the server's scheduler. Failures carry kube's texts (ADMISSION.md §3.2, §4), which
// the caller wraps (`failed calling webhook "<name>": <reason>`, `conversion webhook for ... failed: <reason>`).

/**
 * A webhook's `clientConfig` (admissionregistration.k8s.io/v1, and a CRD's conversion webhook).
 *
 * @example
 * ```ts
 * const byUrl: WebhookClientConfig = { url: 'https://127.0.0.1:9443/validate', caBundle: base64Pem };
 * const byService: WebhookClientConfig = { service: { namespace: 'backups', name: 'webhooks', path: '/validate' } };
 * ```
 */
export interface WebhookClientConfig {
  readonly url?: string;
  readonly service?: {
    readonly namespace: string;
    readonly name: string;
    readonly path?: string;
    readonly port?: number;
  };
  /** Base64 of the PEM CA bundle; empty: the system roots. */
  readonly caBundle?: string;
}

/**
 * A handler the test cluster calls without HTTP: the review in, the review out (as JSON values).
 *
 * @example
 * ```ts
 * const handler: InProcessWebhook = async (review) => ({ ...review, response: { uid: '', allowed: true } });
 * ```
 */
export type InProcessWebhook = (review: unknown) => Promise<unknown> | unknown;

/**
 * Where a Service-form clientConfig goes in the test cluster (no DNS for `<svc>.<ns>.svc`): a URL,
 * or an in-process handler. Keyed `namespace/name` (any port and path) or `namespace/name:port/path`.
 *
 * @example
 * ```ts
 * const routes: WebhookRoutes = new Map([['backups/webhooks', 'https://127.0.0.1:9443']]);
 * ```
 */
export type WebhookRoutes = ReadonlyMap<string, string | InProcessWebhook>;

/**
 * A failed call: `reason` is kube's text for it (`failed to call webhook: Post "…": context
 * deadline exceeded`), `timedOut` says whether the time budget ran out.
 */
export class WebhookCallError extends Error {
  constructor(
    readonly reason: string,
    readonly timedOut: boolean,
  ) {
    super(reason);
  }
}

/** One call: where to, what, for how long, on which clock, with which routes and in-process handlers. */
export interface WebhookCall {
  readonly clientConfig: WebhookClientConfig;
  readonly body: unknown;
  readonly timeoutMs: number;
  readonly scheduler: SchedulerLike;
  readonly routes?: WebhookRoutes;
  /** Handlers by URL (exact, without the query), for webhooks configured by URL in unit tests. */
  readonly inProcess?: ReadonlyMap<string, InProcessWebhook>;
}

const MAX_RESPONSE_BYTES = 3 * 1024 * 1024;

/** The URL kube would call, without `?timeout`: the clientConfig's URL or the Service's. */
export function webhookUrl(config: WebhookClientConfig): string {
  if (config.url) return config.url;
  const s = config.service;
  if (!s)
    throw new WebhookCallError('failed to call webhook: clientConfig has neither url nor service', false);
  return `https://${s.name}.${s.namespace}.svc:${s.port ?? 443}${s.path ?? ''}`;
}

function route(
  call: WebhookCall,
  url: string,
): { readonly target: string | InProcessWebhook; readonly serverName?: string } {
  const s = call.clientConfig.service;
  if (s) {
    const exact = call.routes?.get(`${s.namespace}/${s.name}:${s.port ?? 443}${s.path ?? ''}`);
    const byName = call.routes?.get(`${s.namespace}/${s.name}`);
    const found = exact ?? byName;
    if (found === undefined) return { target: url };
    if (typeof found !== 'string') return { target: found };
    // A base URL: the Service's path goes after it; TLS still names the Service, as kube does.
    return {
      target: exact !== undefined ? found : `${found.replace(/\/$/, '')}${s.path ?? ''}`,
      serverName: `${s.name}.${s.namespace}.svc`,
    };
  }
  return { target: call.inProcess?.get(url) ?? url };
}

/**
 * Calls a webhook once and resolves to its decoded JSON answer; rejects with a
 * {@link WebhookCallError} carrying kube's text for the failure. Never throws synchronously.
 *
 * @example
 * ```ts
 * const answer = await callWebhook({ clientConfig: { url }, body: review, timeoutMs: 10_000, scheduler: asyncScheduler });
 * ```
 */
export function callWebhook(call: WebhookCall): Promise<unknown> {
  let url: string;
  try {
    url = webhookUrl(call.clientConfig);
  } catch (e) {
    return Promise.reject(e);
  }
  const seconds = Math.max(1, Math.ceil(call.timeoutMs / 1000));
  const shown = `Post "${url}?timeout=${seconds}s"`;
  return new Promise<unknown>((resolve, reject) => {
    let settled = false;
    const inFlight: { abort?: () => void } = {};
    const finish = (ok: boolean, value: unknown) => {
      if (settled) return;
      settled = true;
      timer.unsubscribe();
      inFlight.abort?.();
      if (ok) resolve(value);
      else reject(value);
    };
    const timer = call.scheduler.schedule(
      () =>
        finish(
          false,
          new WebhookCallError(`failed to call webhook: ${shown}: context deadline exceeded`, true),
        ),
      call.timeoutMs,
    );
    const { target, serverName } = route(call, url);
    if (typeof target !== 'string') {
      // In process: the handler's answer goes through JSON, as it would over the wire.
      Promise.resolve()
        .then(() => target(JSON.parse(JSON.stringify(call.body)) as unknown))
        .then(
          (answer) =>
            finish(true, answer === undefined ? undefined : (JSON.parse(JSON.stringify(answer)) as unknown)),
          (e: unknown) =>
            finish(
              false,
              new WebhookCallError(
                `failed to call webhook: ${shown}: ${e instanceof Error ? e.message : String(e)}`,
                false,
              ),
            ),
        );
      return;
    }
    inFlight.abort = post(target, seconds, serverName, call, shown, (ok, value) => finish(ok, value));
  });
}

function post(
  target: string,
  seconds: number,
  serverName: string | undefined,
  call: WebhookCall,
  shown: string,
  done: (ok: boolean, value: unknown) => void,
): () => void {
  let parsed: URL;
  try {
    parsed = new URL(target);
  } catch {
    done(false, new WebhookCallError(`failed to call webhook: ${shown}: invalid URL`, false));
    return () => undefined;
  }
  if (parsed.protocol !== 'https:') {
    done(
      false,
      new WebhookCallError(
        `failed to call webhook: ${shown}: unsupported protocol scheme "${parsed.protocol.replace(':', '')}"`,
        false,
      ),
    );
    return () => undefined;
  }
  parsed.searchParams.set('timeout', `${seconds}s`);
  const ca = call.clientConfig.caBundle
    ? Buffer.from(call.clientConfig.caBundle, 'base64').toString('utf8')
    : undefined;
  const payload = JSON.stringify(call.body);
  const req = request(
    parsed,
    {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        Accept: 'application/json, */*',
        'Content-Length': Buffer.byteLength(payload),
      },
      ...(ca ? { ca } : {}),
      ...(serverName ? { servername: serverName } : {}),
      agent: false,
    },
    (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (c: Buffer) => {
        size += c.length;
        if (size > MAX_RESPONSE_BYTES) {
          req.destroy();
          done(
            false,
            new WebhookCallError(`failed to call webhook: ${shown}: response body too large`, false),
          );
        } else chunks.push(c);
      });
      res.on('error', (e) =>
        done(false, new WebhookCallError(`failed to call webhook: ${shown}: ${e.message}`, false)),
      );
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        const code = res.statusCode ?? 0;
        if (code < 200 || code > 299) {
          done(
            false,
            new WebhookCallError(
              `failed to call webhook: an error on the server (${JSON.stringify(text.slice(0, 256))}) has prevented the request from succeeding`,
              false,
            ),
          );
          return;
        }
        try {
          done(true, JSON.parse(text) as unknown);
        } catch (e) {
          done(
            false,
            new WebhookCallError(`received invalid webhook response: ${(e as Error).message}`, false),
          );
        }
      });
    },
  );
  req.on('error', (e: NodeJS.ErrnoException) =>
    done(false, new WebhookCallError(`failed to call webhook: ${shown}: ${transportText(e, parsed)}`, false)),
  );
  req.end(payload);
  return () => req.destroy();
}

/** Go's wording of the usual transport failures (what kubectl users see in kube's message). */
function transportText(e: NodeJS.ErrnoException, url: URL): string {
  const hostPort = `${url.hostname}:${url.port || 443}`;
  switch (e.code) {
    case 'ECONNREFUSED':
      return `dial tcp ${hostPort}: connect: connection refused`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `dial tcp: lookup ${url.hostname}: no such host`;
    case 'ECONNRESET':
      return 'EOF';
    case 'UNABLE_TO_VERIFY_LEAF_SIGNATURE':
    case 'SELF_SIGNED_CERT_IN_CHAIN':
    case 'DEPTH_ZERO_SELF_SIGNED_CERT':
      return 'tls: failed to verify certificate: x509: certificate signed by unknown authority';
    case 'ERR_TLS_CERT_ALTNAME_INVALID':
      return `tls: failed to verify certificate: x509: certificate is not valid for ${url.hostname}`;
    case 'CERT_HAS_EXPIRED':
      return 'tls: failed to verify certificate: x509: certificate has expired or is not yet valid';
    default:
      return e.message;
  }
}
