import type { NotificationBuffer } from './notificationBuffer.js';
import type { Notification } from './notification.js';
import type { BatchNotification } from './processDeltas.js';
import type { Replay } from './replay.js';

/**
 * Nothing is with the handler and nothing waits: the next notification is handed to it at once
 * (inline, with no buffering, timer or Promise).
 *
 * @example
 * ```ts
 * if (state.kind === 'idle') console.log('caught up');
 * ```
 */
export interface IdleState {
  readonly kind: 'idle';
}

/**
 * A notification is with the handler, and what arrives meanwhile waits in `waiting` (none yet:
 * undefined). `since`: when the one with the handler was queued, or when its asynchronous result
 * began; -1 while a synchronous call runs (it is not known yet to wait).
 *
 * @example
 * ```ts
 * if (state.kind === 'delivering') console.log(state.waiting?.length ?? 0, 'waiting');
 * ```
 */
export interface DeliveringState<T> {
  readonly kind: 'delivering';
  readonly since: number;
  readonly waiting: NotificationBuffer<T> | undefined;
}

/**
 * The handler is being brought up to date with a store snapshot (`replay`: the initial adds of a
 * handler added to a running informer, or a `dropAndResync` catch-up); it goes before what waits.
 * `ready`: false until the deferred start has run (no callback runs inside `addEventHandler`).
 * `inFlight`: as {@link DeliveringState.since} for the notification with the handler, undefined
 * when none is.
 *
 * @example
 * ```ts
 * if (state.kind === 'replaying') console.log(state.replay.remaining(), 'to replay');
 * ```
 */
export interface ReplayingState<T> {
  readonly kind: 'replaying';
  readonly replay: Replay<T>;
  readonly ready: boolean;
  readonly inFlight: number | undefined;
  readonly waiting: NotificationBuffer<T> | undefined;
}

/**
 * Removed, overflowed with `'error'`, or the informer stopped: final; nothing is delivered.
 *
 * @example
 * ```ts
 * if (state.kind === 'closed') return;
 * ```
 */
export interface ClosedState {
  readonly kind: 'closed';
}

/**
 * Where one handler's delivery is (client-go's `processorListener`, as data): the step
 * ({@link listenerStep}) moves it on; the listener only performs what the step says.
 *
 * A state owns its `waiting` buffer: the step moves it into the next state (and may add to or take
 * from it), so a state given to the step is not used again.
 *
 * @example
 * ```ts
 * const s: ListenerState<V1Pod> = idleState;
 * ```
 */
export type ListenerState<T> = IdleState | DeliveringState<T> | ReplayingState<T> | ClosedState;

/** @internal The idle state (one for all listeners). */
export const idleState: IdleState = Object.freeze({ kind: 'idle' });
/** @internal The closed state (one for all listeners). */
export const closedState: ClosedState = Object.freeze({ kind: 'closed' });
/** @internal A synchronous call with nothing waiting (the inline path: one for all listeners). */
export const inlineState: DeliveringState<never> = Object.freeze({
  kind: 'delivering',
  since: -1,
  waiting: undefined,
});

/**
 * What the step is told:
 * - a {@link BatchNotification} (`type: 'notify'`): a notification for this handler (from a batch
 *   or its own resync);
 * - `awaiting`: the notification with the handler returned a Promise or Observable still running;
 * - `settled`: the notification with the handler is done (returned, threw, or its result settled);
 * - `replay`: bring the handler up to date with this replay first (`deferred`: once `replayReady`);
 * - `replayReady`: the deferred start of a replay has run;
 * - `close`: stop for good.
 *
 * @example
 * ```ts
 * listenerStep(state, settledInput, config);
 * ```
 */
export type ListenerInput<T> =
  | BatchNotification<T>
  | { readonly type: 'awaiting' }
  | { readonly type: 'settled' }
  | { readonly type: 'replay'; readonly replay: Replay<T>; readonly deferred: boolean }
  | { readonly type: 'replayReady' }
  | { readonly type: 'close' };

/** @internal */
export const awaitingInput: ListenerInput<never> = Object.freeze({ type: 'awaiting' });
/** @internal */
export const settledInput: ListenerInput<never> = Object.freeze({ type: 'settled' });
/** @internal */
export const replayReadyInput: ListenerInput<never> = Object.freeze({ type: 'replayReady' });
/** @internal */
export const closeInput: ListenerInput<never> = Object.freeze({ type: 'close' });

/**
 * What the listener must do after a step:
 * - `none`: nothing;
 * - `deliverInput`: hand the input notification to the handler now (the inline path);
 * - `deliver`: hand this notification (taken from the buffer or the replay) to the handler now;
 *   `counted`: it was given as a notification (its sync tracker counted it), not replayed;
 * - `overflow`: the bounded buffer is full and its policy is `'error'`: report it; the state is
 *   closed;
 * - `catchUp`: the buffer was full and its policy is `'dropAndResync'`: what waited and the input
 *   were dropped (`dropped`, for the sync tracker); start a catch-up replay (`initial`: it restarts
 *   the initial one);
 * - `close`: the state has just closed: tear down.
 *
 * @example
 * ```ts
 * if (t.effect.kind === 'deliver') callHandler(handler, t.effect.notification);
 * ```
 */
export type ListenerEffect<T> =
  | { readonly kind: 'none' }
  | { readonly kind: 'deliverInput' }
  | {
      readonly kind: 'deliver';
      readonly notification: Notification<T>;
      readonly key: string;
      readonly counted: boolean;
    }
  | { readonly kind: 'overflow' }
  | {
      readonly kind: 'catchUp';
      readonly dropped: ReadonlyArray<Notification<T>>;
      readonly initial: boolean;
    }
  | { readonly kind: 'close' };

/**
 * One step's result: the next state and what to do.
 *
 * @example
 * ```ts
 * const { state, effect } = listenerStep(idleState, item, config);
 * ```
 */
export interface ListenerTransition<T> {
  readonly state: ListenerState<T>;
  readonly effect: ListenerEffect<T>;
}

/**
 * What the step reads besides the state: the bound of the buffer (`bufferSize`, Infinity when
 * unbounded; its policy in `overflow`) and the clock (read only when a notification is queued).
 *
 * @example
 * ```ts
 * const config: ListenerConfig = { bufferSize: 100, overflow: 'error', now: () => scheduler.now() };
 * ```
 */
export interface ListenerConfig {
  readonly bufferSize: number;
  readonly overflow: 'error' | 'dropAndResync';
  now(): number;
}
