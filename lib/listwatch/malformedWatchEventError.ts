import { RxkubeError } from '../errors.js';

/**
 * One line of a watch stream was not a watch event: not JSON, not an object, or without a known
 * `type` and an `object`. The decoder reports it as a `MALFORMED` watch event carrying this error
 * and goes on with the next line, so the events around it are not lost. The event the line held
 * is lost, though: a consumer that keeps a cache should relist.
 *
 * @example
 * ```ts
 * lw.watch({ resourceVersion: rv }).subscribe((e) => {
 *   if (e.type === 'MALFORMED') console.warn(e.error.message, e.error.line.slice(0, 80));
 * });
 * ```
 */
export class MalformedWatchEventError extends RxkubeError {
  /** The offending line, as received (a trailing `\r` removed). */
  readonly line: string;

  constructor(line: string, reason: string, options?: { cause?: unknown }) {
    const shown = line.length > 120 ? `${line.slice(0, 120)}...` : line;
    super(
      'MalformedWatchEventError',
      `malformed watch event (${reason}), skipped it: ${JSON.stringify(shown)}`,
      options,
    );
    this.line = line;
  }
}
