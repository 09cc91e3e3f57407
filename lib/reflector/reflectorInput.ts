import type { WatchEvent } from '../listwatch/watchEvent.js';
import type { ListResult } from './listAll.js';
import type { ReflectorOutput } from './reflectorOutput.js';
import type { ReflectorConfig, ReflectorState } from './reflectorState.js';

/**
 * What the edge observed, fed to the reflector's step: the outcome of the current phase's I/O.
 * - `listed` / `listFailed`: the list (all pages) answered, or failed.
 * - `burst`: the events of one watch chunk, in order.
 * - `watchClosed` / `watchFailed`: the watch ended cleanly, or with an error (a dead watch too).
 * - `timerFired`: the backoff timer fired.
 *
 * @example
 * ```ts
 * const input: ReflectorInput<V1Pod> = { type: 'burst', events: [{ type: 'ADDED', object: pod }] };
 * ```
 */
export type ReflectorInput<T> =
  | { readonly type: 'listed'; readonly result: ListResult<T> }
  | { readonly type: 'listFailed'; readonly error: unknown }
  | { readonly type: 'burst'; readonly events: ReadonlyArray<WatchEvent<T>> }
  | { readonly type: 'watchClosed' }
  | { readonly type: 'watchFailed'; readonly error: unknown }
  | { readonly type: 'timerFired' };

/**
 * What the step may read besides its state and input: the settings, the clock and the random
 * source (both injected: the scheduler's `now` and `options.random` at run time, constants in tests).
 *
 * @example
 * ```ts
 * const ctx: StepContext = { config: reflectorConfig({}), now: () => 0, random: () => 0 };
 * ```
 */
export interface StepContext {
  readonly config: ReflectorConfig;
  readonly now: () => number;
  readonly random: () => number;
}

/**
 * One step's result: the next state, what to tell the subscriber (in order), and whether the step
 * entered a new phase (then the edge ends the current phase's I/O and starts the new one's).
 *
 * @example
 * ```ts
 * const { state, outputs, entered } = reflectorStep(state0, { type: 'timerFired' }, ctx);
 * ```
 */
export interface StepResult<T> {
  readonly state: ReflectorState<T>;
  readonly outputs: ReadonlyArray<ReflectorOutput<T>>;
  readonly entered: boolean;
}
