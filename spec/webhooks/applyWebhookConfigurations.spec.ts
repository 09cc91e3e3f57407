// The configurations written with rxkube's own write side (server-side apply) to the fake API
// server over HTTP, caBundle included, and kept current when the certificate rotates.
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { of, VirtualTimeScheduler, type Subscription } from 'rxjs';
import { startFakeApiServer, type FakeApiServer } from '../../lib/testing/index.js';
import { allowed, patched } from '../../lib/webhooks/admissionDecision.js';
import { mutatingWebhook, validatingWebhook } from '../../lib/webhooks/admissionWebhook.js';
import {
  applyWebhookConfigurations,
  keepWebhookConfigurations,
  mutatingWebhookConfigurations,
  validatingWebhookConfigurations,
  type ConfigurationsApplied,
} from '../../lib/webhooks/applyWebhookConfigurations.js';
import { conversionWebhook } from '../../lib/webhooks/conversionWebhook.js';
import { fileCertificates } from '../../lib/webhooks/fileCertificates.js';
import { generateCertificates, writeCertificateFiles } from '../../lib/webhooks/generatedCertificates.js';
import type { MutatingWebhookConfiguration, ValidatingWebhookConfiguration } from '../../lib/webhooks/webhookConfigurationTypes.js';
import { webhookServer, type WebhookServer } from '../../lib/webhooks/webhookServer.js';
import { waitFor } from '../support/waitFor.js';
import { backups, type Backup } from './support.js';

const validate = validatingWebhook<Backup>({ name: 'backups.validate.example.com', resource: backups, validate: () => allowed() });
const mutate = mutatingWebhook<Backup>({ name: 'backups.default.example.com', resource: backups, mutate: () => patched(() => undefined) });
const convert = conversionWebhook({ resource: backups, convert: {} });
const base64 = (s: string) => Buffer.from(s).toString('base64');

const backupCrd = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'backups.example.com' },
  spec: {
    group: 'example.com',
    scope: 'Namespaced',
    names: { plural: 'backups', singular: 'backup', kind: 'Backup', listKind: 'BackupList' },
    versions: [
      { name: 'v1alpha1', served: true, storage: false, schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } },
      { name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } },
    ],
  },
};

describe('applyWebhookConfigurations', () => {
  let api: FakeApiServer;
  beforeEach(async () => {
    api = await startFakeApiServer();
    // The fake server does not serve admissionregistration.k8s.io yet (issue 34, part 2).
    api.registerResource({ ...validatingWebhookConfigurations, kind: 'ValidatingWebhookConfiguration' });
    api.registerResource({ ...mutatingWebhookConfigurations, kind: 'MutatingWebhookConfiguration' });
    api.create('customresourcedefinitions.apiextensions.k8s.io', backupCrd);
  });
  afterEach(() => api.close());

  it('server-side applies both configurations and the CRD conversion stanza, with the caBundle', async () => {
    const ca = generateCertificates().caCert;
    await applyWebhookConfigurations(api.kubeConfig(), ca, { name: 'backups.example.com', webhooks: [validate, mutate, convert], endpoint: { url: 'https://127.0.0.1:9443' } });
    const v = api.get<ValidatingWebhookConfiguration>('validatingwebhookconfigurations.admissionregistration.k8s.io', undefined, 'backups.example.com');
    const m = api.get<MutatingWebhookConfiguration>('mutatingwebhookconfigurations.admissionregistration.k8s.io', undefined, 'backups.example.com');
    expect(v?.webhooks.map((w) => [w.name, w.clientConfig])).toEqual([['backups.validate.example.com', { url: 'https://127.0.0.1:9443/validate-example-com-v1-backup', caBundle: base64(ca) }]]);
    expect(m?.webhooks.map((w) => [w.name, w.clientConfig.caBundle])).toEqual([['backups.default.example.com', base64(ca)]]);
    const crd = api.get<typeof backupCrd & { spec: { conversion?: unknown } }>('customresourcedefinitions.apiextensions.k8s.io', undefined, 'backups.example.com');
    expect(crd?.spec.conversion).toEqual({ strategy: 'Webhook', webhook: { clientConfig: { url: 'https://127.0.0.1:9443/convert', caBundle: base64(ca) }, conversionReviewVersions: ['v1'] } });
    expect(crd?.spec.versions).toHaveLength(2);
    const applies = api.requests.filter((r) => r.verb === 'patch');
    expect(applies.map((r) => [r.contentType, r.query.fieldManager, r.query.force])).toEqual(Array(3).fill(['application/apply-patch+yaml', 'rxkube-webhooks', 'true']));
  });

  it('keepWebhookConfigurations reports a failed apply and retries it after a backoff (1 s, on its scheduler)', async () => {
    const scheduler = new VirtualTimeScheduler();
    const ca = generateCertificates().caCert;
    api.faults.failNext(1, { code: 503, verb: 'patch' });
    const events: ConfigurationsApplied[] = [];
    const sub = keepWebhookConfigurations(api.kubeConfig(), of({ cert: '', key: '', caBundle: ca }), {
      name: 'backups.example.com',
      webhooks: [validate],
      endpoint: { url: 'https://127.0.0.1:9443' },
      scheduler,
    }).subscribe((e) => events.push(e));
    try {
      await waitFor(() => events.length === 1, 'the failed apply');
      expect(events[0]).toMatchObject({ type: 'failed', attempt: 1 });
      scheduler.flush(); // the backoff passes
      await waitFor(() => events.length === 2, 'the retry');
      expect(events[1]).toMatchObject({ type: 'applied', applied: { caBundle: ca } });
    } finally {
      sub.unsubscribe();
    }
  });

  describe('keepWebhookConfigurations', () => {
    let dir: string;
    let server: WebhookServer;
    let keeper: Subscription | undefined;
    afterEach(async () => {
      keeper?.unsubscribe();
      await server.stop(0);
      rmSync(dir, { recursive: true, force: true });
    });

    it('follows a rotated CA: the configurations and the CRD get the new caBundle, without a restart', async () => {
      dir = mkdtempSync(join(tmpdir(), 'rxkube-certs-'));
      const first = generateCertificates({ ipAddresses: ['127.0.0.1'] });
      writeCertificateFiles(dir, first.serving);
      server = webhookServer({ webhooks: [validate, mutate, convert], certificates: fileCertificates({ certDir: dir, caName: 'ca.crt' }), host: '127.0.0.1', port: 0, logger: false });
      const { url } = await server.start();
      const events: ConfigurationsApplied[] = [];
      keeper = keepWebhookConfigurations(api.kubeConfig(), server.certificates$, { name: 'backups.example.com', webhooks: [validate, mutate, convert], endpoint: { url } }).subscribe((e) => events.push(e));
      const appliedBundles = () => events.map((e) => (e.type === 'applied' ? e.applied.caBundle : 'failed'));
      await waitFor(() => events.length === 1, 'the first apply');
      expect(appliedBundles()).toEqual([first.caCert]);
      const second = generateCertificates({ ipAddresses: ['127.0.0.1'] });
      writeCertificateFiles(dir, second.serving);
      await waitFor(() => events.length === 2, 'the apply after the rotation');
      expect(appliedBundles()).toEqual([first.caCert, second.caCert]);
      const v = api.get<ValidatingWebhookConfiguration>('validatingwebhookconfigurations.admissionregistration.k8s.io', undefined, 'backups.example.com');
      expect(v?.webhooks[0].clientConfig.caBundle).toBe(base64(second.caCert));
      const crd = api.get<{ spec: { conversion: { webhook: { clientConfig: { caBundle: string } } } } }>('customresourcedefinitions.apiextensions.k8s.io', undefined, 'backups.example.com');
      expect(crd?.spec.conversion.webhook.clientConfig.caBundle).toBe(base64(second.caCert));
    });
  });
});
