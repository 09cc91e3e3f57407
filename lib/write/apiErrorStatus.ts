import { ApiStatusError } from '../errors.js';
import { parseRetryAfter } from '../transport/apiStatusErrorFromResponse.js';

// What a failed write says, whichever client made it: rxkube's transports throw ApiStatusError
// (`statusCode`, `retryAfterSeconds`); @kubernetes/client-node throws ApiException (`code`,
// `headers`, `body`). Errors wrapped by the caller (`new Error(..., { cause })`) are unwrapped.

const MAX_DEPTH = 8;

interface ApiExceptionLike {
  readonly code: number;
  readonly headers?: Readonly<Record<string, string | undefined>>;
  readonly body?: unknown;
}

const isApiException = (e: unknown): e is ApiExceptionLike =>
  typeof e === 'object' && e !== null && typeof (e as { code?: unknown }).code === 'number' && ('body' in e || 'headers' in e);

/** The error, or the first in its `cause` chain, that carries an HTTP status. */
function withStatus(error: unknown): ApiStatusError | ApiExceptionLike | undefined {
  let e: unknown = error;
  for (let depth = 0; depth < MAX_DEPTH && typeof e === 'object' && e !== null; depth++) {
    if (e instanceof ApiStatusError || isApiException(e)) return e;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

/**
 * The HTTP status of a failed API call (`404`, `409`, `422`, `429`...), from rxkube's
 * `ApiStatusError` or client-node's `ApiException`, also when wrapped as a `cause`; `undefined`
 * for anything else (a network error, a bug).
 *
 * @example
 * ```ts
 * try { await core.deleteNamespacedPod({ name, namespace }); }
 * catch (e) { if (apiErrorStatus(e) !== 404) throw e; }
 * ```
 */
export function apiErrorStatus(error: unknown): number | undefined {
  const e = withStatus(error);
  return e === undefined ? undefined : e instanceof ApiStatusError ? e.statusCode : e.code;
}

/**
 * How long the server asked the client to wait (ms) before retrying a 429 (or a 503) it answered:
 * its `Retry-After` header (seconds or an HTTP date), else the Status's `details.retryAfterSeconds`.
 * `undefined` when it said nothing, or the error is not such an answer.
 *
 * @example
 * ```ts
 * const wait = apiErrorRetryAfterMs(error); // 3000 for "429, Retry-After: 3"
 * ```
 */
export function apiErrorRetryAfterMs(error: unknown, now: () => number = Date.now): number | undefined {
  const e = withStatus(error);
  if (e === undefined) return undefined;
  const status = e instanceof ApiStatusError ? e.statusCode : e.code;
  if (status !== 429 && status !== 503) return undefined;
  let seconds: number | undefined;
  if (e instanceof ApiStatusError) seconds = e.retryAfterSeconds;
  else {
    const header = Object.entries(e.headers ?? {}).find(([name]) => name.toLowerCase() === 'retry-after')?.[1];
    seconds = parseRetryAfter(header, now) ?? detailsRetryAfter(e.body);
  }
  return seconds !== undefined && Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : undefined;
}

/** `details.retryAfterSeconds` of a Status body (an object, or its JSON text). */
function detailsRetryAfter(body: unknown): number | undefined {
  let status: unknown = body;
  if (typeof body === 'string') {
    try {
      status = JSON.parse(body);
    } catch {
      return undefined;
    }
  }
  const seconds = (status as { details?: { retryAfterSeconds?: unknown } } | null)?.details?.retryAfterSeconds;
  return typeof seconds === 'number' ? seconds : undefined;
}
