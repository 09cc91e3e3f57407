import { webhookConfigurationProblems, type WebhookConfigurationLike } from '../../../../../webhooks/validateWebhookConfiguration.js';
import type { FieldError as WebhookFieldError } from '../../../../../webhooks/fieldErrors.js';
import type { JsonObject } from '../../../resources.js';
import type { FieldError } from '../../../status.js';
import type { TypeRules } from '../../typeRules.js';
import { checkAdmissionShape } from '../../../admission/admissionShapes.js';

// ValidatingWebhookConfiguration and MutatingWebhookConfiguration as kube stores them
// (ADMISSION.md §3): the v1 defaults (KK admissionregistration/v1/defaults.go) and the creation
// checks, which rxkube/webhooks already words as kube does (the same checks its generated
// configurations pass before they are sent).

const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

const TYPES: ReadonlyArray<readonly [string, FieldError['type']]> = [
  ['Required value', 'FieldValueRequired'],
  ['Invalid value', 'FieldValueInvalid'],
  ['Duplicate value', 'FieldValueDuplicate'],
  ['Unsupported value', 'FieldValueNotSupported'],
  ['Too many', 'FieldValueTooMany'],
  ['Forbidden', 'FieldValueForbidden'],
];

/**
 * rxkube/webhooks' field error as the fake server's 422 cause.
 *
 * @example
 * ```ts
 * toServerFieldError({ field: 'webhooks[0].sideEffects', message: 'Required value: must specify one of None, NoneOnDryRun' });
 * ```
 */
export function toServerFieldError(e: WebhookFieldError): FieldError {
  const type = TYPES.find(([prefix]) => e.message.startsWith(prefix))?.[1] ?? 'FieldValueInvalid';
  return { field: e.field, type, body: e.message };
}

function defaultWebhook(hook: JsonObject, mutating: boolean): void {
  hook.failurePolicy ??= 'Fail';
  hook.matchPolicy ??= 'Equivalent';
  hook.namespaceSelector ??= {};
  hook.objectSelector ??= {};
  hook.timeoutSeconds ??= 10;
  if (mutating) hook.reinvocationPolicy ??= 'Never';
  if (Array.isArray(hook.rules)) for (const r of hook.rules) if (isObject(r)) r.scope ??= '*';
  const service = isObject(hook.clientConfig) && isObject(hook.clientConfig.service) ? hook.clientConfig.service : undefined;
  if (service) service.port ??= 443;
}

function rules(kind: WebhookConfigurationLike['kind']): TypeRules {
  const mutating = kind === 'MutatingWebhookConfiguration';
  const check = (obj: JsonObject): FieldError[] =>
    webhookConfigurationProblems({ ...(obj as object), kind } as WebhookConfigurationLike)
      .filter((e) => e.field !== 'metadata.name') // the store checks metadata
      .map(toServerFieldError);
  return {
    defaults: (obj) => {
      checkAdmissionShape(kind, obj);
      if (Array.isArray(obj.webhooks)) for (const h of obj.webhooks) if (isObject(h)) defaultWebhook(h, mutating);
    },
    validateCreate: check,
    validateUpdate: check,
  };
}

/**
 * The rules of the two webhook configuration types, by type id (merged into the server's rules).
 *
 * @example
 * ```ts
 * const all = new Map([...builtInTypeRules, ...webhookConfigurationRules]);
 * ```
 */
export const webhookConfigurationRules: ReadonlyMap<string, TypeRules> = new Map([
  ['validatingwebhookconfigurations.admissionregistration.k8s.io', rules('ValidatingWebhookConfiguration')],
  ['mutatingwebhookconfigurations.admissionregistration.k8s.io', rules('MutatingWebhookConfiguration')],
]);
