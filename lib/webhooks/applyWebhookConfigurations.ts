import type { KubeConfig } from '@kubernetes/client-node';
import { asyncScheduler, catchError, concat, defer, distinctUntilChanged, filter, map, type Observable, of, switchMap, timer, type SchedulerLike } from 'rxjs';
import type { Resource } from '../listwatch/resource.js';
import type { Transport } from '../transport/transport.js';
import { apply } from '../write/apply.js';
import type { AdmissionWebhook } from './admissionWebhook.js';
import type { ConversionWebhook } from './conversionWebhook.js';
import type { ServingCertificate } from './servingCertificate.js';
import { crdConversion, webhookConfigurations, type WebhookEndpoint } from './webhookConfiguration.js';

/**
 * admissionregistration.k8s.io/v1 `validatingwebhookconfigurations`, as a {@link Resource}.
 *
 * @example
 * ```ts
 * api.registerResource({ ...validatingWebhookConfigurations, kind: 'ValidatingWebhookConfiguration' }); // the fake API server, until it serves them
 * ```
 */
export const validatingWebhookConfigurations: Resource = Object.freeze({ group: 'admissionregistration.k8s.io', version: 'v1', plural: 'validatingwebhookconfigurations', kind: 'ValidatingWebhookConfiguration', namespaced: false });
/**
 * admissionregistration.k8s.io/v1 `mutatingwebhookconfigurations`, as a {@link Resource}.
 *
 * @example
 * ```ts
 * const configs = factory.informerFor(mutatingWebhookConfigurations);
 * ```
 */
export const mutatingWebhookConfigurations: Resource = Object.freeze({ group: 'admissionregistration.k8s.io', version: 'v1', plural: 'mutatingwebhookconfigurations', kind: 'MutatingWebhookConfiguration', namespaced: false });
const customResourceDefinitions: Resource = Object.freeze({ group: 'apiextensions.k8s.io', version: 'v1', plural: 'customresourcedefinitions', kind: 'CustomResourceDefinition', namespaced: false });

/**
 * Options of {@link applyWebhookConfigurations} and {@link keepWebhookConfigurations}.
 *
 * @example
 * ```ts
 * const options: ApplyWebhookConfigurationsOptions = { name: 'backups.example.com', webhooks: [validateBackup, convertBackups], endpoint: { url: 'https://127.0.0.1:9443' } };
 * ```
 */
export interface ApplyWebhookConfigurationsOptions {
  /** The name of the Validating- and MutatingWebhookConfiguration. */
  readonly name: string;
  /** Admission webhooks go into the configurations; conversion webhooks into their CRD's `spec.conversion`. */
  readonly webhooks: ReadonlyArray<AdmissionWebhook<unknown> | ConversionWebhook>;
  readonly endpoint: WebhookEndpoint;
  /** The field manager of the applies. Default `rxkube-webhooks`. */
  readonly fieldManager?: string;
  /** Take the fields from another manager (the configurations are this server's). Default true. */
  readonly force?: boolean;
  readonly labels?: { readonly [key: string]: string };
}

/**
 * What was written: the objects the API server stored.
 *
 * @example
 * ```ts
 * const applied: AppliedWebhookConfigurations = await applyWebhookConfigurations(kc, caPem, options);
 * applied.crds.length;
 * ```
 */
export interface AppliedWebhookConfigurations {
  readonly caBundle: string | undefined;
  readonly validating?: object;
  readonly mutating?: object;
  readonly crds: ReadonlyArray<object>;
}

const isConversion = (w: AdmissionWebhook<unknown> | ConversionWebhook): w is ConversionWebhook => w.type === 'conversion';

/**
 * Writes the webhooks' configurations with server-side apply, `caBundle` included: the
 * ValidatingWebhookConfiguration and MutatingWebhookConfiguration generated from the admission
 * webhooks, and `spec.conversion` of each conversion webhook's CRD (which must exist: only that
 * stanza is applied). A webhook removed from the code leaves its configuration on the next apply.
 *
 * @example
 * ```ts
 * import { applyWebhookConfigurations } from 'rxkube/webhooks';
 * await applyWebhookConfigurations(kubeConfig, caPem, { name: 'backups.example.com', webhooks, endpoint: { service: { namespace: 'backup-system', name: 'backup-webhooks' } } });
 * ```
 */
export async function applyWebhookConfigurations(source: KubeConfig | Transport, caBundle: string | undefined, options: ApplyWebhookConfigurationsOptions): Promise<AppliedWebhookConfigurations> {
  const admission = options.webhooks.filter((w): w is AdmissionWebhook<unknown> => !isConversion(w));
  const configs = webhookConfigurations({ name: options.name, webhooks: admission, endpoint: options.endpoint, caBundle, labels: options.labels });
  const crdStanzas = options.webhooks.filter(isConversion).map((w) => ({ name: w.crdName, conversion: crdConversion(w, options.endpoint, caBundle) }));
  const applyOptions = { fieldManager: options.fieldManager ?? 'rxkube-webhooks', force: options.force ?? true };
  const validating = configs.validating ? await apply(source, validatingWebhookConfigurations, configs.validating, applyOptions) : undefined;
  const mutating = configs.mutating ? await apply(source, mutatingWebhookConfigurations, configs.mutating, applyOptions) : undefined;
  const crds: object[] = [];
  for (const { name, conversion } of crdStanzas) {
    crds.push(await apply<{ metadata?: { name?: string }; spec?: { conversion?: object } }>(source, customResourceDefinitions, { apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name }, spec: { conversion } }, applyOptions));
  }
  return { caBundle, ...(validating ? { validating } : {}), ...(mutating ? { mutating } : {}), crds };
}

/**
 * What {@link keepWebhookConfigurations} reports: each apply, or a failed one (retried with a
 * backoff until it succeeds or the CA changes again).
 *
 * @example
 * ```ts
 * keeper$.subscribe((e) => (e.type === 'failed' ? log.warn(e.error) : log.info('caBundle current')));
 * ```
 */
export type ConfigurationsApplied = { readonly type: 'applied'; readonly applied: AppliedWebhookConfigurations } | { readonly type: 'failed'; readonly error: unknown; readonly attempt: number };

/**
 * Keeps the configurations' `caBundle` current: applies them (as {@link applyWebhookConfigurations})
 * with each new CA bundle of `certificates$` (a server's `certificates$`), so a rotated CA reaches
 * kube without a restart. A failed apply is reported and retried after 1 s, 2 s, 4 s ... (at most
 * 60 s). Runs while subscribed.
 *
 * @example
 * ```ts
 * const keeper = keepWebhookConfigurations(kubeConfig, server.certificates$, { name: 'backups.example.com', webhooks, endpoint }).subscribe();
 * ```
 */
export function keepWebhookConfigurations(
  source: KubeConfig | Transport,
  certificates$: Observable<ServingCertificate>,
  options: ApplyWebhookConfigurationsOptions & { readonly scheduler?: SchedulerLike },
): Observable<ConfigurationsApplied> {
  const scheduler = options.scheduler ?? asyncScheduler;
  const attempt = (caBundle: string, n: number): Observable<ConfigurationsApplied> =>
    defer(() => applyWebhookConfigurations(source, caBundle, options)).pipe(
      map((applied): ConfigurationsApplied => ({ type: 'applied', applied })),
      catchError((error: unknown) =>
        concat(of<ConfigurationsApplied>({ type: 'failed', error, attempt: n }), timer(Math.min(1000 * 2 ** (n - 1), 60_000), scheduler).pipe(switchMap(() => attempt(caBundle, n + 1)))),
      ),
    );
  return certificates$.pipe(
    map((c) => c.caBundle),
    filter((ca): ca is string => typeof ca === 'string' && ca !== ''),
    distinctUntilChanged(),
    switchMap((ca) => attempt(ca, 1)),
  );
}
