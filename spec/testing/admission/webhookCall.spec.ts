// The test cluster's webhook caller against real HTTPS servers on loopback: kube's texts for each
// failure, TLS checked against the caBundle, the time budget on the given scheduler.
import { afterEach, describe, expect, it } from '@jest/globals';
import { createServer as createHttpsServer, type Server } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { VirtualTimeScheduler, asyncScheduler } from 'rxjs';
import { generateCertificates } from '../../../lib/testing/fakeApiServer/auth/certificates.js';
import { WebhookCallError, callWebhook } from '../../../lib/testing/fakeApiServer/admission/webhookCall.js';

const certs = generateCertificates();
const caBundle = Buffer.from(certs.caCert).toString('base64');
const servers: Server[] = [];

afterEach(async () => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
});

async function serve(
  handler: (req: IncomingMessage, res: ServerResponse, body: string) => void,
): Promise<string> {
  const s = createHttpsServer({ cert: certs.serverCert, key: certs.serverKey }, (req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => handler(req, res, body));
  });
  servers.push(s);
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  return `https://127.0.0.1:${(s.address() as AddressInfo).port}`;
}

const fails = async (p: Promise<unknown>): Promise<WebhookCallError> => {
  try {
    await p;
  } catch (e) {
    if (e instanceof WebhookCallError) return e;
    throw e;
  }
  throw new Error('the call succeeded');
};

describe('callWebhook: how the test cluster calls a webhook', () => {
  it('POSTs the review as JSON with ?timeout= rounded up, checks TLS against the caBundle, and decodes the answer', async () => {
    let seen: { url?: string; type?: string; body?: unknown } = {};
    const base = await serve((req, res, body) => {
      seen = { url: req.url, type: req.headers['content-type'], body: JSON.parse(body) as unknown };
      res
        .writeHead(200, { 'Content-Type': 'application/json' })
        .end('{"response":{"uid":"u1","allowed":true}}');
    });
    const answer = await callWebhook({
      clientConfig: { url: `${base}/validate`, caBundle },
      body: { request: { uid: 'u1' } },
      timeoutMs: 9_500,
      scheduler: asyncScheduler,
    });
    expect(answer).toEqual({ response: { uid: 'u1', allowed: true } });
    expect(seen).toEqual({
      url: '/validate?timeout=10s',
      type: 'application/json',
      body: { request: { uid: 'u1' } },
    });
  });

  it('a Service clientConfig goes where the routes say, with TLS naming <svc>.<ns>.svc', async () => {
    const base = await serve((req, res) => res.writeHead(200).end(JSON.stringify({ path: req.url })));
    const answer = await callWebhook({
      clientConfig: { service: { namespace: 'default', name: 'kubernetes', path: '/convert' }, caBundle },
      body: {},
      timeoutMs: 10_000,
      scheduler: asyncScheduler,
      routes: new Map([['default/kubernetes', base]]),
    });
    expect(answer).toEqual({ path: '/convert?timeout=10s' });
  });

  it('in-process handlers (by URL or by Service) get the review as JSON and their answer goes back through JSON', async () => {
    const byUrl = await callWebhook({
      clientConfig: { url: 'https://hooks.test/validate' },
      body: { n: 1 },
      timeoutMs: 1000,
      scheduler: asyncScheduler,
      inProcess: new Map([['https://hooks.test/validate', (r: unknown) => ({ got: r, at: new Date(0) })]]),
    });
    expect(byUrl).toEqual({ got: { n: 1 }, at: '1970-01-01T00:00:00.000Z' });
    const thrown = await fails(
      callWebhook({
        clientConfig: { service: { namespace: 'ns', name: 'hooks', path: '/mutate' } },
        body: {},
        timeoutMs: 1000,
        scheduler: asyncScheduler,
        routes: new Map([['ns/hooks', () => Promise.reject(new Error('handler broke'))]]),
      }),
    );
    expect(thrown.reason).toBe(
      'failed to call webhook: Post "https://hooks.ns.svc:443/mutate?timeout=1s": handler broke',
    );
  });

  it("an unknown CA, a refused connection, a non-2xx answer and a body that is not JSON each get kube's text", async () => {
    const ok = await serve((_req, res) => res.writeHead(200).end('{}'));
    const noCa = await fails(
      callWebhook({ clientConfig: { url: `${ok}/v` }, body: {}, timeoutMs: 5000, scheduler: asyncScheduler }),
    );
    expect(noCa.reason).toBe(
      `failed to call webhook: Post "${ok}/v?timeout=5s": tls: failed to verify certificate: x509: certificate signed by unknown authority`,
    );

    const closed = await serve(() => undefined);
    const port = new URL(closed).port;
    const s = servers.pop()!;
    await new Promise((r) => s.close(r));
    const refused = await fails(
      callWebhook({
        clientConfig: { url: `https://127.0.0.1:${port}/v`, caBundle },
        body: {},
        timeoutMs: 5000,
        scheduler: asyncScheduler,
      }),
    );
    expect(refused.reason).toBe(
      `failed to call webhook: Post "https://127.0.0.1:${port}/v?timeout=5s": dial tcp 127.0.0.1:${port}: connect: connection refused`,
    );

    const broken = await serve((_req, res) => res.writeHead(500).end('boom'));
    const status = await fails(
      callWebhook({
        clientConfig: { url: `${broken}/v`, caBundle },
        body: {},
        timeoutMs: 5000,
        scheduler: asyncScheduler,
      }),
    );
    expect(status.reason).toBe(
      'failed to call webhook: an error on the server ("boom") has prevented the request from succeeding',
    );

    const garbage = await serve((_req, res) => res.writeHead(200).end('not json'));
    const invalid = await fails(
      callWebhook({
        clientConfig: { url: `${garbage}/v`, caBundle },
        body: {},
        timeoutMs: 5000,
        scheduler: asyncScheduler,
      }),
    );
    expect(invalid.reason).toMatch(/^received invalid webhook response: /);
    expect([noCa, refused, status, invalid].map((e) => e.timedOut)).toEqual([false, false, false, false]);
  });

  it("a webhook that does not answer within the budget fails with context deadline exceeded, on the given scheduler's time", async () => {
    let arrived: () => void = () => undefined;
    const inFlight = new Promise<void>((r) => (arrived = r));
    const silent = await serve(() => arrived());
    const scheduler = new VirtualTimeScheduler();
    const call = fails(
      callWebhook({
        clientConfig: { url: `${silent}/slow`, caBundle },
        body: {},
        timeoutMs: 2500,
        scheduler,
      }),
    );
    await inFlight;
    scheduler.flush();
    const e = await call;
    expect(e.timedOut).toBe(true);
    expect(e.reason).toBe(
      `failed to call webhook: Post "${silent}/slow?timeout=3s": context deadline exceeded`,
    );
  });
});
