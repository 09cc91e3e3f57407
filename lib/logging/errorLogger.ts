import { asyncScheduler, type SchedulerLike } from 'rxjs';
import type { RxkubeError } from '../errors.js';
import { explainError } from './explainError.js';

/**
 * Where an informer or a controller logs the errors it recovers from: anything with an
 * `error(message, error, context)` method, such as `console`, or an adapter to pino or winston.
 * `context` has the fields a structured logger should print: for a failed reconcile, its
 * `reconcileID`, key, and the `trace_id` and `span_id` of its span when the controller traces.
 *
 * @example
 * ```ts
 * import pino from 'pino';
 * const log = pino();
 * const logger: Logger = { error: (message, err, context) => log.error({ err, ...context }, message) };
 * informer(lw, { logger });
 * ```
 */
export interface Logger {
  error(message: string, error?: unknown, context?: LogContext): void;
}

/**
 * The fields of a log line besides its message (see {@link Logger}): a failed reconcile's
 * `reconcileID` (controller-runtime's key) and `key`, and OpenTelemetry's `trace_id`, `span_id`
 * and `trace_flags` of its span.
 *
 * @example
 * ```ts
 * const context: LogContext = { reconcileID: '0b0f9a6e-3c1d-4f5a-9b7e-2d4c8e1f6a3b', key: 'ns/a' };
 * ```
 */
export interface LogContext {
  readonly key?: string;
  readonly reconcileID?: string;
  readonly trace_id?: string;
  readonly span_id?: string;
  readonly trace_flags?: string;
}

const NO_CONTEXT: LogContext = Object.freeze({});

/**
 * The `logger` option of informers and the factory: unset logs to `console.error`, rate-limited
 * (client-go logs through `HandleError`), unless the environment has `RXKUBE_LOG=off`; `false` logs
 * nothing; a {@link Logger} gets the same rate-limited lines (and the error).
 *
 * @example
 * ```ts
 * sharedInformerFactory(kc, { logger: false });       // errors$ only
 * sharedInformerFactory(kc, { logger: myLogger });
 * ```
 */
export type LoggerOption = Logger | false | undefined;

/**
 * Options of {@link errorLogger}.
 *
 * @example
 * ```ts
 * const options: ErrorLoggerOptions = { resource: 'pods', intervalMs: 60_000 };
 * ```
 */
export interface ErrorLoggerOptions {
  /** The resource named in every line (`pods`, `widgets.example.com`); from the error when unset. */
  readonly resource?: string;
  /** The same line is logged at most once in this period (ms); repeats are counted. Default 30 000. */
  readonly intervalMs?: number;
  /** The clock of the rate limit; default `asyncScheduler`. No timer is armed. */
  readonly scheduler?: SchedulerLike;
}

// One line per error, as klog prints them; a Logger of your own gets the error object too.
const consoleLogger: Logger = { error: (message) => globalThis.console?.error(message) };

// `RXKUBE_LOG=off` in the environment turns the default logger off (test runs that inject errors on
// purpose); read through globalThis so that the core stays free of Node built-ins.
const defaultLoggerOff = (): boolean =>
  (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.['RXKUBE_LOG'] === 'off';

// Lines remembered for the rate limit; bounded, as messages can carry varying details.
const MAX_LINES = 64;

/**
 * Builds the function an informer calls with each error it recovers from: it explains the error
 * (what happened to which resource, and what to do, see {@link explainError}) and logs it, at most
 * once per `intervalMs` for the same line; the next line logged after that says how many were
 * held back. Returns a no-op for `logger: false`.
 *
 * @example
 * ```ts
 * const log = errorLogger(undefined, { resource: 'widgets.example.com' });
 * r.errors$.subscribe(log); // "widgets.example.com: the server does not serve this resource (404); ..."
 * ```
 */
export function errorLogger(option: LoggerOption, options: ErrorLoggerOptions = {}): (error: RxkubeError) => void {
  if (option === false || (option === undefined && defaultLoggerOff())) return () => undefined;
  const logger = option ?? consoleLogger;
  const interval = options.intervalMs ?? 30_000;
  const scheduler = options.scheduler ?? asyncScheduler;
  const seen = new Map<string, { at: number; held: number }>();
  return (error) => {
    const line = explainError(error, options.resource);
    const now = scheduler.now();
    const last = seen.get(line);
    if (last && now - last.at < interval) {
      last.held++;
      return;
    }
    const held = last?.held ?? 0;
    if (seen.size >= MAX_LINES && !last) seen.clear();
    seen.set(line, { at: now, held: 0 });
    const suffix = held > 0 ? ` (and ${held} more like it in the last ${Math.round(interval / 1000)} s)` : '';
    try {
      // An error that knows its context (a ReconcileError: its reconcile's IDs) carries it.
      logger.error(`rxkube: ${line}${suffix}`, error, (error as { logContext?: LogContext }).logContext ?? NO_CONTEXT);
    } catch {
      // A throwing logger must not stop the informer; the error is on errors$ already.
    }
  };
}
