import { asyncScheduler, type SchedulerLike } from 'rxjs';

/**
 * Settings of the reflector's exponential backoff (client-go's
 * `wait.NewExponentialBackoffManager(800ms, 30s, 2min, 2.0, 1.0)`). Every field is optional; the
 * defaults are client-go's.
 *
 * @example
 * ```ts
 * const fast: BackoffOptions = { initialMs: 10, capMs: 100 }; // for tests against a local server
 * ```
 */
export interface BackoffOptions {
  /** The first delay, before jitter. Default 800 ms. */
  readonly initialMs?: number;
  /** Each step multiplies the delay by this. Default 2. */
  readonly factor?: number;
  /** A step's delay is `d + random() * jitter * d`. Default 1.0, so a step lies in `[d, 2d)`. */
  readonly jitter?: number;
  /** Once the delay would pass this, it stays here (before jitter). Default 30 s. */
  readonly capMs?: number;
  /** A step asked for longer than this after the previous one starts over at `initialMs`. Default 2 min. */
  readonly resetAfterMs?: number;
}

/**
 * A stateful backoff: each `next()` is one failure and returns how long to wait before the next try.
 *
 * @example
 * ```ts
 * const backoff = exponentialBackoff({}, asyncScheduler);
 * timer(backoff.next(), asyncScheduler).subscribe(() => retry());
 * ```
 */
export interface Backoff {
  /** The delay in ms before the next attempt; advances the sequence. */
  next(): number;
}

/**
 * The defaults of {@link BackoffOptions}, as in client-go's reflector.
 *
 * @example
 * ```ts
 * const twiceAsPatient = { ...defaultBackoffOptions, capMs: 2 * defaultBackoffOptions.capMs };
 * ```
 */
export const defaultBackoffOptions: Required<BackoffOptions> = Object.freeze({
  initialMs: 800,
  factor: 2,
  jitter: 1.0,
  capMs: 30_000,
  resetAfterMs: 120_000,
});

/**
 * Exponential backoff with jitter and a reset after a quiet period, on an injected scheduler's
 * clock (so virtual time in `TestScheduler.run` drives the reset) and an injected random source.
 *
 * With the defaults and `random = () => 0` the delays are 800, 1600, 3200, 6400, 12800, 25600,
 * 30000, 30000, ... ms; with jitter each lies in `[d, 2d)`. A `next()` more than `resetAfterMs`
 * after the previous one starts again at 800 ms (client-go measures from the previous step, not
 * from the last success).
 *
 * @example
 * ```ts
 * const backoff = exponentialBackoff({ initialMs: 800 }, asyncScheduler, Math.random);
 * const delay = backoff.next(); // in [800, 1600)
 * ```
 */
export function exponentialBackoff(
  options: BackoffOptions = {},
  scheduler: SchedulerLike = asyncScheduler,
  random: () => number = Math.random,
): Backoff {
  const o = { ...defaultBackoffOptions, ...stripUndefined(options) };
  let duration = o.initialMs;
  let capped = false;
  let lastStart: number | undefined;
  return {
    next(): number {
      const now = scheduler.now();
      if (lastStart !== undefined && now - lastStart > o.resetAfterMs) {
        duration = o.initialMs;
        capped = false;
      }
      lastStart = now;
      const base = duration;
      if (!capped) {
        duration = duration * o.factor;
        if (duration > o.capMs) {
          duration = o.capMs;
          capped = true;
        }
      }
      return o.jitter > 0 ? base + random() * o.jitter * base : base;
    },
  };
}

function stripUndefined(options: BackoffOptions): BackoffOptions {
  return Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined)) as BackoffOptions;
}
