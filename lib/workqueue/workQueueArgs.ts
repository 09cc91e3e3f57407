import { InvalidDelayError, InvalidPriorityError } from './workQueueError.js';

// The work queue's argument checks. They run on every add, so they are a typeof test or two, and
// allocate nothing unless they throw.

/**
 * A delay in milliseconds (0 or less: now; `Infinity`: never), or an {@link InvalidDelayError}
 * (`NaN`, a string, `undefined`, `null`).
 *
 * @internal
 * @example
 * ```ts
 * const delay = checkDelay('pods', 'ns/a', ms, 'addAfter');
 * ```
 */
export function checkDelay(queueName: string, key: unknown, delay: unknown, source: string): number {
  if (typeof delay !== 'number' || Number.isNaN(delay)) throw new InvalidDelayError(queueName, key, delay, source);
  return delay;
}

/**
 * A priority: `undefined` or `null` is 0; anything else must be a finite number, or it is an
 * {@link InvalidPriorityError}. (Infinities would order, but a priority is an integer in
 * controller-runtime; finite only keeps the rule short.)
 *
 * @internal
 * @example
 * ```ts
 * const priority = checkPriority('pods', 'ns/a', options?.priority);
 * ```
 */
export function checkPriority(queueName: string, key: unknown, priority: unknown): number {
  if (priority === undefined || priority === null) return 0;
  if (!Number.isFinite(priority)) throw new InvalidPriorityError(queueName, key, priority);
  return priority as number;
}
