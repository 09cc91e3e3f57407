import { ConfigError } from '../configError.js';
import type { AdmissionWebhook } from './admissionWebhook.js';
import type { ConversionWebhook } from './conversionWebhook.js';
import { validateWebhookConfiguration } from './validateWebhookConfiguration.js';
import type { MutatingWebhookConfiguration, MutatingWebhookEntry, ValidatingWebhookConfiguration, ValidatingWebhookEntry, WebhookClientConfig } from './webhookConfigurationTypes.js';

/**
 * Where kube reaches the webhook server: a base URL (`https://host:port`, each webhook's path
 * appended), or a Service in the cluster (each webhook's path as `service.path`).
 *
 * @example
 * ```ts
 * const inCluster: WebhookEndpoint = { service: { namespace: 'backup-system', name: 'backup-webhooks', port: 443 } };
 * const local: WebhookEndpoint = { url: 'https://127.0.0.1:9443' };
 * ```
 */
export type WebhookEndpoint = { readonly url: string } | { readonly service: { readonly namespace: string; readonly name: string; readonly port?: number } };

/**
 * Options of {@link webhookConfigurations}.
 *
 * @example
 * ```ts
 * const options: WebhookConfigurationsOptions = { name: 'backups.example.com', webhooks: [validateBackup, defaultRetention], endpoint: { url: 'https://127.0.0.1:9443' }, caBundle: caPem };
 * ```
 */
export interface WebhookConfigurationsOptions {
  /** The name of the ValidatingWebhookConfiguration and of the MutatingWebhookConfiguration. */
  readonly name: string;
  readonly webhooks: ReadonlyArray<AdmissionWebhook<unknown>>;
  readonly endpoint: WebhookEndpoint;
  /** The PEM CA bundle that signed the server's certificate (written base64). Default none: kube then uses its system roots. */
  readonly caBundle?: string;
  /** Labels of both configurations. */
  readonly labels?: { readonly [key: string]: string };
}

/**
 * The configurations the webhooks declare: a ValidatingWebhookConfiguration with every validating
 * webhook and a MutatingWebhookConfiguration with every mutating one (each present only when it
 * has webhooks), pointing at `endpoint` with `caBundle`. Generated from the webhooks themselves,
 * so rules and code cannot drift; checked as kube checks them at creation (a
 * {@link WebhookConfigurationError} otherwise).
 *
 * @example
 * ```ts
 * const { validating, mutating } = webhookConfigurations({ name: 'backups.example.com', webhooks: [validateBackup, defaultRetention], endpoint: { url: 'https://127.0.0.1:9443' }, caBundle: caPem });
 * ```
 */
export function webhookConfigurations(options: WebhookConfigurationsOptions): { validating?: ValidatingWebhookConfiguration; mutating?: MutatingWebhookConfiguration } {
  const paths = new Map<string, string>();
  for (const w of options.webhooks) {
    const other = paths.get(w.path);
    if (other !== undefined) throw new ConfigError('webhooks', `webhooks ${JSON.stringify(other)} and ${JSON.stringify(w.name)} are both served on ${w.path}: give one another path`, { value: w.path });
    paths.set(w.path, w.name);
  }
  const metadata = () => ({ name: options.name, ...(options.labels ? { labels: { ...options.labels } } : {}) });
  const entries = (type: 'validating' | 'mutating') =>
    options.webhooks.filter((w) => w.type === type).map((w) => ({ ...w.entry, clientConfig: clientConfig(options.endpoint, w.path, options.caBundle) }) as MutatingWebhookEntry);
  const validatingHooks: ValidatingWebhookEntry[] = entries('validating');
  const mutatingHooks: MutatingWebhookEntry[] = entries('mutating');
  const out: { validating?: ValidatingWebhookConfiguration; mutating?: MutatingWebhookConfiguration } = {};
  if (validatingHooks.length > 0) {
    out.validating = validateWebhookConfiguration({ apiVersion: 'admissionregistration.k8s.io/v1' as const, kind: 'ValidatingWebhookConfiguration' as const, metadata: metadata(), webhooks: validatingHooks });
  }
  if (mutatingHooks.length > 0) {
    out.mutating = validateWebhookConfiguration({ apiVersion: 'admissionregistration.k8s.io/v1' as const, kind: 'MutatingWebhookConfiguration' as const, metadata: metadata(), webhooks: mutatingHooks });
  }
  return out;
}

/**
 * A webhook's `clientConfig`: the endpoint with `path`, and the CA bundle base64-encoded.
 *
 * @example
 * ```ts
 * clientConfig({ url: 'https://127.0.0.1:9443' }, '/convert', caPem); // { url: 'https://127.0.0.1:9443/convert', caBundle: 'LS0t...' }
 * ```
 */
export function clientConfig(endpoint: WebhookEndpoint, path: string, caBundle: string | undefined): WebhookClientConfig {
  const ca = caBundle ? { caBundle: Buffer.from(caBundle, 'utf8').toString('base64') } : {};
  if ('url' in endpoint) return { url: `${endpoint.url.replace(/\/+$/, '')}${path}`, ...ca };
  const { namespace, name, port } = endpoint.service;
  return { service: { namespace, name, path, ...(port !== undefined ? { port } : {}) }, ...ca };
}

/**
 * A CRD's `spec.conversion` for a conversion webhook: strategy `Webhook`, its clientConfig and
 * review versions. Server-side apply it to the CRD ({@link applyWebhookConfigurations} does).
 *
 * @example
 * ```ts
 * const conversion = crdConversion(convertBackups, { url: 'https://127.0.0.1:9443' }, caPem);
 * // { strategy: 'Webhook', webhook: { clientConfig: { url: 'https://127.0.0.1:9443/convert', caBundle: '...' }, conversionReviewVersions: ['v1'] } }
 * ```
 */
export function crdConversion(webhook: ConversionWebhook, endpoint: WebhookEndpoint, caBundle: string | undefined): CrdConversion {
  const cc = clientConfig(endpoint, webhook.path, caBundle);
  if (cc.url !== undefined && !cc.url.startsWith('https://')) {
    throw new ConfigError('endpoint.url', `the conversion webhook's URL must be https (kube calls webhooks over TLS only): ${cc.url}`, { value: cc.url });
  }
  return { strategy: 'Webhook', webhook: { clientConfig: cc, conversionReviewVersions: [...webhook.conversionReviewVersions] } };
}

/**
 * A CRD's `spec.conversion` with a webhook (apiextensions.k8s.io/v1).
 *
 * @example
 * ```ts
 * const c: CrdConversion = { strategy: 'Webhook', webhook: { clientConfig: { url: 'https://127.0.0.1:9443/convert' }, conversionReviewVersions: ['v1'] } };
 * ```
 */
export interface CrdConversion {
  strategy: 'Webhook';
  webhook: { clientConfig: WebhookClientConfig; conversionReviewVersions: string[] };
}
