import type { Status } from '../errors.js';
import type { DecisionExtras, MutationDecision } from './admissionDecision.js';
import type { AdmissionRequest, AdmissionResponse } from './admissionReview.js';
import { mutationPatch } from './mutationPatch.js';

/**
 * What a decision becomes: the response, and, when a mutation could not become a patch, why (the
 * request is then denied naming the webhook).
 */
export interface DecidedResponse {
  readonly response: AdmissionResponse;
  readonly patchFailure?: string;
}

const extrasOf = (d: DecisionExtras): Pick<AdmissionResponse, 'warnings' | 'auditAnnotations'> => ({
  ...(d.warnings && d.warnings.length > 0 ? { warnings: [...d.warnings] } : {}),
  ...(d.auditAnnotations && Object.keys(d.auditAnnotations).length > 0 ? { auditAnnotations: { ...d.auditAnnotations } } : {}),
});

/**
 * A denial as controller-runtime writes one: `allowed: false` and a Status with code, reason and
 * message (kube shows the client `admission webhook "<name>" denied the request: <message>`).
 *
 * @example
 * ```ts
 * deniedResponse(request.uid, 403, 'Forbidden', 'no');
 * ```
 */
export function deniedResponse(uid: string, code: number, reason: string, message: string, extras: DecisionExtras = {}): AdmissionResponse {
  const status: Status = { code, ...(reason ? { reason } : {}), message };
  return { uid, allowed: false, status, ...extrasOf(extras) };
}

/**
 * An allowance: `allowed: true`, status code 200 (controller-runtime's `Allowed`).
 *
 * @example
 * ```ts
 * allowedResponse(request.uid);
 * ```
 */
export function allowedResponse(uid: string, extras: DecisionExtras = {}): AdmissionResponse {
  return { uid, allowed: true, status: { code: 200 }, ...extrasOf(extras) };
}

/**
 * The response for a handler's decision (pure): allowed, denied, or allowed with the JSON Patch of
 * its change (base64, `patchType: JSONPatch`, both only when the patch is not empty). `undefined`
 * (the handler returned nothing) allows. A change that cannot become a patch, or any change to the
 * object of a DELETE or CONNECT, is a denial (code 500, reason `InternalError`) naming the webhook.
 *
 * @example
 * ```ts
 * const { response } = decidedResponse('default-retention.example.com', request, patched((b) => { b.spec = { retention: 7 }; }));
 * ```
 */
export function decidedResponse<T>(webhook: string, request: AdmissionRequest<T>, decision: MutationDecision<T> | void | undefined): DecidedResponse {
  const uid = request.uid;
  if (decision === undefined || decision === null) return { response: allowedResponse(uid) };
  switch (decision.type) {
    case 'allowed':
      return { response: allowedResponse(uid, decision) };
    case 'denied':
      return { response: deniedResponse(uid, decision.code, decision.reason, decision.message, decision) };
    case 'patched':
    case 'replaced': {
      const failed = (reason: string): DecidedResponse => ({
        response: deniedResponse(uid, 500, 'InternalError', `mutating webhook ${JSON.stringify(webhook)} could not patch the object: ${reason}`, decision),
        patchFailure: reason,
      });
      const object = request.object;
      if (object === null || object === undefined) {
        return failed(`a ${request.operation} request has no object to modify (kube refuses to modify the object on DELETE)`);
      }
      const patch = mutationPatch(object, decision);
      if (patch.type === 'failed') return failed(patch.reason);
      if (patch.operations.length === 0) return { response: allowedResponse(uid, decision) };
      const encoded = Buffer.from(JSON.stringify(patch.operations), 'utf8').toString('base64');
      return { response: { ...allowedResponse(uid, decision), patch: encoded, patchType: 'JSONPatch' } };
    }
    default:
      return { response: deniedResponse(uid, 500, 'InternalError', `webhook ${JSON.stringify(webhook)} returned an unknown decision: ${JSON.stringify(decision)}`) };
  }
}
