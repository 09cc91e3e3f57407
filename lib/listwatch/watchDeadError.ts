import { RxkubeError } from '../errors.js';

/**
 * A watch received no bytes at all (no event, no bookmark) for longer than its `timeoutSeconds`
 * plus a margin: the server would have closed it by then, so the connection is dead (a half-open
 * TCP connection, a proxy that stopped forwarding). The watch Observable errors with this and
 * aborts its request; the reflector replaces the watch (R12).
 *
 * @example
 * ```ts
 * lw.watch({ resourceVersion: rv, timeoutSeconds: 300 }).pipe(
 *   catchError((e) => (e instanceof WatchDeadError ? rewatch() : throwError(() => e))),
 * );
 * ```
 */
export class WatchDeadError extends RxkubeError {
  /** How long the watch had been silent when it was declared dead, in milliseconds. */
  readonly silentMs: number;

  constructor(silentMs: number, context = 'watch') {
    super(
      'WatchDeadError',
      `${context}: no bytes received for ${silentMs} ms (longer than the watch timeout plus margin); aborted the connection as dead`,
    );
    this.silentMs = silentMs;
  }
}
