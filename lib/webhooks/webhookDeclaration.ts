import type { MutatingWebhookEntry, ValidatingWebhookEntry, WebhookMatchCondition, WebhookRule } from './webhookConfigurationTypes.js';
import type { LabelSelectorObject } from '../labels/labelSelector.js';
import type { AdmissionOperation, AdmissionReviewVersion } from './admissionReview.js';
import type { WebhookResource } from './webhookResource.js';

/**
 * How an admission webhook is declared, besides its handler: which requests kube sends it (the
 * rules come from its resource, operations and subresources, so they cannot drift from the code),
 * and how kube calls it. Every field maps to the ValidatingWebhookConfiguration /
 * MutatingWebhookConfiguration field of the same name; defaults are kube's unless said.
 *
 * @example
 * ```ts
 * const declaration: AdmissionWebhookDeclaration<Backup> = {
 *   name: 'backups.validate.example.com', resource: backups, operations: ['CREATE', 'UPDATE'],
 *   failurePolicy: 'Fail', timeoutSeconds: 5, namespaceSelector: { matchLabels: { team: 'storage' } },
 * };
 * ```
 */
export interface AdmissionWebhookDeclaration<T> {
  /** The webhook's name in its configuration: fully qualified, at least three segments (`backups.validate.example.com`). */
  readonly name: string;
  /** The resource whose requests the handler gets (its group, version and plural make the rule). */
  readonly resource: WebhookResource<T>;
  /** Default `['CREATE', 'UPDATE']`. `'*'` alone for all. */
  readonly operations?: ReadonlyArray<AdmissionOperation | '*'>;
  /** Subresources also sent (`['status']` adds `backups/status`). Default none: the main resource only. */
  readonly subresources?: ReadonlyArray<string>;
  /**
   * The path the server serves it on. Default controller-runtime's:
   * `/validate-<group, dots as dashes>-<version>-<kind, lower case>` (`/mutate-...` for mutating).
   */
  readonly path?: string;
  /** Default the resource's own scope (`Namespaced` or `Cluster`). */
  readonly scope?: 'Cluster' | 'Namespaced' | '*';
  /** Default `Fail`: kube refuses the request when the webhook cannot be called or answers badly. */
  readonly failurePolicy?: 'Fail' | 'Ignore';
  /** Default `Equivalent`. */
  readonly matchPolicy?: 'Exact' | 'Equivalent';
  /** Default `None` (required by kube: `None` or `NoneOnDryRun`). */
  readonly sideEffects?: 'None' | 'NoneOnDryRun';
  /** kube's timeout for the call, 1-30 seconds. Default 10. */
  readonly timeoutSeconds?: number;
  readonly namespaceSelector?: LabelSelectorObject;
  readonly objectSelector?: LabelSelectorObject;
  /** CEL conditions (at most 64): all true to call the webhook. */
  readonly matchConditions?: ReadonlyArray<WebhookMatchCondition>;
  /** Default `['v1']`. */
  readonly admissionReviewVersions?: ReadonlyArray<AdmissionReviewVersion>;
  /**
   * How long the handler may take (ms) before the webhook answers by itself (`onTimeout`), so that
   * the answer reaches kube before its `timeoutSeconds`. Default 80% of `timeoutSeconds`.
   */
  readonly budgetMs?: number;
  /** What to answer when the budget runs out. Default: `deny` with failurePolicy `Fail`, `allow` with `Ignore`. */
  readonly onTimeout?: 'deny' | 'allow';
}

/**
 * A mutating webhook's declaration: also whether kube calls it again when a later webhook changed
 * the object (`reinvocationPolicy`, default `Never`).
 *
 * @example
 * ```ts
 * const declaration: MutatingWebhookDeclaration<Backup> = { name: 'backups.default.example.com', resource: backups, reinvocationPolicy: 'IfNeeded' };
 * ```
 */
export interface MutatingWebhookDeclaration<T> extends AdmissionWebhookDeclaration<T> {
  readonly reinvocationPolicy?: 'Never' | 'IfNeeded';
}

/**
 * A webhook's entry in its configuration without `clientConfig` (which depends on where the
 * server runs): what `webhookConfigurations` completes, and what a test cluster matches requests
 * with.
 *
 * @example
 * ```ts
 * const entry: WebhookEntry = validateBackup.entry; // rules, selectors, policies, defaults filled in
 * ```
 */
export type WebhookEntry = Omit<ValidatingWebhookEntry, 'clientConfig'> | Omit<MutatingWebhookEntry, 'clientConfig'>;

const DEFAULT_OPERATIONS: ReadonlyArray<AdmissionOperation> = ['CREATE', 'UPDATE'];

/**
 * controller-runtime's default webhook path for a kind: `/validate-example-com-v1-backup`.
 *
 * @example
 * ```ts
 * defaultWebhookPath('validate', backups); // '/validate-example-com-v1-backup'
 * defaultWebhookPath('mutate', webhookResource(builtInResources.pods)); // '/mutate--v1-pod'
 * ```
 */
export function defaultWebhookPath(prefix: 'validate' | 'mutate', resource: WebhookResource<unknown>): string {
  return `/${prefix}-${resource.group.replace(/\./g, '-')}-${resource.version}-${resource.kind.toLowerCase()}`;
}

/** The defaulted time budget: 80% of kube's timeout. */
export const defaultBudgetMs = (timeoutSeconds: number): number => Math.round(timeoutSeconds * 1000 * 0.8);

/**
 * The configuration entry a declaration makes (pure; without clientConfig), defaults filled in.
 *
 * @example
 * ```ts
 * webhookEntry('validating', { name: 'backups.validate.example.com', resource: backups }).rules;
 * // [{ apiGroups: ['example.com'], apiVersions: ['v1'], resources: ['backups'], operations: ['CREATE', 'UPDATE'], scope: 'Namespaced' }]
 * ```
 */
export function webhookEntry<T>(type: 'validating' | 'mutating', d: MutatingWebhookDeclaration<T>): WebhookEntry {
  const r = d.resource;
  const rule: WebhookRule = {
    apiGroups: [r.group],
    apiVersions: [r.version],
    resources: [r.plural, ...(d.subresources ?? []).map((s) => `${r.plural}/${s}`)],
    operations: [...(d.operations ?? DEFAULT_OPERATIONS)],
    scope: d.scope ?? (r.namespaced ? 'Namespaced' : 'Cluster'),
  };
  const entry = {
    name: d.name,
    admissionReviewVersions: [...(d.admissionReviewVersions ?? ['v1'])],
    rules: [rule],
    failurePolicy: d.failurePolicy ?? 'Fail',
    matchPolicy: d.matchPolicy ?? 'Equivalent',
    sideEffects: d.sideEffects ?? 'None',
    timeoutSeconds: d.timeoutSeconds ?? 10,
    namespaceSelector: copySelector(d.namespaceSelector),
    objectSelector: copySelector(d.objectSelector),
    ...(d.matchConditions && d.matchConditions.length > 0 ? { matchConditions: d.matchConditions.map((c) => ({ name: c.name, expression: c.expression })) } : {}),
  };
  return type === 'mutating' ? { ...entry, reinvocationPolicy: d.reinvocationPolicy ?? 'Never' } : entry;
}

function copySelector(s: LabelSelectorObject | undefined): { matchLabels?: { [key: string]: string }; matchExpressions?: Array<{ key: string; operator: string; values?: Array<string> }> } {
  if (!s) return {};
  return {
    ...(s.matchLabels ? { matchLabels: { ...s.matchLabels } } : {}),
    ...(s.matchExpressions ? { matchExpressions: s.matchExpressions.map((e) => ({ key: e.key, operator: e.operator, ...(e.values ? { values: [...e.values] } : {}) })) } : {}),
  };
}
