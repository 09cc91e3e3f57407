import { catchError, map, type Observable, of, throwError } from 'rxjs';
import type { AdmissionWebhook } from './admissionWebhook.js';
import type { ConversionWebhook } from './conversionWebhook.js';
import type { RequestBody } from './requestBody.js';
import { BadReviewError } from './webhookErrors.js';

/** What the server writes back for one webhook call: an HTTP status and a JSON body. */
export interface ReviewAnswer {
  readonly status: number;
  readonly body: object;
}

/**
 * The review a refused request is answered with (HTTP 400 or 413 carries the same): a denial for
 * an admission webhook (controller-runtime's `Errored(code, err)`), a Failure for a conversion one.
 *
 * @example
 * ```ts
 * refusal('validating', new BadReviewError('request body is empty'));
 * ```
 */
export function refusal(type: AdmissionWebhook['type'] | ConversionWebhook['type'], e: BadReviewError): ReviewAnswer {
  if (type === 'conversion') {
    return { status: e.statusCode, body: { apiVersion: 'apiextensions.k8s.io/v1', kind: 'ConversionReview', response: { uid: '', convertedObjects: [], result: { status: 'Failure', message: e.message } } } };
  }
  return { status: e.statusCode, body: { apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response: { uid: '', allowed: false, status: { code: e.statusCode, message: e.message } } } };
}

const mediaType = (contentType: string | undefined): string => (contentType ?? '').split(';')[0].trim().toLowerCase();

/**
 * One call of a webhook path, from the request's content type and body to the answer: 400 for a
 * wrong content type, an empty body, a body that is not JSON or not a review of a known version;
 * 413 for a body over the limit (controller-runtime's texts); 200 with the webhook's review
 * otherwise. Unsubscribing aborts the handler.
 *
 * @example
 * ```ts
 * answerReview(webhook, 'application/json', { type: 'body', bytes }, 7340032).subscribe(({ status, body }) => send(status, body));
 * ```
 */
export function answerReview(webhook: AdmissionWebhook | ConversionWebhook, contentType: string | undefined, body: RequestBody, limit: number): Observable<ReviewAnswer> {
  const refuse = (message: string, status = 400) => of(refusal(webhook.type, new BadReviewError(message, status)));
  if (body.type === 'tooLarge') return refuse(`request entity is too large; limit is ${limit} bytes`, 413);
  if (body.bytes.length === 0) return refuse('request body is empty');
  if (mediaType(contentType) !== 'application/json') return refuse(`contentType=${contentType ?? ''}, expected application/json`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.bytes.toString('utf8'));
  } catch (e) {
    return refuse(`the request body is not JSON: ${e instanceof Error ? e.message : String(e)}`);
  }
  const review$ = (webhook.review$ as (r: unknown) => Observable<object>)(parsed);
  return review$.pipe(
    map((review): ReviewAnswer => ({ status: 200, body: review })),
    catchError((e: unknown) => (e instanceof BadReviewError ? of(refusal(webhook.type, e)) : throwError(() => e))),
  );
}
