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
 * Where an exponential backoff is in its sequence, as a plain value: the next delay before jitter,
 * whether it reached the cap, and when the previous step was asked for (on the scheduler's clock).
 *
 * @example
 * ```ts
 * let state: BackoffState = initialBackoffState(defaultBackoffOptions);
 * ```
 */
export interface BackoffState {
  /** The next step's delay before jitter. */
  readonly durationMs: number;
  /** The delay reached `capMs`: it no longer grows. */
  readonly capped: boolean;
  /** When the previous step was asked for; undefined before the first. */
  readonly lastStepAt: number | undefined;
}

/**
 * The settings with every default filled in.
 *
 * @example
 * ```ts
 * backoffSettings({ initialMs: 10 }).capMs; // 30000
 * ```
 */
export function backoffSettings(options: BackoffOptions = {}): Required<BackoffOptions> {
  return { ...defaultBackoffOptions, ...stripUndefined(options) };
}

/**
 * The state before the first failure.
 *
 * @example
 * ```ts
 * initialBackoffState(backoffSettings({})); // { durationMs: 800, capped: false, lastStepAt: undefined }
 * ```
 */
export function initialBackoffState(settings: Required<BackoffOptions>): BackoffState {
  return { durationMs: settings.initialMs, capped: false, lastStepAt: undefined };
}

/**
 * One failure: the delay to wait (with jitter) and the state after it. Pure: time and randomness
 * come in (`now` on the scheduler's clock, `random()` in `[0, 1)`), so the reflector's step can use
 * it and a test can check it without a scheduler. A step asked for more than `resetAfterMs` after
 * the previous one starts over at `initialMs` (client-go measures from the previous step).
 *
 * @example
 * ```ts
 * const settings = backoffSettings({});
 * const first = nextBackoff(settings, initialBackoffState(settings), 0, () => 0); // delayMs 800
 * const second = nextBackoff(settings, first.state, 10, () => 0); // delayMs 1600
 * ```
 */
export function nextBackoff(
  settings: Required<BackoffOptions>,
  state: BackoffState,
  now: number,
  random: () => number,
): { readonly delayMs: number; readonly state: BackoffState } {
  const reset = state.lastStepAt !== undefined && now - state.lastStepAt > settings.resetAfterMs;
  const base = reset ? settings.initialMs : state.durationMs;
  let capped = reset ? false : state.capped;
  let durationMs = base;
  if (!capped) {
    durationMs = base * settings.factor;
    if (durationMs > settings.capMs) {
      durationMs = settings.capMs;
      capped = true;
    }
  }
  const delayMs = settings.jitter > 0 ? base + random() * settings.jitter * base : base;
  return { delayMs, state: { durationMs, capped, lastStepAt: now } };
}

/**
 * Exponential backoff with jitter and a reset after a quiet period, on an injected scheduler's
 * clock (so virtual time in `TestScheduler.run` drives the reset) and an injected random source.
 * A stateful wrapper over {@link nextBackoff}.
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
  const settings = backoffSettings(options);
  let state = initialBackoffState(settings);
  return {
    next(): number {
      const step = nextBackoff(settings, state, scheduler.now(), random);
      state = step.state;
      return step.delayMs;
    },
  };
}

function stripUndefined(options: BackoffOptions): BackoffOptions {
  return Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined)) as BackoffOptions;
}
