import { asyncScheduler, catchError, defer, firstValueFrom, from, isObservable, map, Observable, of, Subject, take, timeout, type SchedulerLike } from 'rxjs';
import { ConfigError } from '../configError.js';
import { causeMessage } from '../errors.js';
import { isPromiseLike } from '../meta/isPromiseLike.js';
import type { MutationDecision, ValidationDecision } from './admissionDecision.js';
import { allowedResponse, decidedResponse, deniedResponse } from './admissionResponse.js';
import type { AdmissionRequest, AdmissionResponse, AdmissionReview } from './admissionReview.js';
import { parseAdmissionReview } from './parseReview.js';
import { validateWebhookConfiguration } from './validateWebhookConfiguration.js';
import { defaultBudgetMs, defaultWebhookPath, webhookEntry, type AdmissionWebhookDeclaration, type MutatingWebhookDeclaration, type WebhookEntry } from './webhookDeclaration.js';
import { MutationPatchError, WebhookHandlerError, WebhookTimeoutError, type WebhookError } from './webhookErrors.js';

/**
 * What a handler is given besides the request: a signal aborted when its answer is no longer
 * wanted (the time budget ran out, or the server stopped).
 *
 * @example
 * ```ts
 * const validate = async (request: AdmissionRequest<Backup>, { signal }: AdmissionContext) => {
 *   const quota = await fetchQuota(request.namespace!, { signal });
 *   return quota.ok ? allowed() : denied('over quota');
 * };
 * ```
 */
export interface AdmissionContext {
  readonly signal: AbortSignal;
}

/**
 * What a handler may return: its decision (nothing allows), at once, as a Promise, or as an
 * Observable (its first value).
 *
 * @example
 * ```ts
 * const later: HandlerResult<ValidationDecision> = Promise.resolve(denied('no'));
 * ```
 */
export type HandlerResult<D> = D | void | PromiseLike<D | void> | Observable<D | void>;

/**
 * A validating handler: a request in, a decision out. Throwing (or rejecting) denies with the
 * error's message (code 500) and never crashes the process.
 *
 * @example
 * ```ts
 * const validate: ValidateHandler<Backup> = (request) => (request.object?.spec?.schedule ? allowed() : denied('spec.schedule is required'));
 * ```
 */
export type ValidateHandler<T> = (request: AdmissionRequest<T>, context: AdmissionContext) => HandlerResult<ValidationDecision>;

/**
 * A mutating handler: a request in, a decision out, changes as {@link patched} (an immer recipe) or
 * {@link replaced} (a new object).
 *
 * @example
 * ```ts
 * const mutate: MutateHandler<Backup> = () => patched((b) => { b.spec = { retention: 7, ...b.spec }; });
 * ```
 */
export type MutateHandler<T> = (request: AdmissionRequest<T>, context: AdmissionContext) => HandlerResult<MutationDecision<T>>;

/**
 * Options every admission webhook takes besides its declaration.
 *
 * @example
 * ```ts
 * const runtime: AdmissionWebhookRuntimeOptions = { scheduler: testScheduler };
 * ```
 */
export interface AdmissionWebhookRuntimeOptions {
  /** The clock of the time budget. Default `asyncScheduler`. */
  readonly scheduler?: SchedulerLike;
}

/**
 * Options of {@link validatingWebhook}: the declaration, the handler and the clock.
 *
 * @example
 * ```ts
 * const options: ValidatingWebhookOptions<Backup> = { name: 'backups.validate.example.com', resource: backups, validate: () => allowed() };
 * ```
 */
export interface ValidatingWebhookOptions<T> extends AdmissionWebhookDeclaration<T>, AdmissionWebhookRuntimeOptions {
  // NoInfer: the object type comes from `resource`; the handler is then checked against it.
  readonly validate: ValidateHandler<NoInfer<T>>;
}

/**
 * Options of {@link mutatingWebhook}.
 *
 * @example
 * ```ts
 * const options: MutatingWebhookOptions<Backup> = { name: 'backups.default.example.com', resource: backups, mutate: (request) => patched((b) => { b.spec ??= {}; }) };
 * ```
 */
export interface MutatingWebhookOptions<T> extends MutatingWebhookDeclaration<T>, AdmissionWebhookRuntimeOptions {
  readonly mutate: MutateHandler<NoInfer<T>>;
}

/**
 * A validating or mutating webhook: its declaration (what its configuration entry says) and the
 * pure function that answers one AdmissionReview. `review` is what the HTTPS server calls for its
 * path, and what a test calls directly, in process: a review in, a review out, never a rejection
 * for a well-formed review (a handler that throws or times out answers a denial).
 *
 * @example
 * ```ts
 * const answer = await webhook.review({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', request });
 * answer.response?.allowed;
 * ```
 */
export interface AdmissionWebhook<T = unknown> {
  readonly type: 'validating' | 'mutating';
  /** The webhook's name in its configuration. */
  readonly name: string;
  /** The path the server serves it on. */
  readonly path: string;
  /** The configuration entry it declares, defaults filled in, without `clientConfig`. */
  readonly entry: WebhookEntry;
  /** The handler's time budget (ms). */
  readonly budgetMs: number;
  /**
   * Answers one AdmissionReview (v1 or v1beta1, answered in the same version, `response.uid` the
   * request's). Rejects only with `BadReviewError` (400) for what is not an AdmissionReview.
   */
  review(review: AdmissionReview, options?: { readonly signal?: AbortSignal }): Promise<AdmissionReview>;
  /** {@link AdmissionWebhook.review} as a cold Observable (one answer, then complete; unsubscribing aborts the handler). */
  review$(review: AdmissionReview): Observable<AdmissionReview>;
  /** Handler failures, timeouts and patch failures (each request was answered). */
  readonly errors$: Observable<WebhookError>;
  /** Type only: the object type. */
  readonly __object?: T;
}

/** Whether a request is for the resource the webhook is declared for (a drifted configuration otherwise). */
function sameResource<T>(request: AdmissionRequest<T>, d: AdmissionWebhookDeclaration<T>): boolean {
  const r = request.resource;
  return r.group === d.resource.group && r.version === d.resource.version && r.resource === d.resource.plural;
}

const asObservable = <D>(result: HandlerResult<D>): Observable<D | void> =>
  isObservable(result) ? result.pipe(take(1)) : isPromiseLike(result) ? from(result as PromiseLike<D | void>) : of(result as D | void);

function makeWebhook<T>(
  type: 'validating' | 'mutating',
  d: MutatingWebhookDeclaration<T> & AdmissionWebhookRuntimeOptions,
  handler: (request: AdmissionRequest<T>, context: AdmissionContext) => HandlerResult<MutationDecision<T>>,
): AdmissionWebhook<T> {
  const path = d.path ?? defaultWebhookPath(type === 'validating' ? 'validate' : 'mutate', d.resource);
  const entry = webhookEntry(type, d);
  // kube's creation checks now, with a stand-in service, so a bad declaration fails where it is written.
  validateWebhookConfiguration({
    kind: type === 'validating' ? 'ValidatingWebhookConfiguration' : 'MutatingWebhookConfiguration',
    metadata: { name: 'declaration' },
    webhooks: [{ ...entry, clientConfig: { service: { name: 'webhook', namespace: 'default', path } } }],
  });
  const timeoutSeconds = entry.timeoutSeconds ?? 10;
  const budgetMs = d.budgetMs ?? defaultBudgetMs(timeoutSeconds);
  if (!Number.isFinite(budgetMs) || budgetMs <= 0 || budgetMs > timeoutSeconds * 1000) {
    throw new ConfigError('budgetMs', `budgetMs must be above 0 and at most timeoutSeconds (${timeoutSeconds * 1000}ms), so that the webhook answers before kube gives up`, { value: budgetMs });
  }
  const onTimeout = d.onTimeout ?? (entry.failurePolicy === 'Ignore' ? 'allow' : 'deny');
  const scheduler = d.scheduler ?? asyncScheduler;
  const errors = new Subject<WebhookError>();
  const name = d.name;

  const answer$ = (request: AdmissionRequest<T>): Observable<AdmissionResponse> => {
    if (!sameResource(request, d)) {
      const got = request.resource;
      const message = `webhook ${JSON.stringify(name)} handles ${d.resource.group || 'core'}/${d.resource.version} ${d.resource.plural}, not ${got.group || 'core'}/${got.version} ${got.resource}: its configuration and its code disagree (generate the configuration from the webhooks)`;
      return of(deniedResponse(request.uid, 400, 'BadRequest', message));
    }
    return new Observable<AdmissionResponse>((subscriber) => {
      const controller = new AbortController();
      const onTimedOut = () => {
        controller.abort(new WebhookTimeoutError(name, request.uid, budgetMs, onTimeout === 'deny' ? 'denied' : 'allowed'));
        errors.next(controller.signal.reason as WebhookTimeoutError);
        return of(
          onTimeout === 'allow'
            ? allowedResponse(request.uid, { warnings: [`webhook ${name} did not decide within ${budgetMs}ms; allowed without its decision`] })
            : deniedResponse(request.uid, 504, 'Timeout', `webhook ${JSON.stringify(name)} did not decide within ${budgetMs}ms (its budget, below kube's timeoutSeconds of ${timeoutSeconds})`),
        );
      };
      let answered = false;
      const subscription = defer(() => asObservable(handler(request, { signal: controller.signal })))
        .pipe(
          map((decision) => {
            const decided = decidedResponse(name, request, decision);
            if (decided.patchFailure !== undefined) errors.next(new MutationPatchError(name, request.uid, decided.patchFailure));
            return decided.response;
          }),
          catchError((e: unknown) => {
            errors.next(new WebhookHandlerError(name, 'admission', request.uid, e));
            return of(deniedResponse(request.uid, 500, 'InternalError', causeMessage(e)));
          }),
          timeout({ first: budgetMs, with: onTimedOut, scheduler }),
        )
        .subscribe({
          next: (response) => {
            answered = true;
            subscriber.next(response);
          },
          error: (e: unknown) => subscriber.error(e),
          complete: () => subscriber.complete(),
        });
      return () => {
        subscription.unsubscribe();
        // Only a handler still deciding is told to stop (an abort builds an error: not per answer).
        if (!answered && !controller.signal.aborted) controller.abort();
      };
    });
  };

  const review$ = (review: AdmissionReview): Observable<AdmissionReview> =>
    defer(() => {
      const parsed = parseAdmissionReview(review);
      return answer$(parsed.request as AdmissionRequest<T>).pipe(map((response) => ({ apiVersion: parsed.apiVersion, kind: 'AdmissionReview' as const, response })));
    });

  return Object.freeze({
    type,
    name,
    path,
    entry,
    budgetMs,
    review$,
    review: (review: AdmissionReview, options: { readonly signal?: AbortSignal } = {}) => firstWithSignal(review$(review), options.signal),
    errors$: errors.asObservable(),
  });
}

/** The first value of `source`, as a Promise; an aborted signal unsubscribes and rejects with its reason. */
export function firstWithSignal<V>(source: Observable<V>, signal: AbortSignal | undefined): Promise<V> {
  if (!signal) return firstValueFrom(source);
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<V>((resolve, reject) => {
    const onAbort = () => {
      subscription.unsubscribe();
      reject(signal.reason);
    };
    const done = () => signal.removeEventListener('abort', onAbort);
    const subscription = source.pipe(take(1)).subscribe({ next: (v) => (done(), resolve(v)), error: (e: unknown) => (done(), reject(e)) });
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * A validating webhook typed by its resource: kube sends it the requests its declaration matches,
 * and `validate` decides each one. See {@link AdmissionWebhook} for what it is and how to call it
 * in a test; serve it with `webhookServer`.
 *
 * Throws a `ConfigError` (a {@link WebhookConfigurationError} naming kube's problems) when the
 * declaration would make a configuration kube refuses.
 *
 * @example
 * ```ts
 * import { allowed, denied, validatingWebhook, webhookResource } from 'rxkube/webhooks';
 * interface Backup { metadata?: { name?: string }; spec?: { schedule?: string } }
 * const backups = webhookResource<Backup>({ group: 'example.com', version: 'v1', plural: 'backups', kind: 'Backup', namespaced: true });
 * const validateBackup = validatingWebhook({
 *   name: 'backups.validate.example.com',
 *   resource: backups,
 *   validate: (request) => (request.object?.spec?.schedule ? allowed() : denied('spec.schedule is required')),
 * });
 * ```
 */
export function validatingWebhook<T>(options: ValidatingWebhookOptions<T>): AdmissionWebhook<T> {
  if (typeof options?.validate !== 'function') throw new ConfigError('validate', 'validatingWebhook needs a validate function (request) => decision', { value: options?.validate });
  return makeWebhook('validating', options, options.validate);
}

/**
 * A mutating webhook typed by its resource: `mutate` returns {@link patched} (an immer recipe) or
 * {@link replaced} (a new object), from which the JSON Patch is computed, or allows or denies.
 *
 * @example
 * ```ts
 * import { mutatingWebhook, patched, webhookResource } from 'rxkube/webhooks';
 * interface Backup { metadata?: { name?: string }; spec?: { schedule?: string; retention?: number } }
 * const backups = webhookResource<Backup>({ group: 'example.com', version: 'v1', plural: 'backups', kind: 'Backup', namespaced: true });
 * const defaultRetention = mutatingWebhook({
 *   name: 'backups.default.example.com',
 *   resource: backups,
 *   // With its request parameter the handler is typed by the resource, and so is the draft.
 *   mutate: ({ object }) => patched((b) => { b.spec = { retention: 7, ...object?.spec }; }),
 * });
 * ```
 */
export function mutatingWebhook<T>(options: MutatingWebhookOptions<T>): AdmissionWebhook<T> {
  if (typeof options?.mutate !== 'function') throw new ConfigError('mutate', 'mutatingWebhook needs a mutate function (request) => decision', { value: options?.mutate });
  return makeWebhook('mutating', options, options.mutate);
}
