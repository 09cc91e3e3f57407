import { RxkubeError } from './errors.js';

/**
 * An option rxkube cannot work with, met when the thing it configures is made (an informer, a
 * handler, a controller, a rate limiter, a leader elector, an owner reference), never later as a
 * failure that looks like the cluster's fault. `option` names the option at fault as the caller
 * wrote it (`'resyncPeriod'`, `'buffer.size'`, `'leaseDuration'`, `'owns[1]'`); `value` is what was
 * given for it, when that helps (a number out of range, a thing that is not a function).
 *
 * One class for every such error (the four per-area classes of earlier versions are gone).
 *
 * @example
 * ```ts
 * try { bucketRateLimiter({ qps: 0 }); }
 * catch (e) { if (e instanceof ConfigError) console.error(e.option, e.value, e.message); } // 'qps', 0
 * ```
 */
export class ConfigError extends RxkubeError {
  /** The option at fault, as the caller wrote it: `'qps'`, `'buffer.size'`, `'sources[2]'`, `'listWatch'`. */
  readonly option: string;
  /** What was given for the option (`undefined` when it was missing, or when the option is a relation between two). */
  readonly value: unknown;

  constructor(option: string, message: string, options?: { readonly value?: unknown; readonly cause?: unknown }) {
    super('ConfigError', message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.option = option;
    this.value = options?.value;
  }

}

