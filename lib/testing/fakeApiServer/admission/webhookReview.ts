import type { JsonObject } from '../resources.js';
import type { RuleMatch } from './admissionMatching.js';
import type { AdmissionAttributes } from './attributes.js';

// The AdmissionReview kube-apiserver sends a webhook and the checks it makes of the answer
// (AS admission/plugin/webhook/request/admissionreview.go; ADMISSION.md §2).

/**
 * A webhook's answer, checked: allowed or not, its status, its patch (JSON Patch operations,
 * decoded) and warnings.
 *
 * @example
 * ```ts
 * const r: WebhookAnswer = { allowed: true, warnings: [] };
 * ```
 */
export interface WebhookAnswer {
  readonly allowed: boolean;
  readonly status?: JsonObject;
  readonly patch?: unknown;
  readonly warnings: ReadonlyArray<string>;
}

/**
 * An answer kube refuses (a call failure, subject to failurePolicy): `reason` is kube's text.
 *
 * @example
 * ```ts
 * throw new InvalidWebhookResponse('received invalid webhook response: webhook response was absent');
 * ```
 */
export class InvalidWebhookResponse extends Error {
  constructor(readonly reason: string) {
    super(reason);
  }
}

const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The review sent to one webhook: a fresh `uid`, the matched kind and resource, the object at the
 * matched version, in the first review version the webhook accepts that kube knows.
 *
 * @example
 * ```ts
 * const review = admissionReview(attributes, match, 'v1', rng.uuid());
 * ```
 */
export function admissionReview(a: AdmissionAttributes, match: RuleMatch, version: 'v1' | 'v1beta1', uid: string): JsonObject {
  const apiVersion = match.kind.group ? `${match.kind.group}/${match.kind.version}` : match.kind.version;
  const inVersion = (o: JsonObject | null): JsonObject | null => (o ? { ...o, apiVersion, kind: match.kind.kind } : null);
  const request: JsonObject = {
    uid,
    kind: match.kind,
    resource: match.resource,
    ...(a.subResource ? { subResource: a.subResource } : {}),
    requestKind: a.requestKind,
    requestResource: a.requestResource,
    ...(a.requestSubResource ? { requestSubResource: a.requestSubResource } : {}),
    ...(a.name ? { name: a.name } : {}),
    ...(a.namespace ? { namespace: a.namespace } : {}),
    operation: a.operation,
    userInfo: a.userInfo,
    object: inVersion(a.object),
    oldObject: inVersion(a.oldObject),
    dryRun: a.dryRun,
    options: a.options,
  };
  return { apiVersion: `admission.k8s.io/${version}`, kind: 'AdmissionReview', request };
}

/**
 * The review version kube sends: the first of the webhook's `admissionReviewVersions` it knows.
 *
 * @example
 * ```ts
 * reviewVersion(['v2', 'v1beta1', 'v1']); // 'v1beta1'
 * ```
 */
export const reviewVersion = (accepted: unknown): 'v1' | 'v1beta1' =>
  (Array.isArray(accepted) ? accepted.find((v) => v === 'v1' || v === 'v1beta1') : undefined) ?? 'v1';

const gvkText = (apiVersion: unknown, kind: unknown): string => {
  const av = typeof apiVersion === 'string' ? apiVersion : '';
  const slash = av.indexOf('/');
  const [group, version] = slash < 0 ? ['', av] : [av.slice(0, slash), av.slice(slash + 1)];
  return `${group}/${version}, Kind=${typeof kind === 'string' ? kind : ''}`;
};

const invalid = (why: string): InvalidWebhookResponse => new InvalidWebhookResponse(`received invalid webhook response: ${why}`);

/**
 * Checks a webhook's answer as kube does (absent response, uid, kind, patch and patchType) and
 * decodes its base64 patch; throws {@link InvalidWebhookResponse} with kube's text otherwise.
 *
 * @example
 * ```ts
 * const answer = verifyAdmissionResponse(json, review, true);
 * ```
 */
export function verifyAdmissionResponse(answer: unknown, sent: JsonObject, mutating: boolean): WebhookAnswer {
  const version = sent.apiVersion as string;
  const uid = (sent.request as JsonObject).uid as string;
  const response = isObject(answer) ? answer.response : undefined;
  if (!isObject(answer) || !isObject(response)) throw invalid('webhook response was absent');
  const v1 = version === 'admission.k8s.io/v1';
  if (v1 && response.uid !== uid) throw invalid(`expected response.uid=${JSON.stringify(uid)}, got ${JSON.stringify(typeof response.uid === 'string' ? response.uid : '')}`);
  if (v1 && (answer.apiVersion !== version || answer.kind !== 'AdmissionReview')) {
    throw invalid(`expected webhook response of admission.k8s.io/v1, Kind=AdmissionReview, got ${gvkText(answer.apiVersion, answer.kind)}`);
  }
  const patch = response.patch;
  const patchType = response.patchType;
  const hasPatch = typeof patch === 'string' && patch !== '';
  const hasType = patchType !== undefined && patchType !== null;
  if (!mutating) {
    if (hasPatch) throw invalid('validating webhook may not return response.patch');
    if (hasType) throw invalid('validating webhook may not return response.patchType');
  } else if (v1) {
    if (hasPatch && !hasType) throw invalid('webhook returned response.patch but not response.patchType');
    if (!hasPatch && hasType) throw invalid('webhook returned response.patchType but not response.patch');
    if (hasType && patchType !== 'JSONPatch') {
      throw invalid(patchType === '' ? 'webhook returned invalid response.patchType of ""' : `unsupported patch type ${JSON.stringify(patchType)}`);
    }
  }
  let ops: unknown;
  if (mutating && hasPatch) {
    try {
      ops = JSON.parse(Buffer.from(patch, 'base64').toString('utf8')) as unknown;
    } catch (e) {
      throw new InvalidWebhookResponse(`received undecodable patch in webhook response: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  const warnings = Array.isArray(response.warnings) ? response.warnings.filter((w): w is string => typeof w === 'string') : [];
  return {
    allowed: response.allowed === true,
    ...(isObject(response.status) ? { status: response.status } : {}),
    ...(ops !== undefined ? { patch: ops } : {}),
    warnings,
  };
}
