import { RxkubeError } from './errors.js';

/**
 * An option rxkube cannot work with, met when the thing it configures is made (an informer, a
 * handler, a controller, a rate limiter, a leader elector, an owner reference), never later as a
 * failure that looks like the cluster's fault. `option` names the option at fault as the caller
 * wrote it (`'resyncPeriod'`, `'buffer.size'`, `'leaseDuration'`, `'owns[1]'`); `value` is what was
 * given for it, when that helps (a number out of range, a thing that is not a function).
 *
 * One class for every such error: the former `InformerConfigError`, `ControllerConfigError`,
 * `LeaderElectionConfigError` and `RateLimiterConfigError` are deprecated aliases of it.
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

  /**
   * The option at fault, as `LeaderElectionConfigError` called it.
   *
   * @deprecated Use {@link ConfigError.option}.
   * @example
   * ```ts
   * const e = new ConfigError('identity', 'identity must be a non-empty string');
   * e.field === e.option; // true
   * ```
   */
  get field(): string {
    return this.option;
  }
}

/**
 * @deprecated Use {@link ConfigError}: every configuration error is one class, with the option's name
 * in `option`. `instanceof InformerConfigError` still works (it is the same class).
 */
export const InformerConfigError = ConfigError;
/** @deprecated Use {@link ConfigError}. */
export type InformerConfigError = ConfigError;
