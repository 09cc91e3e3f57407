import type { Logger, LoggerOption } from '../logging/errorLogger.js';

/**
 * A function that logs its first message and ignores the rest: for a condition worth saying once
 * per ListWatch (the server sent full objects to a metadata-only request, it ignored a shard
 * selector). `logger` as the informers' option: unset, `console.error` unless `RXKUBE_LOG=off`;
 * `false`, nowhere. A throwing logger is ignored.
 *
 * @example
 * ```ts
 * const warn = logOnce(undefined);
 * warn('rxkube: said once'); warn('rxkube: not said');
 * ```
 */
export function logOnce(logger: LoggerOption): (message: string) => void {
  let told = false;
  return (message) => {
    if (told) return;
    told = true;
    const out: Logger | undefined = logger === false ? undefined : (logger ?? consoleUnlessOff());
    try {
      out?.error(message);
    } catch {
      // a throwing logger must not stop a list
    }
  };
}

const consoleUnlessOff = (): Logger | undefined =>
  (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.['RXKUBE_LOG'] === 'off'
    ? undefined
    : { error: (message) => globalThis.console?.error(message) };
