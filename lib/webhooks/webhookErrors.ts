import { RxkubeError, causeMessage } from '../errors.js';

/**
 * A review rxkube cannot answer: not JSON, not an AdmissionReview / ConversionReview of a known
 * version, without a request or its uid, too large, or sent with the wrong content type. The
 * server answers it with `statusCode` (400, or 413 when too large) and the message; an in-process
 * caller gets it as the rejection of `review()`.
 *
 * @example
 * ```ts
 * webhook.review(body).catch((e) => { if (e instanceof BadReviewError) console.log(e.statusCode, e.message); });
 * ```
 */
export class BadReviewError extends RxkubeError {
  /** The HTTP status the server answers with: 400, or 413 for a body over the limit. */
  readonly statusCode: number;

  constructor(message: string, statusCode = 400) {
    super('BadReviewError', message);
    this.statusCode = statusCode;
  }
}

/**
 * A webhook handler threw (or its promise rejected): the request was denied with the error's
 * message (code 500, reason `InternalError`), and this is reported on the webhook's `errors$`.
 * Counted in `controller_runtime_webhook_panics_total` (or the conversion one).
 *
 * @example
 * ```ts
 * server.errors$.subscribe((e) => { if (e instanceof WebhookHandlerError) log.error(e.webhook, e.cause); });
 * ```
 */
export class WebhookHandlerError extends RxkubeError {
  /** The webhook's name (admission) or path (conversion). */
  readonly webhook: string;
  /** `admission` or `conversion`. */
  readonly webhookType: 'admission' | 'conversion';
  /** The request's uid. */
  readonly uid: string;

  constructor(webhook: string, webhookType: 'admission' | 'conversion', uid: string, cause: unknown) {
    super('WebhookHandlerError', `webhook ${JSON.stringify(webhook)} failed on request ${uid}; answered with a denial carrying its message: ${causeMessage(cause)}`, { cause });
    this.webhook = webhook;
    this.webhookType = webhookType;
    this.uid = uid;
  }
}

/**
 * A webhook handler did not decide within its time budget: the request was answered as the webhook's
 * `onTimeout` says (denied, or allowed), before kube-apiserver's own `timeoutSeconds` ran out. The
 * handler was signalled to stop (its `signal` aborted); whatever it still does is ignored.
 *
 * @example
 * ```ts
 * server.errors$.subscribe((e) => { if (e instanceof WebhookTimeoutError) log.warn(e.message); });
 * ```
 */
export class WebhookTimeoutError extends RxkubeError {
  readonly webhook: string;
  readonly uid: string;
  /** The budget that ran out (ms). */
  readonly budgetMs: number;

  constructor(webhook: string, uid: string, budgetMs: number, answer: 'denied' | 'allowed') {
    super('WebhookTimeoutError', `webhook ${JSON.stringify(webhook)} did not decide request ${uid} within its budget of ${budgetMs}ms; ${answer} it`);
    this.webhook = webhook;
    this.uid = uid;
    this.budgetMs = budgetMs;
  }
}

/**
 * A mutating handler's change could not become a JSON Patch kube can apply (its recipe threw or was
 * async, the replacement is not an object, the patch would not apply, or it tried to change the
 * object of a DELETE): the request was denied naming it.
 *
 * @example
 * ```ts
 * server.errors$.subscribe((e) => { if (e instanceof MutationPatchError) log.error(e.message); });
 * ```
 */
export class MutationPatchError extends RxkubeError {
  readonly webhook: string;
  readonly uid: string;

  constructor(webhook: string, uid: string, reason: string) {
    super('MutationPatchError', `mutating webhook ${JSON.stringify(webhook)} could not patch request ${uid}: ${reason}`);
    this.webhook = webhook;
    this.uid = uid;
  }
}

/**
 * Every error a webhook reports on its `errors$` (the request was answered in each case).
 *
 * @example
 * ```ts
 * const onError = (e: WebhookError) => console.error(e.message);
 * ```
 */
export type WebhookError = WebhookHandlerError | WebhookTimeoutError | MutationPatchError;
