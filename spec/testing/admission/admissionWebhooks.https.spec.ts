// End to end over HTTPS: the fake API server calls the webhook server of rxkube/webhooks, TLS
// checked against the caBundle of the configurations; a certificate rotated on disk is served
// without a restart and the caBundle follows (keepWebhookConfigurations), so writes keep passing
// through the webhooks. Service-form clientConfigs reach the server through the `webhooks` option.
import { afterEach, describe, expect, it } from '@jest/globals';
import { ApiException, CoreV1Api, type V1ConfigMap } from '@kubernetes/client-node';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Subscription } from 'rxjs';
import { builtInResources } from '../../../lib/index.js';
import { startFakeApiServer, type FakeApiServer } from '../../../lib/testing/index.js';
import { allowed, denied, patched } from '../../../lib/webhooks/admissionDecision.js';
import { mutatingWebhook, validatingWebhook } from '../../../lib/webhooks/admissionWebhook.js';
import { applyWebhookConfigurations, keepWebhookConfigurations, type ConfigurationsApplied } from '../../../lib/webhooks/applyWebhookConfigurations.js';
import { fileCertificates, staticCertificate } from '../../../lib/webhooks/fileCertificates.js';
import { generateCertificates, writeCertificateFiles } from '../../../lib/webhooks/generatedCertificates.js';
import { webhookResource } from '../../../lib/webhooks/webhookResource.js';
import { webhookServer, type WebhookServer } from '../../../lib/webhooks/webhookServer.js';
import { waitFor } from '../../support/waitFor.js';

type ConfigMap = V1ConfigMap & { metadata: { labels?: { [k: string]: string } } };
const configMaps = webhookResource<ConfigMap>(builtInResources.configMaps);

const validate = validatingWebhook<ConfigMap>({
  name: 'no-latest.example.com',
  resource: configMaps,
  validate: (r) => (r.object?.data?.tag === 'latest' ? denied('pin your tags') : allowed()),
});
const mutate = mutatingWebhook<ConfigMap>({
  name: 'team.example.com',
  resource: configMaps,
  mutate: () => patched((d) => void (d.metadata!.labels = { ...d.metadata!.labels, team: 'storage' })),
});

async function refusal(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (e) {
    if (e instanceof ApiException) return (JSON.parse(String(e.body)) as { message: string }).message;
    throw e;
  }
  throw new Error('the write succeeded');
}

describe('the test cluster calls a rxkube/webhooks server over HTTPS', () => {
  let api: FakeApiServer | undefined;
  let server: WebhookServer | undefined;
  let keeper: Subscription | undefined;
  let dir: string | undefined;
  afterEach(async () => {
    keeper?.unsubscribe();
    await server?.stop();
    await api?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
    [api, server, keeper, dir] = [undefined, undefined, undefined, undefined];
  });

  it('a certificate rotated on disk is served without restart, the caBundle follows, and the webhooks keep answering', async () => {
    api = await startFakeApiServer();
    const core = api.kubeConfig().makeApiClient(CoreV1Api);
    dir = mkdtempSync(join(tmpdir(), 'rxkube-admission-'));
    writeCertificateFiles(dir, generateCertificates({ ipAddresses: ['127.0.0.1'] }).serving);
    server = webhookServer({ webhooks: [validate, mutate], certificates: fileCertificates({ certDir: dir, caName: 'ca.crt' }), host: '127.0.0.1', port: 0, logger: false });
    const { url } = await server.start();
    const events: ConfigurationsApplied[] = [];
    keeper = keepWebhookConfigurations(api.kubeConfig(), server.certificates$, { name: 'config-maps.example.com', webhooks: [validate, mutate], endpoint: { url } }).subscribe((e) => events.push(e));
    await waitFor(() => events.length === 1, 'the first apply');
    expect(await refusal(core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'a' }, data: { tag: 'latest' } } }))).toBe(
      'admission webhook "no-latest.example.com" denied the request: pin your tags',
    );
    expect((await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'a' }, data: { tag: 'v1' } } })).metadata?.labels).toEqual({ team: 'storage' });

    const rotated = generateCertificates({ ipAddresses: ['127.0.0.1'] });
    writeCertificateFiles(dir, rotated.serving);
    await waitFor(() => events.length === 2, 'the apply after the rotation');
    expect(events.every((e) => e.type === 'applied')).toBe(true);
    // The fake server checks the new certificate against the new caBundle: the calls still go through.
    expect(await refusal(core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'b' }, data: { tag: 'latest' } } }))).toBe(
      'admission webhook "no-latest.example.com" denied the request: pin your tags',
    );
    expect((await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'b' }, data: { tag: 'v2' } } })).metadata?.labels).toEqual({ team: 'storage' });
  });

  it('a caBundle that does not sign the served certificate fails the call: kube\'s x509 text under failurePolicy Fail', async () => {
    api = await startFakeApiServer();
    const core = api.kubeConfig().makeApiClient(CoreV1Api);
    const certs = generateCertificates({ ipAddresses: ['127.0.0.1'] });
    server = webhookServer({ webhooks: [validate], certificates: staticCertificate(certs.serving), host: '127.0.0.1', port: 0, logger: false });
    const { url } = await server.start();
    const other = generateCertificates({ ipAddresses: ['127.0.0.1'] });
    await applyWebhookConfigurations(api.kubeConfig(), other.caCert, { name: 'wrong-ca.example.com', webhooks: [validate], endpoint: { url } });
    expect(await refusal(core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'a' } } }))).toMatch(
      /^Internal error occurred: failed calling webhook "no-latest.example.com": failed to call webhook: Post "https:\/\/127\.0\.0\.1:\d+\/validate--v1-configmap\?timeout=10s": tls: failed to verify certificate: x509: certificate signed by unknown authority$/,
    );
  });

  it('a Service-form clientConfig goes where the webhooks option routes it, TLS naming the Service', async () => {
    const certs = generateCertificates({ dnsNames: ['webhooks.config.svc'] });
    server = webhookServer({ webhooks: [validate], certificates: staticCertificate(certs.serving), host: '127.0.0.1', port: 0, logger: false });
    const { url } = await server.start();
    api = await startFakeApiServer({ webhooks: { services: { 'config/webhooks': url } } });
    const core = api.kubeConfig().makeApiClient(CoreV1Api);
    await applyWebhookConfigurations(api.kubeConfig(), certs.caCert, { name: 'svc.example.com', webhooks: [validate], endpoint: { service: { namespace: 'config', name: 'webhooks' } } });
    expect(await refusal(core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'a' }, data: { tag: 'latest' } } }))).toBe(
      'admission webhook "no-latest.example.com" denied the request: pin your tags',
    );
  });
});
