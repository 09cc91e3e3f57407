import type { Resource } from '../listwatch/resource.js';
import { ConfigError } from '../configError.js';
import type { KubeObject } from '../meta/kubeObject.js';

/**
 * A {@link Resource} with its kind, typed by the object it holds: a webhook declared for it gets
 * requests whose `object` is a `T`, and its rules name this group, version and resource.
 *
 * @example
 * ```ts
 * interface Backup extends KubeObject { spec?: { schedule?: string } }
 * const backups: WebhookResource<Backup> = webhookResource<Backup>({ group: 'example.com', version: 'v1', plural: 'backups', kind: 'Backup', namespaced: true });
 * ```
 */
export interface WebhookResource<T = KubeObject> extends Resource {
  readonly kind: string;
  /** Type only (never set): carries `T` from the resource to the handler. */
  readonly __object?: T;
}

/**
 * Types a {@link Resource} by its object, for `validatingWebhook`, `mutatingWebhook` and
 * `conversionWebhook` (a Resource of `builtInResources` or your own CRD's). Throws a `ConfigError`
 * when the resource has no kind or plural.
 *
 * @example
 * ```ts
 * import type { V1Deployment } from '@kubernetes/client-node';
 * import { builtInResources } from 'rxkube';
 * const deployments = webhookResource<V1Deployment>(builtInResources.deployments);
 * ```
 */
export function webhookResource<T = KubeObject>(resource: Resource): WebhookResource<T> {
  if (typeof resource?.plural !== 'string' || resource.plural === '') {
    throw new ConfigError('resource', 'the resource has no plural (e.g. "backups"): webhook rules name resources by their plural', { value: resource });
  }
  if (typeof resource.kind !== 'string' || resource.kind === '') {
    throw new ConfigError('resource.kind', `the resource ${resource.plural} has no kind (e.g. "Backup"): webhooks need it for their paths and conversion`, { value: resource });
  }
  return Object.freeze({ group: resource.group, version: resource.version, plural: resource.plural, kind: resource.kind, namespaced: resource.namespaced });
}
