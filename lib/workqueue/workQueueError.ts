import { RxkubeError } from '../errors.js';

/**
 * An item was added to a work queue that has been shut down. Whatever added it should have stopped
 * first (a controller removes its event handlers before it shuts its queue down).
 *
 * @example
 * ```ts
 * queue.shutDown();
 * try { queue.add('ns/a'); } catch (e) { if (e instanceof QueueShutDownError) console.log(e.key); }
 * ```
 */
export class QueueShutDownError extends RxkubeError {
  /** The key that was not added. */
  readonly key: unknown;

  constructor(queueName: string, key: unknown) {
    super(
      'QueueShutDownError',
      `work queue ${JSON.stringify(queueName)} is shut down: ${JSON.stringify(String(key))} was not added; stop adding before calling shutDown()`,
    );
    this.key = key;
  }
}

/**
 * `done(key)` was called for a key that no worker holds (never handed out by `get$`/`tryGet`, or
 * already done). Each key handed out must be marked done exactly once.
 *
 * @example
 * ```ts
 * try { queue.done('ns/never-got'); } catch (e) { if (e instanceof NotInFlightError) console.log(e.key); }
 * ```
 */
export class NotInFlightError extends RxkubeError {
  /** The key passed to `done`. */
  readonly key: unknown;

  constructor(queueName: string, key: unknown) {
    super(
      'NotInFlightError',
      `work queue ${JSON.stringify(queueName)}: done(${JSON.stringify(String(key))}) but no worker holds that key; call done once per key handed out by get`,
    );
    this.key = key;
  }
}

/**
 * A delay that is not a number of milliseconds (`NaN`, a string) was given to `addAfter` (or
 * `add(key, { after })`), or came from the queue's rate limiter. Nothing was added. A delay of 0
 * or less adds the key now; `Infinity` never makes it ready.
 *
 * @example
 * ```ts
 * try { queue.addAfter('ns/a', Number('soon')); } catch (e) { if (e instanceof InvalidDelayError) console.log(e.delay); }
 * ```
 */
export class InvalidDelayError extends RxkubeError {
  /** The key that was not added. */
  readonly key: unknown;
  /** The delay as given. */
  readonly delay: unknown;

  constructor(queueName: string, key: unknown, delay: unknown, source = 'addAfter') {
    super(
      'InvalidDelayError',
      `work queue ${JSON.stringify(queueName)}: ${JSON.stringify(String(key))} was not added: ${source} gave the delay ${typeof delay === 'string' ? JSON.stringify(delay) : String(delay)}, which is not a number of milliseconds`,
    );
    this.key = key;
    this.delay = delay;
  }
}

/**
 * A rate limiter was given an option it cannot work with: a delay that is negative or not a
 * number, a `qps` that is not above 0 (every key past the burst would wait for ever), a `burst`
 * below 1. Thrown when the limiter is made.
 *
 * @example
 * ```ts
 * try { bucketRateLimiter({ qps: 0 }); } catch (e) { if (e instanceof RateLimiterConfigError) console.log(e.message); }
 * ```
 */
export class RateLimiterConfigError extends RxkubeError {
  constructor(limiter: string, option: string, value: unknown, rule: string) {
    super('RateLimiterConfigError', `${limiter}: ${option} must be ${rule}, got ${typeof value === 'string' ? JSON.stringify(value) : String(value)}`);
  }
}
