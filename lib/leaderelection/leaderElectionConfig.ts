import type { SchedulerLike } from 'rxjs';
import { ConfigError } from '../configError.js';
import type { LoggerOption } from '../logging/errorLogger.js';
import { missingMethods } from '../meta/missingMethods.js';
import type { ResourceLock } from './resourceLock.js';

// A leader election ConfigError; its message starts with the prefix leader election errors have always had.
const invalid = (option: string, message: string, value?: unknown): ConfigError =>
  new ConfigError(option, `invalid leader election config: ${message}`, { value });

/**
 * client-go's `JitterFactor`: a candidate waits `retryPeriod x [1, 2.2)` between attempts.
 *
 * @example
 * ```ts
 * const longestCandidateWait = retryPeriod * (1 + JITTER_FACTOR);
 * ```
 */
export const JITTER_FACTOR = 1.2;

/**
 * client-go's `LeaderCallbacks`, as an alternative to the elector's Observables.
 *
 * @example
 * ```ts
 * const callbacks: LeaderCallbacks = {
 *   onStartedLeading: (signal) => startWorkers(signal),
 *   onStoppedLeading: () => stopWorkers(),
 *   onNewLeader: (identity) => console.log('leader is now', identity || '(none)'),
 * };
 * ```
 */
export interface LeaderCallbacks {
  /** Leadership acquired; `signal` aborts when it is lost or the elector stops (client-go's ctx). */
  readonly onStartedLeading?: (signal: AbortSignal) => void;
  /** Leadership lost or given up (called once per term). */
  readonly onStoppedLeading?: () => void;
  /** The observed holder changed (`''`: nobody holds it), including the first one seen. */
  readonly onNewLeader?: (identity: string) => void;
}

/**
 * client-go's `LeaderElectionConfig`, durations in milliseconds.
 *
 * @example
 * ```ts
 * const config: LeaderElectionConfig = {
 *   lock: leaseLock(kubeConfig, 'kube-system', 'my-controller'),
 *   identity: process.env.POD_NAME ?? 'local',
 *   leaseDuration: 15_000, renewDeadline: 10_000, retryPeriod: 2_000,
 *   releaseOnCancel: true,
 * };
 * ```
 */
export interface LeaderElectionConfig extends LeaderCallbacks {
  readonly lock: ResourceLock;
  /** This elector's identity, written as the Lease's holderIdentity (a pod name, unique per replica). */
  readonly identity: string;
  /** How long others wait, from their own observation of the last change, before taking over. Default 15 s. */
  readonly leaseDuration?: number;
  /** The leader gives up when no renewal succeeded for this long. Default 10 s. */
  readonly renewDeadline?: number;
  /** Between attempts (jittered x [1, 2.2) while not leading). Default 2 s. */
  readonly retryPeriod?: number;
  /** On stop while leading, write an empty holder (leaseDurationSeconds 1) so another takes over at once. */
  readonly releaseOnCancel?: boolean;
  /** Every timer and the clock (observation times, deadlines). Default `asyncScheduler`. */
  readonly scheduler?: SchedulerLike;
  /** The jitter's random source, in [0, 1). Default `Math.random`. */
  readonly random?: () => number;
  /**
   * Where `errors$` is logged (its one subscriber, as for informers and controllers): unset logs to
   * `console.error`, rate-limited, unless `RXKUBE_LOG=off`; `false` logs nothing.
   */
  readonly logger?: LoggerOption;
}

/**
 * The timings an elector runs with, validated.
 *
 * @example
 * ```ts
 * const t: ElectorTimings = validateLeaderElectionConfig({ lock, identity: 'a' }); // 15 s / 10 s / 2 s
 * ```
 */
export interface ElectorTimings {
  readonly identity: string;
  readonly leaseDuration: number;
  readonly renewDeadline: number;
  readonly retryPeriod: number;
  readonly releaseOnCancel: boolean;
}

/**
 * Applies the defaults and client-go's validation (`NewLeaderElector`): leaseDuration >
 * renewDeadline > 1.2 x retryPeriod, all > 0, a non-empty identity, a lock; and, beyond client-go,
 * the leaseDuration written (whole seconds) must still exceed renewDeadline, and the lock must be a
 * {@link ResourceLock} (so plain JavaScript that passes something else fails here, not at the
 * first attempt).
 *
 * @throws {ConfigError} naming the option at fault.
 *
 * @example
 * ```ts
 * validateLeaderElectionConfig({ lock, identity: 'a', leaseDuration: 10_000, renewDeadline: 10_000 }); // throws
 * ```
 */
export function validateLeaderElectionConfig(config: LeaderElectionConfig): ElectorTimings {
  if (typeof config !== 'object' || config === null) {
    throw invalid('config', `the config must be an object with a lock and an identity (got ${String(config)})`, config);
  }
  checkLock(config.lock);
  const leaseDuration = config.leaseDuration ?? 15_000;
  const renewDeadline = config.renewDeadline ?? 10_000;
  const retryPeriod = config.retryPeriod ?? 2_000;
  const positive = (field: string, v: number): void => {
    if (!(Number.isFinite(v) && v > 0)) throw invalid(field, `${field} must be greater than zero (got ${v} ms)`, v);
  };
  positive('leaseDuration', leaseDuration);
  positive('renewDeadline', renewDeadline);
  positive('retryPeriod', retryPeriod);
  if (leaseDuration <= renewDeadline) {
    throw invalid(
      'leaseDuration',
      `leaseDuration (${leaseDuration} ms) must be greater than renewDeadline (${renewDeadline} ms): a leader must give up before others may take over`,
      leaseDuration,
    );
  }
  if (renewDeadline <= JITTER_FACTOR * retryPeriod) {
    throw invalid(
      'renewDeadline',
      `renewDeadline (${renewDeadline} ms) must be greater than retryPeriod x ${JITTER_FACTOR} (${JITTER_FACTOR * retryPeriod} ms): a leader needs room to retry a renewal`,
      renewDeadline,
    );
  }
  // Others judge expiry by the leaseDurationSeconds written (whole seconds, truncated as client-go
  // does), so that value must still outlast the renew deadline; client-go does not check this.
  const written = leaseDurationSeconds(leaseDuration) * 1000;
  if (written <= renewDeadline) {
    throw invalid(
      'leaseDuration',
      `leaseDuration (${leaseDuration} ms) is written to the Lease as ${written / 1000} s (whole seconds, truncated), which must be greater than renewDeadline (${renewDeadline} ms)`,
      leaseDuration,
    );
  }
  if (typeof config.identity !== 'string' || config.identity === '') {
    throw invalid('identity', 'identity must be a non-empty string, unique per replica (e.g. the pod name)', config.identity);
  }
  return { identity: config.identity, leaseDuration, renewDeadline, retryPeriod, releaseOnCancel: config.releaseOnCancel ?? false };
}

/** client-go's "Lock must not be nil", and the methods the elector calls. */
function checkLock(lock: unknown): void {
  const methods = ['get', 'create', 'update', 'describe'];
  const missing = typeof lock === 'object' ? missingMethods(lock, methods) : methods;
  if (missing.length === 0) return;
  throw invalid(
    'lock',
    lock === undefined || lock === null
      ? 'lock is required (e.g. leaseLock(kubeConfig, namespace, name))'
      : `lock must be a ResourceLock such as leaseLock(kubeConfig, namespace, name); it has no ${missing.join(', ')} method`,
    lock,
  );
}

/**
 * The `leaseDurationSeconds` written for a lease duration in ms: whole seconds, truncated (client-go's
 * `int(LeaseDuration / time.Second)`).
 *
 * @example
 * ```ts
 * leaseDurationSeconds(1500); // 1
 * ```
 */
export function leaseDurationSeconds(leaseDuration: number): number {
  return Math.floor(leaseDuration / 1000);
}
