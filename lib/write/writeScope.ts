import type { WriteTracker } from './writeTracker.js';

/**
 * Where the write tracker of the code running now is kept: an async context (Node's
 * `AsyncLocalStorage`), so that a write sent anywhere inside a reconcile, after any number of
 * awaits, is recorded for that reconcile's key without being handed `ctx` (read-your-own-writes).
 * rxkube's Node entry installs one ({@link asyncLocalWriteScope}); a browser has none (there, pass
 * `ctx` as a `tracker` or call `ctx.wrote`), and another runtime may install its own with
 * {@link setWriteScope}.
 *
 * @example
 * ```ts
 * const scope: WriteScope = { run: (tracker, fn, arg) => fn(arg), current: () => undefined }; // no context: nothing tracked
 * ```
 */
export interface WriteScope {
  /** Calls `fn(arg)` with `tracker` current for it and everything it starts (timers, promises, I/O). */
  run<A, R>(tracker: WriteTracker, fn: (arg: A) => R, arg: A): R;
  /** The tracker of the code running now, or undefined outside any reconcile. */
  current(): WriteTracker | undefined;
}

let installed: WriteScope | undefined;

/**
 * Installs the process's {@link WriteScope} (`undefined`: none). rxkube's Node entry installs
 * `asyncLocalWriteScope()` when it is loaded; call it for another runtime's async context (a
 * zone, `AsyncContext` once runtimes have it).
 *
 * @example
 * ```ts
 * setWriteScope(undefined); // writes are tracked only through ctx from now on
 * ```
 */
export function setWriteScope(scope: WriteScope | undefined): void {
  installed = scope;
}

/**
 * The write tracker of the reconcile running now (through the installed {@link WriteScope}), or
 * undefined: what rxkube's transport and write helpers record a write's answer on when they are
 * given no `tracker`.
 *
 * @example
 * ```ts
 * recordWrite(options.tracker ?? currentWriteTracker(), answer);
 * ```
 */
export function currentWriteTracker(): WriteTracker | undefined {
  return installed?.current();
}

/**
 * Calls `fn(arg)` with `tracker` as the current write tracker, if a {@link WriteScope} is
 * installed; else just calls it.
 *
 * @example
 * ```ts
 * runWithWriteTracker(ctx, (c) => reconcile(key, c), ctx);
 * ```
 */
export function runWithWriteTracker<A, R>(tracker: WriteTracker, fn: (arg: A) => R, arg: A): R {
  return installed === undefined ? fn(arg) : installed.run(tracker, fn, arg);
}
