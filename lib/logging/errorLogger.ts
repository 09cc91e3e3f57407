import { asyncScheduler, type SchedulerLike } from 'rxjs';
import type { RxkubeError } from '../errors.js';
import { explainError } from './explainError.js';

/**
 * Where an informer logs the errors it recovers from: anything with an `error(message, error)`
 * method, such as `console`, pino or winston loggers.
 *
 * @example
 * ```ts
 * const logger: Logger = { error: (message) => myLog.warn(message) };
 * informer(lw, { logger });
 * ```
 */
export interface Logger {
  error(message: string, error?: unknown): void;
}

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
      logger.error(`rxkube: ${line}${suffix}`, error);
    } catch {
      // A throwing logger must not stop the informer; the error is on errors$ already.
    }
  };
}
