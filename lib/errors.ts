import { describeValue } from './meta/describeValue.js';

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
    const reason = causeMessage(cause);
    super('TransformError', `transform failed, object not queued: ${reason}`, { cause });
    this.object = object;
  }
}

/**
 * An event handler threw, or the Promise / Observable it returned failed. The informer reports it
 * (on `errors$` and to the handler's `onError`) and goes on with the next notification: the failed
 * one is not retried, and neither the informer nor other handlers are affected.
 *
 * @example
 * ```ts
 * informer.errors$.subscribe((e) => { if (e instanceof HandlerError) console.warn(e.notification.type, e.cause); });
 * ```
 */
export class HandlerError extends RxkubeError {
  /** The notification the handler failed on (`{ type: 'add' | 'update' | 'delete', ... }`). */
  readonly notification: { readonly type: string };
  /** The handler's name (its `name` option), or `''`. */
  readonly handlerName: string;

  constructor(notification: { readonly type: string }, handlerName: string, cause: unknown) {
    const who = handlerName ? `handler ${JSON.stringify(handlerName)}` : 'a handler';
    super(
      'HandlerError',
      `${who} failed on a ${notification.type} notification; skipped it and went on: ${causeMessage(cause)}`,
      { cause },
    );
    this.notification = notification;
    this.handlerName = handlerName;
  }
}

/**
 * A handler's bounded buffer was full and its overflow policy is `'error'`: the handler has been
 * removed from the informer (an Observer handler gets this on its `error` callback).
 *
 * @example
 * ```ts
 * informer.addEventHandler(h, { buffer: { size: 1000, overflow: 'error' }, onError: (e) => {
 *   if (e instanceof HandlerBufferOverflowError) alert('controller fell behind');
 * } });
 * ```
 */
export class HandlerBufferOverflowError extends RxkubeError {
  /** The buffer size that was exceeded. */
  readonly size: number;
  /** The handler's name (its `name` option), or `''`. */
  readonly handlerName: string;

  constructor(size: number, handlerName: string) {
    const who = handlerName ? `handler ${JSON.stringify(handlerName)}` : 'a handler';
    super(
      'HandlerBufferOverflowError',
      `${who} fell more than ${size} notifications behind (overflow: 'error'); removed it from the informer`,
    );
    this.size = size;
    this.handlerName = handlerName;
  }
}

/**
 * An operation that needs a running or not-yet-started informer was called at the wrong time:
 * adding a handler to a stopped informer, setting a transform after start.
 *
 * @example
 * ```ts
 * try { informer.addEventHandler(h); } catch (e) { if (e instanceof InformerStateError) console.log(e.message); }
 * ```
 */
export class InformerStateError extends RxkubeError {
  constructor(message: string) {
    super('InformerStateError', message);
  }
}

/**
 * The message of whatever was thrown, for an error that wraps it: an Error's message, else its
 * string form. Never throws, even for a thrown value that has no string form
 * (`Object.create(null)`).
 *
 * @example
 * ```ts
 * causeMessage(new Error('boom')); // 'boom'
 * causeMessage('boom');            // 'boom'
 * causeMessage(Object.create(null)); // '[object Object]'
 * ```
 */
export function causeMessage(cause: unknown): string {
  return cause instanceof Error ? cause.message : describeValue(cause);
}
