import { RxkubeError } from '../errors.js';
import { describeValue } from '../meta/describeValue.js';

// A queue's name or a key, quoted; a string is shown as a JSON string, anything else by its string form.
const quoted = (value: unknown): string => JSON.stringify(describeValue(value));
const shown = (value: unknown): string => (typeof value === 'string' ? JSON.stringify(value) : describeValue(value));

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
      `work queue ${quoted(queueName)} is shut down: ${quoted(key)} was not added; stop adding before calling shutDown()`,
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
      `work queue ${quoted(queueName)}: done(${quoted(key)}) but no worker holds that key; call done once per key handed out by get`,
    );
    this.key = key;
  }
}

/**
 * A delay that is not a number of milliseconds (`NaN`, a string, none: `addAfter(key)`) was given to
 * `addAfter` (or `add(key, { after })`), or came from the queue's rate limiter. Nothing was added.
 * A delay of 0 or less adds the key now; `Infinity` never makes it ready. When the rate limiter
 * gave it, the limiter has counted the failure all the same (`numRequeues` went up: it cannot be
 * taken back without forgetting the key's earlier failures too).
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
      `work queue ${quoted(queueName)}: ${quoted(key)} was not added: ${source} gave the delay ${shown(delay)}, which is not a number of milliseconds`,
    );
    this.key = key;
    this.delay = delay;
  }
}

/**
 * A priority that is not a finite number (`NaN`, a string, `Infinity`) was given to `add`,
 * `addAfter` or `addRateLimited`. Nothing was added, and the rate limiter was not asked. (`NaN`
 * would compare unequal to itself and strand the key; `'5'` would sort as a string.)
 *
 * @example
 * ```ts
 * try { queue.add('ns/a', { priority: Number('high') }); } catch (e) { if (e instanceof InvalidPriorityError) console.log(e.priority); }
 * ```
 */
export class InvalidPriorityError extends RxkubeError {
  /** The key that was not added. */
  readonly key: unknown;
  /** The priority as given. */
  readonly priority: unknown;

  constructor(queueName: string, key: unknown, priority: unknown) {
    super(
      'InvalidPriorityError',
      `work queue ${quoted(queueName)}: ${quoted(key)} was not added: the priority ${shown(priority)} is not a finite number`,
    );
    this.key = key;
    this.priority = priority;
  }
}

