import { ApiStatusError, type Status } from '../errors.js';

const reasons: Readonly<Record<number, string>> = {
  400: 'BadRequest',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'NotFound',
  405: 'MethodNotAllowed',
  406: 'NotAcceptable',
  409: 'Conflict',
  410: 'Gone',
  415: 'UnsupportedMediaType',
  422: 'Invalid',
  429: 'TooManyRequests',
  500: 'InternalError',
  503: 'ServiceUnavailable',
  504: 'Timeout',
};

/**
 * The {@link ApiStatusError} for an HTTP error response: its body parsed as a `Status`, or, when
 * the body is not one (`404 page not found`, the `text/plain` 429 of priority and fairness), a
 * Status synthesised from the HTTP code and the text. `retryAfterSeconds` comes from the
 * `Retry-After` header (seconds or an HTTP date), else from `details.retryAfterSeconds`.
 *
 * @example
 * ```ts
 * apiStatusErrorFromResponse(404, '404 page not found', undefined, 'GET /api/v1/foos');
 * // ApiStatusError: statusCode 404, reason 'NotFound', message '404 page not found'
 * ```
 */
export function apiStatusErrorFromResponse(
  httpStatus: number,
  body: string,
  retryAfter: string | undefined,
  context?: string,
  now: () => number = Date.now,
): ApiStatusError {
  const status = parseStatus(body) ?? {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: body.trim() || `HTTP ${httpStatus}`,
    reason: reasons[httpStatus] ?? 'Unknown',
    code: httpStatus,
  };
  // Kube sends the HTTP status as `code`; trust the HTTP status when the body disagrees or has none.
  const withCode: Status = status.code === httpStatus ? status : { ...status, code: httpStatus };
  const retryAfterSeconds = parseRetryAfter(retryAfter, now);
  return new ApiStatusError(withCode, {
    context,
    ...(retryAfterSeconds !== undefined ? { retryAfterSeconds } : {}),
  });
}

function parseStatus(body: string): Status | undefined {
  try {
    const value: unknown = JSON.parse(body);
    if (typeof value === 'object' && value !== null && (value as Status).kind === 'Status')
      return value as Status;
  } catch {
    // not JSON: synthesised below
  }
  return undefined;
}

/** A `Retry-After` value (seconds or an HTTP date) in whole seconds, or `undefined` when absent or unreadable. @internal */
export function parseRetryAfter(value: string | undefined, now: () => number): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - now()) / 1000));
}
