import { ApiStatusError } from '../errors.js';

/**
 * The resource version asked for has been compacted: HTTP 410 or an ERROR event with reason
 * `Expired` (or `Gone`, as servers up to 1.17 said).
 *
 * @example
 * ```ts
 * if (isExpiredError(err)) relist();
 * ```
 */
export function isExpiredError(err: unknown): boolean {
  return (
    err instanceof ApiStatusError &&
    (err.reason === 'Expired' || err.reason === 'Gone' || err.statusCode === 410)
  );
}

/**
 * The resource version asked for is ahead of the server's (a 504 Timeout, or a 429, carrying the
 * cause `ResourceVersionTooLarge`, or the older "Too large resource version" messages).
 *
 * @example
 * ```ts
 * if (isTooLargeResourceVersionError(err)) listFromLatest();
 * ```
 */
export function isTooLargeResourceVersionError(err: unknown): boolean {
  if (!(err instanceof ApiStatusError)) return false;
  const causes = err.status.details?.causes ?? [];
  if (causes.some((c) => c.reason === 'ResourceVersionTooLarge')) return true;
  if (err.statusCode !== 504 && err.reason !== 'Timeout') return false;
  if (causes.some((c) => c.message === 'Too large resource version')) return true;
  return (err.status.message ?? '').includes('Too large resource version');
}

/**
 * The server asked the client to slow down (429 TooManyRequests), by status or ERROR event.
 *
 * @example
 * ```ts
 * if (isTooManyRequestsError(err)) backOff(err.retryAfterSeconds);
 * ```
 */
export function isTooManyRequestsError(err: unknown): boolean {
  return err instanceof ApiStatusError && (err.statusCode === 429 || err.reason === 'TooManyRequests');
}

/**
 * A 500 InternalError (by status or ERROR event): client-go relists after one mid-watch.
 *
 * @example
 * ```ts
 * isInternalError(new ApiStatusError({ code: 500, reason: 'InternalError' })); // true
 * ```
 */
export function isInternalError(err: unknown): boolean {
  return err instanceof ApiStatusError && (err.statusCode === 500 || err.reason === 'InternalError');
}

/**
 * The connection was refused (the API server is down or restarting): re-watching from the same RV
 * after a backoff is cheaper than relisting. Looks through `cause` chains for `ECONNREFUSED`.
 *
 * @example
 * ```ts
 * isConnectionRefused(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' })); // true
 * ```
 */
export function isConnectionRefused(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e !== undefined && e !== null && depth < 5; depth++) {
    if (typeof e !== 'object') return false;
    const { code, message, cause } = e as { code?: unknown; message?: unknown; cause?: unknown };
    if (code === 'ECONNREFUSED') return true;
    if (typeof message === 'string' && message.includes('ECONNREFUSED')) return true;
    e = cause;
  }
  return false;
}

/**
 * Errors after which a watch is re-opened from the same RV after a backoff, without a relist
 * (client-go's `isWatchErrorRetriable`): 429 and connection refused.
 *
 * @example
 * ```ts
 * if (isWatchErrorRetriable(err)) rewatchAfterBackoff();
 * ```
 */
export function isWatchErrorRetriable(err: unknown): boolean {
  return isTooManyRequestsError(err) || isConnectionRefused(err);
}
