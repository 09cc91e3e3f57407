import { RxkubeError } from '../errors.js';

/**
 * A watch received no bytes at all (no event, no bookmark) for longer than its `timeoutSeconds`
 * plus a margin (the server would have closed it by then), or, with bookmarks, longer than the
 * server's bookmark interval plus a margin: the connection is dead (a half-open TCP connection, a
 * proxy that stopped forwarding). The one dead-watch error: raised by {@link detectDeadWatch}, which
 * the reflector applies to every watch (and `listWatch` when asked); the watch's request is aborted
 * and the reflector replaces the watch (R12).
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

  constructor(silentMs: number, context = 'watch', expected = 'the watch timeout plus margin') {
    super(
      'WatchDeadError',
      `${context}: no bytes received for ${silentMs} ms (longer than ${expected}); aborted the connection as dead`,
    );
    this.silentMs = silentMs;
  }
}
