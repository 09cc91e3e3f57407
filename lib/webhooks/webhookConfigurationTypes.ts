import type { LabelSelectorObject } from '../labels/labelSelector.js';
import type { ObjectMeta } from '../meta/kubeObject.js';

/**
 * A webhook rule (admissionregistration.k8s.io/v1 `RuleWithOperations`).
 *
 * @example
 * ```ts
 * const rule: WebhookRule = { apiGroups: ['example.com'], apiVersions: ['v1'], resources: ['backups'], operations: ['CREATE'], scope: 'Namespaced' };
 * ```
 */
export interface WebhookRule {
  apiGroups?: string[];
  apiVersions?: string[];
  resources?: string[];
  operations?: string[];
  scope?: string;
}

/**
 * A Service a webhook is reached through (`https://<name>.<namespace>.svc:<port><path>`).
 *
 * @example
 * ```ts
 * const service: WebhookService = { namespace: 'backup-system', name: 'backup-webhooks', port: 443, path: '/validate-example-com-v1-backup' };
 * ```
 */
export interface WebhookService {
  namespace: string;
  name: string;
  path?: string;
  port?: number;
}

/**
 * How kube reaches a webhook: a `url` or a `service`, and the PEM CA bundle (base64 in JSON)
 * that signed the webhook's serving certificate.
 *
 * @example
 * ```ts
 * const cc: WebhookClientConfig = { url: 'https://127.0.0.1:9443/validate-example-com-v1-backup', caBundle: 'LS0t...' };
 * ```
 */
export interface WebhookClientConfig {
  url?: string;
  service?: WebhookService;
  caBundle?: string;
}

/**
 * A CEL condition on a webhook (all must be true for kube to call it).
 *
 * @example
 * ```ts
 * const c: WebhookMatchCondition = { name: 'not-system', expression: "!request.userInfo.username.startsWith('system:')" };
 * ```
 */
export interface WebhookMatchCondition {
  name: string;
  expression: string;
}

/**
 * One webhook of a ValidatingWebhookConfiguration (admissionregistration.k8s.io/v1).
 *
 * @example
 * ```ts
 * const hook: ValidatingWebhookEntry = { name: 'backups.validate.example.com', admissionReviewVersions: ['v1'], sideEffects: 'None', clientConfig: { url: 'https://127.0.0.1:9443/v' } };
 * ```
 */
export interface ValidatingWebhookEntry {
  name: string;
  clientConfig: WebhookClientConfig;
  rules?: WebhookRule[];
  failurePolicy?: string;
  matchPolicy?: string;
  sideEffects: string;
  timeoutSeconds?: number;
  namespaceSelector?: LabelSelectorObject;
  objectSelector?: LabelSelectorObject;
  matchConditions?: WebhookMatchCondition[];
  admissionReviewVersions: string[];
}

/**
 * One webhook of a MutatingWebhookConfiguration: a validating entry and its `reinvocationPolicy`.
 *
 * @example
 * ```ts
 * const hook: MutatingWebhookEntry = { name: 'backups.default.example.com', admissionReviewVersions: ['v1'], sideEffects: 'None', reinvocationPolicy: 'IfNeeded', clientConfig: { url: 'https://127.0.0.1:9443/m' } };
 * ```
 */
export interface MutatingWebhookEntry extends ValidatingWebhookEntry {
  reinvocationPolicy?: string;
}

/**
 * admissionregistration.k8s.io/v1 `ValidatingWebhookConfiguration`.
 *
 * @example
 * ```ts
 * const config: ValidatingWebhookConfiguration = { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingWebhookConfiguration', metadata: { name: 'backups' }, webhooks: [] };
 * ```
 */
export interface ValidatingWebhookConfiguration {
  apiVersion: 'admissionregistration.k8s.io/v1';
  kind: 'ValidatingWebhookConfiguration';
  metadata: ObjectMeta & { name: string };
  webhooks: ValidatingWebhookEntry[];
}

/**
 * admissionregistration.k8s.io/v1 `MutatingWebhookConfiguration`.
 *
 * @example
 * ```ts
 * const config: MutatingWebhookConfiguration = { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'MutatingWebhookConfiguration', metadata: { name: 'backups' }, webhooks: [] };
 * ```
 */
export interface MutatingWebhookConfiguration {
  apiVersion: 'admissionregistration.k8s.io/v1';
  kind: 'MutatingWebhookConfiguration';
  metadata: ObjectMeta & { name: string };
  webhooks: MutatingWebhookEntry[];
}
