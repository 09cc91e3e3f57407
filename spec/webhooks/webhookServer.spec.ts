// The webhook server over real HTTPS on loopback, called as kube-apiserver calls it (node:https,
// trusting the generated CA): reviews, refusals, health, metrics text, keep-alive and the clean stop.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Agent } from 'node:https';
import { Registry } from 'prom-client';
import { NEVER, VirtualTimeScheduler } from 'rxjs';
import { prometheusMetrics } from '../../lib/prometheus/index.js';
import { allowed, denied, patched } from '../../lib/webhooks/admissionDecision.js';
import { mutatingWebhook, validatingWebhook } from '../../lib/webhooks/admissionWebhook.js';
import { conversionWebhook } from '../../lib/webhooks/conversionWebhook.js';
import { staticCertificate } from '../../lib/webhooks/fileCertificates.js';
import { generateCertificates } from '../../lib/webhooks/generatedCertificates.js';
import { webhookServer, type WebhookServer } from '../../lib/webhooks/webhookServer.js';
import { httpsCall, json } from './https.js';
import { backup, backups, decodePatch, request, review, type Backup } from './support.js';

const certs = generateCertificates({ dnsNames: ['localhost'], ipAddresses: ['127.0.0.1'] });
const validate = validatingWebhook<Backup>({
  name: 'backups.validate.example.com',
  resource: backups,
  validate: (req) => {
    if (req.name === 'boom') throw new Error('boom');
    return req.object?.spec?.schedule ? allowed() : denied('spec.schedule is required');
  },
});
const mutate = mutatingWebhook<Backup>({ name: 'backups.default.example.com', resource: backups, mutate: () => patched((b) => { b.spec = { retention: 7, ...b.spec }; }) });
const convert = conversionWebhook({ resource: backups, convert: { v1alpha1: { v1: (o: Backup): Backup => ({ ...o, spec: { schedule: 'converted' } }) } } });

describe('webhookServer over HTTPS', () => {
  let server: WebhookServer;
  let url: string;
  const registry = new Registry();
  const call = (path: string, body?: string | Buffer, contentType?: string, method?: string) => httpsCall(`${url}${path}`, { ca: certs.caCert, body, contentType, method });
  const post = (path: string, value: unknown) => call(path, JSON.stringify(value));

  beforeAll(async () => {
    server = webhookServer({ webhooks: [validate, mutate, convert], certificates: staticCertificate(certs.serving), host: '127.0.0.1', port: 0, metrics: registry, logger: false });
    prometheusMetrics(registry).addWebhookServer(server);
    ({ url } = await server.start());
  });
  afterAll(() => server.stop());

  it('answers a validating review with 200 and the decision', async () => {
    const reply = await post('/validate-example-com-v1-backup', review(request(backup({}))));
    expect(reply.status).toBe(200);
    expect(reply.headers['content-type']).toBe('application/json');
    expect(json(reply)).toEqual({
      apiVersion: 'admission.k8s.io/v1',
      kind: 'AdmissionReview',
      response: { uid: '705ab4f5-6393-11e8-b7cc-42010a800002', allowed: false, status: { code: 403, reason: 'Forbidden', message: 'spec.schedule is required' } },
    });
  });

  it('answers a mutating review with its JSON Patch, and a conversion review with the objects converted', async () => {
    const m = json(await post('/mutate-example-com-v1-backup', review(request(backup({ schedule: 'x' })))));
    expect(decodePatch((m.response as { patch: string }).patch)).toEqual([{ op: 'replace', path: '/spec', value: { retention: 7, schedule: 'x' } }]);
    const c = json(await post('/convert', { apiVersion: 'apiextensions.k8s.io/v1', kind: 'ConversionReview', request: { uid: 'u1', desiredAPIVersion: 'example.com/v1', objects: [{ ...backup({}), apiVersion: 'example.com/v1alpha1' }] } }));
    expect(c.response).toMatchObject({ uid: 'u1', result: { status: 'Success' }, convertedObjects: [{ apiVersion: 'example.com/v1', spec: { schedule: 'converted' } }] });
  });

  it("refuses bad input with 400 or 413 and controller-runtime's messages, inside a review", async () => {
    const refused = async (reply: Promise<{ status: number; text: string }>) => {
      const r = await reply;
      return [r.status, (JSON.parse(r.text) as { response: { status: { message: string } } }).response.status.message];
    };
    expect(await refused(call('/validate-example-com-v1-backup', '{}', 'text/plain'))).toEqual([400, 'contentType=text/plain, expected application/json']);
    expect(await refused(call('/validate-example-com-v1-backup', ''))).toEqual([400, 'request body is empty']);
    const notJson = await refused(call('/validate-example-com-v1-backup', '{"apiVersion":'));
    expect(notJson[0]).toBe(400);
    expect(notJson[1]).toMatch(/^the request body is not JSON: /);
    expect(await refused(post('/validate-example-com-v1-backup', { ...review(request(null)), apiVersion: 'admission.k8s.io/v9' }))).toEqual([
      400,
      'unknown AdmissionReview version "admission.k8s.io/v9": this webhook answers admission.k8s.io/v1 and admission.k8s.io/v1beta1',
    ]);
    const big = Buffer.alloc(7340033, 0x20);
    expect(await refused(call('/validate-example-com-v1-backup', big))).toEqual([413, 'request entity is too large; limit is 7340032 bytes']);
    const conversionRefused = await call('/convert', '[]');
    expect(conversionRefused.status).toBe(400);
    expect(json(conversionRefused).response).toEqual({ uid: '', convertedObjects: [], result: { status: 'Failure', message: 'the body is not a ConversionReview: expected a JSON object, got an array' } });
  });

  it('404 for a path no webhook is on, 405 for another method than POST; health and readiness', async () => {
    const missing = await call('/validate-nope', '{}');
    expect([missing.status, missing.text]).toEqual([404, 'no webhook is served on /validate-nope; served: /validate-example-com-v1-backup, /mutate-example-com-v1-backup, /convert']);
    const get = await call('/convert', undefined, undefined, 'GET');
    expect([get.status, get.headers.allow]).toEqual([405, 'POST']);
    expect((await call('/healthz', undefined, undefined, 'GET')).text).toBe('ok');
    expect((await call('/readyz', undefined, undefined, 'GET')).status).toBe(200);
    expect(server.ready()).toBe(true);
  });

  it('a handler that throws is a denial (500) and a panic; the server goes on', async () => {
    const reply = json(await post('/validate-example-com-v1-backup', review(request(backup({}, 'boom')))));
    expect(reply.response).toMatchObject({ allowed: false, status: { code: 500, message: 'boom' } });
    expect((await post('/validate-example-com-v1-backup', review(request(backup({ schedule: 'ok' }))))).status).toBe(200);
  });

  it('serves many calls on one keep-alive connection', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const ports = new Set<number>();
      for (let i = 0; i < 5; i++) {
        const r = await httpsCall(`${url}/validate-example-com-v1-backup`, { ca: certs.caCert, agent, body: JSON.stringify(review(request(backup({ schedule: 's' })))) });
        expect(r.status).toBe(200);
        ports.add(Object.values(agent.freeSockets).flat()[0]?.localPort ?? -1);
      }
      expect(ports.size).toBe(1);
    } finally {
      agent.destroy();
    }
  });

  it("does not complete a handshake with a client that trusts another CA", async () => {
    const other = generateCertificates();
    await expect(httpsCall(`${url}/healthz`, { ca: other.caCert, method: 'GET' })).rejects.toThrow(/self.signed|unable to verify|certificate/);
  });

  it("exposes controller-runtime's webhook metrics (label webhook = the path) through rxkube/prometheus", async () => {
    const text = (await call('/metrics', undefined, undefined, 'GET')).text;
    const line = (prefix: string) => text.split('\n').find((l) => l.startsWith(prefix));
    expect(line('controller_runtime_webhook_requests_total{webhook="/validate-example-com-v1-backup",code="200"}')).toMatch(/ (\d+)$/);
    expect(Number(line('controller_runtime_webhook_requests_total{webhook="/validate-example-com-v1-backup",code="400"}')?.split(' ')[1])).toBeGreaterThanOrEqual(3);
    expect(line('controller_runtime_webhook_requests_total{webhook="/validate-example-com-v1-backup",code="413"}')).toMatch(/ 1$/);
    expect(line('controller_runtime_webhook_requests_total{webhook="/mutate-example-com-v1-backup",code="500"}')).toMatch(/ 0$/);
    expect(line('controller_runtime_webhook_latency_seconds_count{webhook="/convert"}')).toMatch(/ [1-9]\d*$/);
    expect(line('controller_runtime_webhook_requests_in_flight{webhook="/validate-example-com-v1-backup"}')).toMatch(/ 0$/);
    expect(line('controller_runtime_webhook_panics_total')).toMatch(/ 1$/);
    expect(line('controller_runtime_conversion_webhook_panics_total')).toMatch(/ 0$/);
    expect(line('certwatcher_read_certificate_total')).toMatch(/ 1$/);
    expect(text).toContain('# HELP controller_runtime_webhook_requests_total Total number of admission requests by HTTP status code.');
  });
});

describe('webhookServer stop', () => {
  it('lets a request in flight finish within the grace period, then closes; not ready once stopping', async () => {
    let release: () => void = () => undefined;
    const held = validatingWebhook<Backup>({ name: 'held.validate.example.com', resource: backups, validate: () => new Promise((resolve) => (release = () => resolve(allowed()))) });
    const server = webhookServer({ webhooks: [held], certificates: staticCertificate(certs.serving), host: '127.0.0.1', port: 0, logger: false });
    const { url } = await server.start();
    const pending = httpsCall(`${url}/validate-example-com-v1-backup`, { ca: certs.caCert, body: JSON.stringify(review(request(backup({})))) });
    await new Promise<void>((resolve) => {
      const check = () => (server.stats().inFlight.get('/validate-example-com-v1-backup') === 1 ? resolve() : setTimeout(check, 5));
      check();
    });
    const stopped = server.stop(10_000);
    expect(server.ready()).toBe(false);
    release();
    const reply = await pending;
    expect(json(reply).response).toMatchObject({ allowed: true });
    await stopped;
  });

  it('past the grace period aborts the handlers still running and closes every connection', async () => {
    const scheduler = new VirtualTimeScheduler();
    let signal: AbortSignal | undefined;
    const stuck = validatingWebhook<Backup>({ name: 'stuck.validate.example.com', resource: backups, validate: (_r, ctx) => ((signal = ctx.signal), NEVER) });
    const server = webhookServer({ webhooks: [stuck], certificates: staticCertificate(certs.serving), host: '127.0.0.1', port: 0, scheduler, logger: false });
    const { url } = await server.start();
    const pending = httpsCall(`${url}/validate-example-com-v1-backup`, { ca: certs.caCert, body: JSON.stringify(review(request(backup({})))) }).catch((e: unknown) => e);
    await new Promise<void>((resolve) => {
      const check = () => (signal ? resolve() : setTimeout(check, 5));
      check();
    });
    const stopped = server.stop(5000);
    scheduler.flush(); // the grace period passes
    await stopped;
    expect(signal?.aborted).toBe(true);
    expect(String(await pending)).toMatch(/socket hang up|ECONNRESET/);
  });
});
