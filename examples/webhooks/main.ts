// A controller and its webhooks in one process: `npx tsx --tsconfig tsconfig.spec.json examples/webhooks/main.ts`.
// Against the embedded fake API server it creates the Backup CRD (v1alpha1 and v1), serves the
// Backup webhooks over HTTPS with a generated CA, writes the webhook configurations and the CRD's
// conversion stanza (caBundle included) by server-side apply and keeps them current, runs a
// controller that applies a ConfigMap per Backup, and calls the webhooks as kube-apiserver does.
// (The fake API server does not call webhooks yet: issue 34, part 2.)
import type { ConfigMap } from 'kubernetes-types/core/v1.js';
import { request } from 'node:https';
import { pathToFileURL } from 'node:url';
import { filter, firstValueFrom } from 'rxjs';
import { apply, builtInResources, controller, sharedInformerFactory } from 'rxkube';
import { startFakeApiServer } from 'rxkube/testing';
import { generatedCertificates, keepWebhookConfigurations, mutatingWebhookConfigurations, validatingWebhookConfigurations, webhookServer, type AdmissionReview } from 'rxkube/webhooks';
import { backupWebhooks, backups, type Backup } from './backupWebhooks.js';

const schema = { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } };
export const backupCrd = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'backups.example.com' },
  spec: {
    group: 'example.com',
    scope: 'Namespaced',
    names: { plural: 'backups', singular: 'backup', kind: 'Backup', listKind: 'BackupList' },
    versions: [
      { name: 'v1alpha1', served: true, storage: false, schema },
      { name: 'v1', served: true, storage: true, schema },
    ],
  },
};

/** POSTs a review to the webhook server as kube-apiserver does (HTTPS, trusting only the CA). */
export function callWebhook(url: string, ca: string, body: object): Promise<AdmissionReview> {
  const text = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', ca, headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')) as AdmissionReview));
    });
    req.on('error', reject);
    req.end(text);
  });
}

const reviewOf = (object: Backup): AdmissionReview => ({
  apiVersion: 'admission.k8s.io/v1',
  kind: 'AdmissionReview',
  request: {
    uid: '0df28fbd-5f5f-4c5c-9f3b-3a3d3f0e4c1a',
    kind: { group: 'example.com', version: 'v1', kind: 'Backup' },
    resource: { group: 'example.com', version: 'v1', resource: 'backups' },
    name: object.metadata?.name,
    namespace: 'shop',
    operation: 'CREATE',
    userInfo: { username: 'alice' },
    object,
  },
});

export interface WebhooksExampleResult {
  readonly denial: string | undefined;
  readonly caBundleWritten: boolean;
  readonly plan: { [key: string]: string } | undefined;
}

/** Runs the whole example and returns what it saw. */
export async function runWebhooksExample(log: (line: string) => void = console.log): Promise<WebhooksExampleResult> {
  const api = await startFakeApiServer({ namespaces: ['shop'] });
  // kube-apiserver serves these; the fake one registers them by hand until issue 34 part 2.
  api.registerResource({ ...validatingWebhookConfigurations, kind: 'ValidatingWebhookConfiguration' });
  api.registerResource({ ...mutatingWebhookConfigurations, kind: 'MutatingWebhookConfiguration' });
  api.create('customresourcedefinitions.apiextensions.k8s.io', backupCrd);
  const kubeConfig = api.kubeConfig();

  // The webhooks: HTTPS on loopback with a CA of their own, renewed before it expires.
  const server = webhookServer({ webhooks: backupWebhooks, certificates: generatedCertificates({ ipAddresses: ['127.0.0.1'] }), host: '127.0.0.1', port: 0 });
  const { url } = await server.start();
  const keeper$ = keepWebhookConfigurations(kubeConfig, server.certificates$, { name: 'backups.example.com', webhooks: backupWebhooks, endpoint: { url } });
  const keeper = keeper$.subscribe((e) => log(e.type === 'applied' ? 'configurations applied (caBundle current)' : `configurations not applied yet: ${String(e.error)}`));
  const { caBundle } = await firstValueFrom(server.certificates$);
  log(`webhooks serving on ${url}`);

  // The controller, in the same process: a ConfigMap with each Backup's plan.
  const factory = sharedInformerFactory(kubeConfig);
  const informer = factory.informerFor<Backup>(backups);
  const ctl = controller<Backup>({
    name: 'backup-plans',
    for: informer,
    reconcile: async (_key, { object }) => {
      if (!object?.metadata?.name) return;
      await apply<ConfigMap>(kubeConfig, builtInResources.configMaps, {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: `${object.metadata.name}-plan`, namespace: object.metadata.namespace ?? 'default' },
        data: { schedule: object.spec?.schedule ?? '', retentionDays: String(object.spec?.retentionDays ?? '') },
      }, { fieldManager: 'example.com/backup-plans' });
    },
  });
  ctl.start();

  try {
    // kube-apiserver would call the validating webhook on this create; here the example does.
    const refused = await callWebhook(`${url}/validate-example-com-v1-backup`, caBundle ?? '', reviewOf({ apiVersion: 'example.com/v1', kind: 'Backup', metadata: { name: 'bad' }, spec: {} }));
    const denial = refused.response?.status?.message;
    log(`admission webhook "backups.validate.example.com" denied the request: ${denial}`);
    api.create<Backup>(backups, { apiVersion: 'example.com/v1', kind: 'Backup', metadata: { name: 'nightly', namespace: 'shop' }, spec: { schedule: '0 2 * * *', retentionDays: 14 } });
    const applied = await firstValueFrom(keeper$.pipe(filter((e) => e.type === 'applied')));
    const plan = await firstValueFrom(
      informer.store$.pipe(filter(() => api.get<{ data?: { [key: string]: string } }>(builtInResources.configMaps, 'shop', 'nightly-plan') !== undefined)),
    ).then(() => api.get<{ data?: { [key: string]: string } }>(builtInResources.configMaps, 'shop', 'nightly-plan')?.data);
    log(`controller wrote nightly-plan: ${JSON.stringify(plan)}`);
    return { denial, caBundleWritten: applied.type === 'applied' && applied.applied.caBundle === caBundle, plan };
  } finally {
    keeper.unsubscribe();
    await ctl.stop();
    await factory.shutdown();
    await server.stop();
    await api.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  runWebhooksExample().catch((e: unknown) => {
    process.stderr.write(`webhooks example failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exit(1);
  });
}
