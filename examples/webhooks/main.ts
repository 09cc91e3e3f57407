// A controller and its webhooks in one process: `npx tsx --tsconfig tsconfig.spec.json examples/webhooks/main.ts`.
// Against the embedded fake API server it creates the Backup CRD (v1alpha1 and v1), serves the
// Backup webhooks over HTTPS with a generated CA, writes the webhook configurations and the CRD's
// conversion stanza (caBundle included) by server-side apply and keeps them current, runs a
// controller that applies a ConfigMap per Backup. The fake API server calls the webhooks as
// kube-apiserver does: a Backup without a schedule is refused with the webhook's message, a good
// one is defaulted by the mutating webhook before it is stored.
import type { ConfigMap } from 'kubernetes-types/core/v1.js';
import { pathToFileURL } from 'node:url';
import { filter, firstValueFrom, interval, map, timeout } from 'rxjs';
import { ApiStatusError, apply, builtInResources, controller, sharedInformerFactory } from 'rxkube';
import { startFakeApiServer } from 'rxkube/testing';
import { generatedCertificates, keepWebhookConfigurations, webhookServer } from 'rxkube/webhooks';
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

export interface WebhooksExampleResult {
  readonly denial: string | undefined;
  readonly defaultedLabels: { [key: string]: string } | undefined;
  readonly caBundleWritten: boolean;
  readonly plan: { [key: string]: string } | undefined;
}

/** Runs the whole example and returns what it saw. */
export async function runWebhooksExample(log: (line: string) => void = console.log): Promise<WebhooksExampleResult> {
  const api = await startFakeApiServer({ namespaces: ['shop'] });
  api.create('customresourcedefinitions.apiextensions.k8s.io', backupCrd);
  const kubeConfig = api.kubeConfig();

  // The webhooks: HTTPS on loopback with a CA of their own, renewed before it expires.
  const server = webhookServer({ webhooks: backupWebhooks, certificates: generatedCertificates({ ipAddresses: ['127.0.0.1'] }), host: '127.0.0.1', port: 0 });
  const { url } = await server.start();
  const keeper$ = keepWebhookConfigurations(kubeConfig, server.certificates$, { name: 'backups.example.com', webhooks: backupWebhooks, endpoint: { url } });
  const keeper = keeper$.subscribe((e) => log(e.type === 'applied' ? 'configurations applied (caBundle current)' : `configurations not applied yet: ${String(e.error)}`));
  const { caBundle } = await firstValueFrom(server.certificates$);
  const applied = await firstValueFrom(keeper$.pipe(filter((e) => e.type === 'applied')));
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
    // The fake API server calls the validating webhook over HTTPS (TLS checked against the caBundle).
    let denial: string | undefined;
    try {
      await apply<Backup>(kubeConfig, backups, { apiVersion: 'example.com/v1', kind: 'Backup', metadata: { name: 'bad', namespace: 'shop' }, spec: {} }, { fieldManager: 'example' });
    } catch (e) {
      if (!(e instanceof ApiStatusError)) throw e;
      denial = e.status.message;
      log(denial ?? '');
    }
    // A good one: the mutating webhook defaults it before it is stored.
    const stored = await apply<Backup>(kubeConfig, backups, { apiVersion: 'example.com/v1', kind: 'Backup', metadata: { name: 'nightly', namespace: 'shop' }, spec: { schedule: '0 2 * * *', retentionDays: 14 } }, { fieldManager: 'example' });
    const defaultedLabels = stored.metadata?.labels;
    log(`stored nightly with labels ${JSON.stringify(defaultedLabels)}`);
    // The controller's ConfigMap, looked for until it is there (at most 10 s).
    const plan = await firstValueFrom(
      interval(20).pipe(
        map(() => api.get<{ data?: { [key: string]: string } }>(builtInResources.configMaps, 'shop', 'nightly-plan')?.data),
        filter((data) => data !== undefined),
        timeout(10_000),
      ),
    );
    log(`controller wrote nightly-plan: ${JSON.stringify(plan)}`);
    return { denial, defaultedLabels, caBundleWritten: applied.type === 'applied' && applied.applied.caBundle === caBundle, plan };
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
