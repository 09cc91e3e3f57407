import type { Draft } from 'immer';

/**
 * What every decision may carry besides allowed/denied: warnings for the client (each a
 * `Warning: 299` header; keep each under 120 characters) and audit annotations (recorded as
 * `<webhook name>/<key>`).
 *
 * @example
 * ```ts
 * const extras: DecisionExtras = { warnings: ['spec.schedule runs every minute'], auditAnnotations: { reason: 'tight-schedule' } };
 * ```
 */
export interface DecisionExtras {
  readonly warnings?: ReadonlyArray<string>;
  readonly auditAnnotations?: { readonly [key: string]: string };
}

/**
 * A validating handler's decision: allowed, or denied with a message (the client reads
 * `admission webhook "<name>" denied the request: <message>`), an HTTP code (default 403) and a
 * reason (default `Forbidden`). Build one with {@link allowed} and {@link denied}.
 *
 * @example
 * ```ts
 * const d: ValidationDecision = denied('spec.schedule is not a cron expression', { code: 422, reason: 'Invalid' });
 * ```
 */
export type ValidationDecision =
  | ({ readonly type: 'allowed' } & DecisionExtras)
  | ({ readonly type: 'denied'; readonly message: string; readonly code: number; readonly reason: string } & DecisionExtras);

/**
 * A mutating handler's decision: a {@link ValidationDecision}, or allowed with changes, given as an
 * immer recipe on a draft of the object ({@link patched}) or as the whole new object
 * ({@link replaced}). The RFC 6902 JSON Patch kube applies is computed from either.
 *
 * @example
 * ```ts
 * const d: MutationDecision<ConfigMap> = patched((cm) => { cm.data = { ...cm.data, mode: 'fast' }; });
 * ```
 */
export type MutationDecision<T> = ValidationDecision | PatchedDecision<T> | ReplacedDecision<T>;

/**
 * Allowed with the changes an immer recipe makes to a draft of the object ({@link patched}).
 *
 * @example
 * ```ts
 * const d: PatchedDecision<ConfigMap> = patched((cm) => { cm.data = { mode: 'fast' }; });
 * ```
 */
export interface PatchedDecision<T> extends DecisionExtras {
  readonly type: 'patched';
  // A method, so that a decision built without the handler's type (`patched(() => ...)`) still fits it.
  recipe(draft: Draft<T>): void;
}

/**
 * Allowed with a whole new object in place of the request's ({@link replaced}).
 *
 * @example
 * ```ts
 * const d: ReplacedDecision<ConfigMap> = replaced({ ...cm, data: { mode: 'fast' } });
 * ```
 */
export interface ReplacedDecision<T> extends DecisionExtras {
  readonly type: 'replaced';
  readonly object: T;
}

/**
 * Allows the request (controller-runtime's `Allowed`). A handler that returns nothing allows too.
 *
 * @example
 * ```ts
 * return allowed({ warnings: ['spec.retention of 0 keeps nothing'] });
 * ```
 */
export function allowed(extras: DecisionExtras = {}): ValidationDecision {
  return { type: 'allowed', ...extras };
}

/**
 * Options of {@link denied}: the HTTP code and reason kube returns to the client.
 *
 * @example
 * ```ts
 * const options: DeniedOptions = { code: 422, reason: 'Invalid' };
 * ```
 */
export interface DeniedOptions extends DecisionExtras {
  /** The client's HTTP status (kube uses it when >= 400, else 400). Default 403. */
  readonly code?: number;
  /** The Status reason (`Forbidden`, `Invalid`, ...). Default `Forbidden`. */
  readonly reason?: string;
}

/**
 * Denies the request with a message (controller-runtime's `Denied`): code 403, reason `Forbidden`
 * unless given.
 *
 * @example
 * ```ts
 * if (!backup.spec?.schedule) return denied('spec.schedule is required');
 * ```
 */
export function denied(message: string, options: DeniedOptions = {}): ValidationDecision {
  const { code = 403, reason = 'Forbidden', ...extras } = options;
  return { type: 'denied', message, code, reason, ...extras };
}

/**
 * Allows the request with the changes `recipe` makes to a draft of the object (immer). The recipe
 * runs after the handler returns and must be synchronous: do the awaiting in the handler.
 *
 * @example
 * ```ts
 * return patched((b) => { b.metadata!.labels = { ...b.metadata!.labels, 'example.com/managed': 'true' }; });
 * ```
 */
export function patched<T>(recipe: (draft: Draft<T>) => void, extras: DecisionExtras = {}): PatchedDecision<T> {
  return { type: 'patched', recipe, ...extras };
}

/**
 * Allows the request with `object` in place of the request's object (controller-runtime's
 * `PatchResponseFromRaw`): the JSON Patch from the old object to it is computed.
 *
 * @example
 * ```ts
 * return replaced({ ...request.object!, spec: { ...request.object!.spec, retention: 7 } });
 * ```
 */
export function replaced<T>(object: T, extras: DecisionExtras = {}): ReplacedDecision<T> {
  return { type: 'replaced', object, ...extras };
}
