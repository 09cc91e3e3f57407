import { createServer, type Server } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { asyncScheduler, firstValueFrom, from, map, type Observable, race, ReplaySubject, Subject, type Subscription, timer, type SchedulerLike } from 'rxjs';
import { ConfigError } from '../configError.js';
import { causeMessage, RxkubeError } from '../errors.js';
import { errorLogger, type LoggerOption } from '../logging/errorLogger.js';
import type { AdmissionWebhook } from './admissionWebhook.js';
import type { ConversionWebhook } from './conversionWebhook.js';
import { MAX_REQUEST_BYTES, readRequestBody } from './requestBody.js';
import { answerReview, type ReviewAnswer } from './reviewRequest.js';
import { CertificateError, type CertificateUpdate, type ServingCertificate } from './servingCertificate.js';
import { WebhookHandlerError } from './webhookErrors.js';
import type { WebhookServerMetric, WebhookServerStats } from './webhookServerMetrics.js';

/**
 * Something that serves Prometheus text: a prom-client `Registry` fits.
 *
 * @example
 * ```ts
 * const registry: MetricsText = new Registry();
 * ```
 */
export interface MetricsText {
  metrics(): Promise<string>;
  readonly contentType: string;
}

/**
 * Options of {@link webhookServer}.
 *
 * @example
 * ```ts
 * const options: WebhookServerOptions = { webhooks: [validateBackup], certificates: generatedCertificates(), host: '127.0.0.1', port: 0 };
 * ```
 */
export interface WebhookServerOptions {
  /** The webhooks, each served on its own path. */
  readonly webhooks: ReadonlyArray<AdmissionWebhook<unknown> | ConversionWebhook>;
  /** Where the serving certificate comes from: `fileCertificates`, `generatedCertificates`, `staticCertificate`. */
  readonly certificates: Observable<CertificateUpdate>;
  /** Default `0.0.0.0` (every IPv4 address, as controller-runtime); `127.0.0.1` in tests. */
  readonly host?: string;
  /** Default 9443 (controller-runtime's); 0 picks a free port. */
  readonly port?: number;
  /** Bodies over this are refused with 413. Default 7340032 (controller-runtime's). */
  readonly maxRequestBytes?: number;
  /** Serve this registry's text on `metricsPath` too (controller-runtime serves metrics on a port of its own; here it can share). */
  readonly metrics?: MetricsText;
  /** Default `/metrics`. */
  readonly metricsPath?: string;
  /** The clock of latencies and of the stop's grace period. Default `asyncScheduler`. */
  readonly scheduler?: SchedulerLike;
  /** Where errors are logged (handler failures, certificate reads); `false` for none. */
  readonly logger?: LoggerOption;
}

/**
 * An HTTPS server for admission and conversion webhooks: each webhook on its path, `/healthz`,
 * `/readyz` (ready while serving, 503 once stopping), optionally `/metrics`. Runs beside a
 * controller in the same process or alone.
 *
 * @example
 * ```ts
 * const { url } = await server.start();
 * // ...
 * await server.stop();
 * ```
 */
export interface WebhookServer {
  /** Listens once the first certificate is there; resolves with the port and a URL to reach it (rejects if the certificate cannot be had). */
  start(): Promise<{ readonly port: number; readonly url: string }>;
  /**
   * Stops: refuses new connections, lets requests in flight finish for up to `gracePeriodMs`
   * (default 10 000), then aborts them and closes every connection.
   */
  stop(gracePeriodMs?: number): Promise<void>;
  /** Serving, and not stopping. */
  ready(): boolean;
  /** The certificates served, the current one first on subscription (for keeping `caBundle` current). */
  readonly certificates$: Observable<ServingCertificate>;
  readonly metrics$: Observable<WebhookServerMetric>;
  /** Handler failures, timeouts, patch failures, certificate errors, and failures to answer. */
  readonly errors$: Observable<RxkubeError>;
  stats(): WebhookServerStats;
}

type Phase = 'idle' | 'starting' | 'serving' | 'stopping' | 'stopped';

const RESERVED = ['/healthz', '/readyz'];

function checkOptions(o: WebhookServerOptions): Map<string, AdmissionWebhook<unknown> | ConversionWebhook> {
  if (!Array.isArray(o?.webhooks) || o.webhooks.length === 0) throw new ConfigError('webhooks', 'webhookServer needs at least one webhook', { value: o?.webhooks });
  if (typeof o.certificates?.subscribe !== 'function') throw new ConfigError('certificates', 'webhookServer needs certificates: fileCertificates(...), generatedCertificates(...) or staticCertificate(...)', { value: o.certificates });
  const byPath = new Map<string, AdmissionWebhook<unknown> | ConversionWebhook>();
  const reserved = [...RESERVED, ...(o.metrics ? [o.metricsPath ?? '/metrics'] : [])];
  o.webhooks.forEach((w, i) => {
    if (reserved.includes(w.path)) throw new ConfigError(`webhooks[${i}]`, `${w.path} is the server's own path; give the webhook another`, { value: w.path });
    if (byPath.has(w.path)) throw new ConfigError(`webhooks[${i}]`, `two webhooks are served on ${w.path}; give one another path`, { value: w.path });
    byPath.set(w.path, w);
  });
  const max = o.maxRequestBytes ?? MAX_REQUEST_BYTES;
  if (!Number.isInteger(max) || max <= 0) throw new ConfigError('maxRequestBytes', 'maxRequestBytes must be a positive integer', { value: max });
  return byPath;
}

/**
 * An HTTPS webhook server (node:https, HTTP/1.1 with keep-alive) for the given webhooks, with
 * controller-runtime's behaviour: 200 with a review for every call it can read, 400 for a wrong
 * content type, an empty body, a body that is not JSON or not a review of a known version, 413
 * over the size limit; each handler's failure is a denial, never a crash. The TLS certificate
 * comes from `certificates` and is swapped in place (`setSecureContext`) when it changes.
 *
 * @example
 * ```ts
 * import { generatedCertificates, webhookServer } from 'rxkube/webhooks';
 * const server = webhookServer({ webhooks: [validateBackup, defaultRetention], certificates: generatedCertificates(), host: '127.0.0.1', port: 9443 });
 * await server.start();
 * ```
 */
export function webhookServer(options: WebhookServerOptions): WebhookServer {
  const byPath = checkOptions(options);
  const scheduler = options.scheduler ?? asyncScheduler;
  const limit = options.maxRequestBytes ?? MAX_REQUEST_BYTES;
  const metricsPath = options.metricsPath ?? '/metrics';
  const metrics$ = new Subject<WebhookServerMetric>();
  const errors$ = new Subject<RxkubeError>();
  const certificates$ = new ReplaySubject<ServingCertificate>(1);
  const inFlight = new Map<string, number>([...byPath.keys()].map((p) => [p, 0]));
  const running = new Set<Subscription>();
  const subscriptions: Subscription[] = [errors$.subscribe(errorLogger(options.logger, { scheduler }))];
  let phase: Phase = 'idle';
  let server: Server | undefined;

  const send = (res: ServerResponse, status: number, body: string, contentType = 'text/plain; charset=utf-8', extra: Record<string, string> = {}) => {
    if (res.headersSent || res.destroyed) return;
    res.writeHead(status, { 'Content-Type': contentType, 'Content-Length': Buffer.byteLength(body), ...(phase === 'stopping' ? { Connection: 'close' } : {}), ...extra });
    res.end(body);
  };

  const serveWebhook = (req: IncomingMessage, res: ServerResponse, path: string, webhook: AdmissionWebhook<unknown> | ConversionWebhook) => {
    const started = scheduler.now();
    inFlight.set(path, (inFlight.get(path) ?? 0) + 1);
    let code = 500;
    res.once('close', () => {
      inFlight.set(path, (inFlight.get(path) ?? 1) - 1);
      metrics$.next({ type: 'request', webhook: path, code, seconds: (scheduler.now() - started) / 1000 });
      if (phase === 'stopping') server?.closeIdleConnections();
    });
    const write = (answer: ReviewAnswer, closeAfter: boolean) => {
      code = answer.status;
      send(res, answer.status, JSON.stringify(answer.body), 'application/json', closeAfter ? { Connection: 'close' } : {});
    };
    readRequestBody(req, limit).then(
      (body) => {
        if (res.destroyed) return;
        const subscription = answerReview(webhook, req.headers['content-type'], body, limit).subscribe({
          next: (answer) => write(answer, body.type === 'tooLarge'),
          error: (e: unknown) => {
            errors$.next(e instanceof RxkubeError ? e : new RxkubeError('WebhookServerError', `${path}: could not answer: ${causeMessage(e)}`, { cause: e }));
            send(res, 500, `could not answer: ${causeMessage(e)}`);
          },
        });
        running.add(subscription);
        subscription.add(() => running.delete(subscription));
        // The caller went away: its answer is no longer wanted, so the handler is aborted.
        res.once('close', () => subscription.unsubscribe());
      },
      (e: unknown) => {
        code = 400;
        send(res, 400, `could not read the request body: ${causeMessage(e)}`);
      },
    );
  };

  const onRequest = (req: IncomingMessage, res: ServerResponse) => {
    const path = new URL(req.url ?? '/', 'https://webhook.invalid').pathname;
    if (path === '/healthz') return send(res, 200, 'ok');
    if (path === '/readyz') return phase === 'serving' ? send(res, 200, 'ok') : send(res, 503, `not ready: ${phase}`);
    if (options.metrics && path === metricsPath) {
      const registry = options.metrics;
      registry.metrics().then(
        (text) => send(res, 200, text, registry.contentType),
        (e: unknown) => send(res, 500, `metrics failed: ${causeMessage(e)}`),
      );
      return;
    }
    const webhook = byPath.get(path);
    if (!webhook) return send(res, 404, `no webhook is served on ${path}; served: ${[...byPath.keys()].join(', ')}`);
    if (req.method !== 'POST') return send(res, 405, `${req.method} ${path}: webhooks are called with POST`, undefined, { Allow: 'POST' });
    serveWebhook(req, res, path, webhook);
  };

  const onCertificate = (update: CertificateUpdate, resolveFirst: (c: ServingCertificate) => void, rejectFirst: (e: CertificateError) => void) => {
    metrics$.next({ type: 'certificateRead', failed: update.type === 'error' });
    if (update.type === 'error') {
      errors$.next(update.error);
      if (!server) rejectFirst(update.error);
      return;
    }
    const { cert, key } = update.certificate;
    if (server) server.setSecureContext({ cert, key });
    else resolveFirst(update.certificate);
    certificates$.next(update.certificate);
  };

  const start = async (): Promise<{ port: number; url: string }> => {
    if (phase !== 'idle') throw new RxkubeError('WebhookServerStateError', `the webhook server was already started (${phase}); make a new one`);
    phase = 'starting';
    for (const w of byPath.values()) {
      subscriptions.push(
        (w.errors$ as Observable<RxkubeError>).subscribe((e) => {
          errors$.next(e);
          if (e instanceof WebhookHandlerError) metrics$.next({ type: 'panic', webhookType: e.webhookType });
        }),
      );
    }
    const first = await new Promise<ServingCertificate>((resolve, reject) => {
      subscriptions.push(options.certificates.subscribe({ next: (u) => onCertificate(u, resolve, reject), error: (e: unknown) => reject(e) }));
    }).catch(async (e: unknown) => {
      await stop(0);
      throw e;
    });
    if (phase !== 'starting') throw new RxkubeError('WebhookServerStateError', 'the webhook server was stopped while starting');
    const s = createServer({ cert: first.cert, key: first.key }, onRequest);
    server = s;
    await new Promise<void>((resolve, reject) => {
      s.once('error', reject);
      s.listen(options.port ?? 9443, options.host ?? '0.0.0.0', () => {
        s.off('error', reject);
        resolve();
      });
    }).catch(async (e: unknown) => {
      await stop(0);
      throw e;
    });
    s.on('error', (e) => errors$.next(new RxkubeError('WebhookServerError', `the webhook server failed: ${causeMessage(e)}`, { cause: e })));
    phase = 'serving';
    const { port, address } = s.address() as AddressInfo;
    const host = address === '0.0.0.0' || address === '::' ? '127.0.0.1' : address.includes(':') ? `[${address}]` : address;
    return { port, url: `https://${host}:${port}` };
  };

  const stop = async (gracePeriodMs = 10_000): Promise<void> => {
    if (phase === 'stopped' || phase === 'stopping') return;
    phase = 'stopping';
    for (const s of subscriptions.splice(0)) s.unsubscribe();
    const s = server;
    if (s) {
      const closed = new Promise<void>((resolve) => s.close(() => resolve()));
      s.closeIdleConnections();
      // race unsubscribes the timer when the connections close first: no timer is left behind.
      const outcome = await firstValueFrom(race(from(closed).pipe(map(() => 'closed' as const)), timer(gracePeriodMs, scheduler).pipe(map(() => 'grace' as const))));
      if (outcome === 'grace') {
        for (const r of [...running]) r.unsubscribe();
        s.closeAllConnections();
        await closed;
      }
    }
    phase = 'stopped';
    certificates$.complete();
    metrics$.complete();
    errors$.complete();
  };

  return {
    start,
    stop,
    ready: () => phase === 'serving',
    certificates$: certificates$.asObservable(),
    metrics$: metrics$.asObservable(),
    errors$: errors$.asObservable(),
    stats: () => ({ inFlight: new Map(inFlight), paths: [...byPath.keys()] }),
  };
}
