import { causeMessage, RxkubeError } from '../errors.js';

/**
 * A request failed below HTTP: the connection was refused or reset, DNS or TLS failed, or the body
 * broke off. `cause` holds the underlying error (with Node's `code`, e.g. `ECONNREFUSED`).
 *
 * @example
 * ```ts
 * lw.list({}).subscribe({ error: (e) => e instanceof TransportError && console.warn(e.message, e.cause) });
 * ```
 */
export class TransportError extends RxkubeError {
  /** The request path that failed. */
  readonly path: string;

  constructor(path: string, cause: unknown) {
    const why = causeMessage(cause);
    super('TransportError', `GET ${path} failed: ${why}`, { cause });
    this.path = path;
  }
}
