// CRD versions and conversion (ADMISSION.md §7, PIPELINE.md §2 and §9) through
// @kubernetes/client-node over HTTP: objects stored at the storage version, a conversion webhook
// (ConversionReview v1 by clientConfig.url with its caBundle, or in process from rxkube/webhooks)
// called on reads and writes across versions, kube's texts when it fails, deprecated versions'
// Warning header, unserved versions' 404, and an informer on one version fed objects written at another.
import { afterEach, describe, expect, it } from '@jest/globals';
import { CustomObjectsApi, PatchStrategy, setHeaderOptions } from '@kubernetes/client-node';
import { createServer as createHttpsServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import '../../lib/transport/clientNode.js';
import { sharedInformerFactory, type SharedInformerFactory } from '../../lib/factory/sharedInformerFactory.js';
import { generateCertificates } from '../../lib/testing/fakeApiServer/auth/certificates.js';
import { startFakeApiServer, type FakeApiServer, type FakeApiServerOptions } from '../../lib/testing/index.js';
import { conversionWebhook, webhookResource, type ConversionReview } from '../../lib/webhooks/index.js';
import { waitFor } from '../support/waitFor.js';
import { raw } from './rawClient.js';

const merge = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);
const certs = generateCertificates();
const caBundle = Buffer.from(certs.caCert).toString('base64');

interface BackupV1 {
  apiVersion?: string;
  kind?: string;
  metadata?: { name?: string; namespace?: string; labels?: Record<string, string> };
  spec?: { schedule?: string };
}
interface BackupV1alpha1 {
  apiVersion?: string;
  kind?: string;
  spec?: { cron?: string };
}
const backups = webhookResource<BackupV1>({ group: 'example.com', version: 'v1', plural: 'backups', kind: 'Backup', namespaced: true });
const convertBackups = conversionWebhook({
  resource: backups,
  hub: 'v1',
  spokes: {
    v1alpha1: {
      toHub: (o: BackupV1alpha1): BackupV1 => ({ ...o, spec: { schedule: o.spec?.cron } }) as BackupV1,
      fromHub: (h: BackupV1): BackupV1alpha1 => ({ ...h, spec: { cron: h.spec?.schedule } }) as BackupV1alpha1,
    },
  },
});

const schema = { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } };
const crd = (url: string, deprecated = false) => ({
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'backups.example.com' },
  spec: {
    group: 'example.com',
    scope: 'Namespaced',
    names: { plural: 'backups', singular: 'backup', kind: 'Backup', shortNames: ['bk'], categories: ['ops'] },
    versions: [
      { name: 'v1', served: true, storage: true, schema },
      { name: 'v1alpha1', served: true, storage: false, deprecated, schema },
      { name: 'v0', served: false, storage: false, schema },
    ],
    conversion: { strategy: 'Webhook', webhook: { conversionReviewVersions: ['v1'], clientConfig: { url, caBundle } } },
  },
});

const servers: Server[] = [];
let api: FakeApiServer;
let factory: SharedInformerFactory | undefined;

/** An HTTPS conversion webhook on loopback answering with `answer` (default: convertBackups). */
async function webhookServer(answer?: (review: ConversionReview) => unknown): Promise<{ url: string; reviews: ConversionReview[] }> {
  const reviews: ConversionReview[] = [];
  const s = createHttpsServer({ cert: certs.serverCert, key: certs.serverKey }, (req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const review = JSON.parse(body) as ConversionReview;
      reviews.push(review);
      void Promise.resolve(answer ? answer(review) : convertBackups.review(review)).then((out) => {
        if (out === 'hang') return;
        res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(out));
      });
    });
  });
  servers.push(s);
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  return { url: `https://127.0.0.1:${(s.address() as AddressInfo).port}/convert`, reviews };
}

async function start(url: string, options: FakeApiServerOptions = {}, deprecated = false): Promise<CustomObjectsApi> {
  api = await startFakeApiServer({ crds: [crd(url, deprecated)], ...options });
  return api.kubeConfig().makeApiClient(CustomObjectsApi);
}

const at = (version: string) => ({ group: 'example.com', version, namespace: 'default', plural: 'backups' });

afterEach(async () => {
  await factory?.shutdown();
  factory = undefined;
  await api?.close();
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
});

describe('fake API server: CRD versions through a conversion webhook', () => {
  it('a write at v1alpha1 is converted to the storage version v1; reads at v1alpha1 go through the webhook (a list in one review)', async () => {
    const hook = await webhookServer();
    const custom = await start(hook.url);
    const created = (await custom.createNamespacedCustomObject({ ...at('v1alpha1'), body: { apiVersion: 'example.com/v1alpha1', kind: 'Backup', metadata: { name: 'nightly' }, spec: { cron: '0 3 * * *' } } })) as BackupV1alpha1;
    expect(created).toMatchObject({ apiVersion: 'example.com/v1alpha1', spec: { cron: '0 3 * * *' } });
    expect(api.get('backups.example.com', 'default', 'nightly')).toMatchObject({ apiVersion: 'example.com/v1', spec: { schedule: '0 3 * * *' } });
    expect(hook.reviews[0].request).toMatchObject({ desiredAPIVersion: 'example.com/v1', objects: [{ apiVersion: 'example.com/v1alpha1' }] });
    api.create('backups.example.com', { apiVersion: 'example.com/v1', kind: 'Backup', metadata: { name: 'weekly', namespace: 'default' }, spec: { schedule: '0 4 * * 0' } });
    const before = hook.reviews.length;
    const list = (await custom.listNamespacedCustomObject(at('v1alpha1'))) as { apiVersion: string; items: BackupV1alpha1[] };
    expect(list.apiVersion).toBe('example.com/v1alpha1');
    expect(list.items.map((i) => [i.apiVersion, i.spec?.cron])).toEqual([
      ['example.com/v1alpha1', '0 3 * * *'],
      ['example.com/v1alpha1', '0 4 * * 0'],
    ]);
    expect(hook.reviews.length).toBe(before + 1);
    // The storage version needs no webhook.
    expect(((await custom.getNamespacedCustomObject({ ...at('v1'), name: 'nightly' })) as BackupV1).spec).toEqual({ schedule: '0 3 * * *' });
    expect(hook.reviews.length).toBe(before + 1);
  });

  it('a merge patch at v1alpha1 applies to the object converted to v1alpha1, and is stored converted back', async () => {
    const hook = await webhookServer();
    const custom = await start(hook.url);
    await custom.createNamespacedCustomObject({ ...at('v1'), body: { apiVersion: 'example.com/v1', kind: 'Backup', metadata: { name: 'b' }, spec: { schedule: 'a' } } });
    const patched = (await custom.patchNamespacedCustomObject({ ...at('v1alpha1'), name: 'b', body: { spec: { cron: 'b' } } }, merge)) as BackupV1alpha1;
    expect(patched.spec).toEqual({ cron: 'b' });
    expect(api.get('backups.example.com', 'default', 'b')).toMatchObject({ spec: { schedule: 'b' }, metadata: { generation: 2 } });
  });

  it('an in-process webhook from rxkube/webhooks serves the CRD it names, without HTTPS', async () => {
    const custom = await start('https://127.0.0.1:1/convert', { conversionWebhooks: [convertBackups] });
    await custom.createNamespacedCustomObject({ ...at('v1alpha1'), body: { apiVersion: 'example.com/v1alpha1', kind: 'Backup', metadata: { name: 'b' }, spec: { cron: 'x' } } });
    expect(api.get('backups.example.com', 'default', 'b')).toMatchObject({ spec: { schedule: 'x' } });
    expect(((await custom.getNamespacedCustomObject({ ...at('v1alpha1'), name: 'b' })) as BackupV1alpha1).spec).toEqual({ cron: 'x' });
  });

  it('kube’s texts for a webhook that answers for another uid, fails, or cannot be reached', async () => {
    const wrongUid = await webhookServer(() => ({ apiVersion: 'apiextensions.k8s.io/v1', kind: 'ConversionReview', response: { uid: 'other', convertedObjects: [], result: { status: 'Success' } } }));
    await start(wrongUid.url);
    api.create('backups.example.com', { apiVersion: 'example.com/v1', kind: 'Backup', metadata: { name: 'b', namespace: 'default' }, spec: {} });
    const read = await raw(api, '/apis/example.com/v1alpha1/namespaces/default/backups/b');
    expect(read.status).toBe(500);
    expect(read.json.message).toBe(`conversion webhook for example.com/v1, Kind=Backup failed: expected response.uid="${wrongUid.reviews[0].request!.uid}", got "other"`);
    await api.close();

    const failing = await webhookServer((r) => ({ apiVersion: 'apiextensions.k8s.io/v1', kind: 'ConversionReview', response: { uid: r.request!.uid, convertedObjects: [], result: { status: 'Failure', message: 'no cron here' } } }));
    await start(failing.url);
    const write = await raw(api, '/apis/example.com/v1alpha1/namespaces/default/backups', { method: 'POST', body: { apiVersion: 'example.com/v1alpha1', kind: 'Backup', metadata: { name: 'c' }, spec: {} } });
    expect(write.status).toBe(500);
    expect(write.json).toMatchObject({ reason: 'InternalError', message: 'Internal error occurred: conversion webhook for example.com/v1alpha1, Kind=Backup failed: no cron here' });
    expect(api.list('backups.example.com', 'default').items).toEqual([]);
    await api.close();

    await start('https://127.0.0.1:1/convert');
    api.create('backups.example.com', { apiVersion: 'example.com/v1', kind: 'Backup', metadata: { name: 'b', namespace: 'default' }, spec: {} });
    const refused = await raw(api, '/apis/example.com/v1alpha1/namespaces/default/backups/b');
    expect(refused.json.message).toBe('conversion webhook for example.com/v1, Kind=Backup failed: failed to call webhook: Post "https://127.0.0.1:1/convert?timeout=30s": dial tcp 127.0.0.1:1: connect: connection refused');
  });

  it('a webhook that does not answer in time: context deadline exceeded', async () => {
    const silent = await webhookServer(() => 'hang');
    await start(silent.url, { conversionWebhookTimeoutMs: 200 });
    api.create('backups.example.com', { apiVersion: 'example.com/v1', kind: 'Backup', metadata: { name: 'b', namespace: 'default' }, spec: {} });
    const read = await raw(api, '/apis/example.com/v1alpha1/namespaces/default/backups/b');
    expect(read.status).toBe(500);
    expect(read.json.message).toBe(`conversion webhook for example.com/v1, Kind=Backup failed: failed to call webhook: Post "${silent.url}?timeout=1s": context deadline exceeded`);
  });

  it('a deprecated version answers with kube’s Warning; an unserved one is 404 page not found', async () => {
    const custom = await start('https://127.0.0.1:1/convert', { conversionWebhooks: [convertBackups] }, true);
    const r = await raw(api, '/apis/example.com/v1alpha1/namespaces/default/backups');
    expect(r.status).toBe(200);
    expect(r.headers.warning).toBe('299 - "example.com/v1alpha1 Backup is deprecated; use example.com/v1 Backup"');
    expect((await raw(api, '/apis/example.com/v1/namespaces/default/backups')).headers.warning).toBeUndefined();
    const unserved = await raw(api, '/apis/example.com/v0/namespaces/default/backups');
    expect(unserved.status).toBe(404);
    expect(unserved.text).toBe('404 page not found\n');
    expect(custom).toBeDefined();
  });

  it('an informer on v1alpha1 sees objects written at v1, converted, and their updates', async () => {
    await start('https://127.0.0.1:1/convert', { conversionWebhooks: [convertBackups] });
    factory = sharedInformerFactory(api.kubeConfig(), { logger: false });
    const informer = factory.informerFor<BackupV1alpha1 & { metadata?: { name?: string } }>({ group: 'example.com', version: 'v1alpha1', plural: 'backups', kind: 'Backup', namespaced: true });
    factory.start();
    api.create('backups.example.com', { apiVersion: 'example.com/v1', kind: 'Backup', metadata: { name: 'b', namespace: 'default' }, spec: { schedule: 'one' } });
    await waitFor(() => informer.lister().list().length === 1, 'the informer lists b');
    expect(informer.lister().list()[0]).toMatchObject({ apiVersion: 'example.com/v1alpha1', spec: { cron: 'one' } });
    api.patch('backups.example.com', 'default', 'b', { spec: { schedule: 'two' } });
    await waitFor(() => informer.lister().list()[0]?.spec?.cron === 'two', 'the informer sees the update converted');
  });
});
