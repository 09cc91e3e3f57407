/**
 * The base of every error rxkube raises. `code` is stable and machine-readable; `message` says what
 * happened and what rxkube did about it (retrying, relisting, giving up).
 */
export class RxkubeError extends Error {
  /** A stable, machine-readable identifier, e.g. `KeyError`, `ApiStatusError`. */
  readonly code: string;

  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
    this.name = code;
  }
}

/**
 * A key function could not compute a key for an object (no metadata, no name, or a malformed key).
 *
 * @example
 * ```ts
 * try { metaNamespaceKeyFunc({}); } catch (e) { if (e instanceof KeyError) console.log(e.object); }
 * ```
 */
export class KeyError extends RxkubeError {
  /** The object (or key string) that had no usable key. */
  readonly object: unknown;

  constructor(object: unknown, reason: string) {
    super('KeyError', `couldn't create key for object: ${reason}`);
    this.object = object;
  }
}

/** A Kubernetes `Status` object, as the API server sends it for errors. */
export interface Status {
  kind?: 'Status';
  apiVersion?: string;
  metadata?: { resourceVersion?: string };
  status?: 'Success' | 'Failure';
  message?: string;
  reason?: string;
  details?: {
    name?: string;
    group?: string;
    kind?: string;
    uid?: string;
    retryAfterSeconds?: number;
    causes?: ReadonlyArray<{ reason?: string; message?: string; field?: string }>;
  };
  code?: number;
}

/**
 * The API server answered a request with an error `Status` (an HTTP error, or an ERROR event on a
 * watch). `code` is the HTTP status (410, 429, 500, ...), `reason` the Kubernetes reason
 * (`Expired`, `Gone`, `TooManyRequests`, ...).
 *
 * @example
 * ```ts
 * if (err instanceof ApiStatusError && err.statusCode === 410) { relist(); }
 * ```
 */
export class ApiStatusError extends RxkubeError {
  /** The HTTP status code (or the ERROR event's `code`). */
  readonly statusCode: number;
  /** The Kubernetes reason, e.g. `Expired`. Empty when the server sent none. */
  readonly reason: string;
  /** Seconds to wait, from `Retry-After` or `details.retryAfterSeconds`, when the server said. */
  readonly retryAfterSeconds: number | undefined;
  /** The Status object as received (or synthesised from a plain-text body). */
  readonly status: Status;

  constructor(status: Status, options?: { retryAfterSeconds?: number; context?: string; cause?: unknown }) {
    const code = status.code ?? 0;
    const context = options?.context ? `${options.context}: ` : '';
    super('ApiStatusError', `${context}${code} ${status.reason ?? ''}: ${status.message ?? ''}`.trim(), {
      cause: options?.cause,
    });
    this.statusCode = code;
    this.reason = status.reason ?? '';
    this.retryAfterSeconds = options?.retryAfterSeconds ?? status.details?.retryAfterSeconds;
    this.status = status;
  }
}

/**
 * A transform function (the `transform` option of the delta FIFO / informer) threw for an object.
 * The object is not queued; the stream goes on.
 *
 * @example
 * ```ts
 * events$.pipe(deltaFifo({ transform, onError: (e) => e instanceof TransformError && log(e.object) }));
 * ```
 */
export class TransformError extends RxkubeError {
  /** The object the transform was given. */
  readonly object: unknown;

  constructor(object: unknown, cause: unknown) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    super('TransformError', `transform failed, object not queued: ${reason}`, { cause });
    this.object = object;
  }
}
