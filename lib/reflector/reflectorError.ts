import { ApiStatusError, causeMessage, RxkubeError } from '../errors.js';

/**
 * Which request failed.
 *
 * @example
 * ```ts
 * r.errors$.pipe(filter((e) => e.operation === 'list')).subscribe(console.warn);
 * ```
 */
export type ReflectorOperation = 'list' | 'watch' | 'watchList';

/**
 * What the reflector does about an error:
 * - `relist`: ends this ListAndWatch; after one backoff step it lists again.
 * - `rewatch`: backs off, then re-opens the watch from the last RV (no relist).
 * - `listFromLatest`: lists again at once with RV `""` (the RV asked for was expired or too large).
 * - `restartWatchList`: starts the streaming list over.
 * - `fallbackToList`: the streaming list failed; lists and watches instead.
 *
 * @example
 * ```ts
 * r.errors$.pipe(filter((e) => e.action === 'relist')).subscribe(() => relists++);
 * ```
 */
export type ReflectorAction = 'relist' | 'rewatch' | 'listFromLatest' | 'restartWatchList' | 'fallbackToList';

/**
 * An error the reflector met and recovered from, on its `errors$` stream (and on its informer's,
 * and its factory's). `cause` is the original error (an `ApiStatusError` for HTTP errors and
 * ERROR events, a transport error otherwise); `action` says what the reflector did next.
 *
 * @example
 * ```ts
 * r.errors$.subscribe((e) => console.warn(e.message)); // "Pod: watch failed (410 Expired: too old resource version); relisting"
 * if (e.statusCode === 403) alertRbac();
 * ```
 */
export class ReflectorError extends RxkubeError {
  /** Which request failed. */
  readonly operation: ReflectorOperation;
  /** What the reflector did about it. */
  readonly action: ReflectorAction;
  /** The HTTP status (or ERROR event code) when the server sent one, else undefined. */
  readonly statusCode: number | undefined;
  /** The Kubernetes reason (`Expired`, `Forbidden`, ...) when the server sent one, else `''`. */
  readonly reason: string;

  constructor(typeName: string, operation: ReflectorOperation, action: ReflectorAction, cause: unknown) {
    const what = causeMessage(cause);
    super(
      'ReflectorError',
      `${typeName}: ${operationText[operation]} failed (${what}); ${actionText[action]}`,
      {
        cause,
      },
    );
    this.operation = operation;
    this.action = action;
    this.statusCode = cause instanceof ApiStatusError ? cause.statusCode : undefined;
    this.reason = cause instanceof ApiStatusError ? cause.reason : '';
  }
}

const operationText: Record<ReflectorOperation, string> = {
  list: 'list',
  watch: 'watch',
  watchList: 'streaming list (watch-list)',
};

const actionText: Record<ReflectorAction, string> = {
  relist: 'relisting after a backoff',
  rewatch: 're-watching from the last resource version after a backoff',
  listFromLatest: 'listing again from the latest resource version',
  restartWatchList: 'restarting the streaming list',
  fallbackToList: 'falling back to list and watch',
};

/**
 * A watch stream ended in a way that is an error though the server sent no error: it closed within
 * 1 s with no events ("very short watch"), or carried a line that is not a watch event. (A watch
 * gone silent, a dead connection, errors with the listwatch's `WatchDeadError`.)
 *
 * @example
 * ```ts
 * r.errors$.pipe(filter((e) => e.cause instanceof WatchEndedError)).subscribe(console.warn);
 * ```
 */
export class WatchEndedError extends RxkubeError {
  /** `veryShort` or `malformed`. (A dead connection is a `WatchDeadError`.) */
  readonly kind: 'veryShort' | 'malformed';

  constructor(kind: 'veryShort' | 'malformed', message: string, options?: { cause?: unknown }) {
    super('WatchEndedError', message, options);
    this.kind = kind;
  }
}
