import {
  closedState,
  idleState,
  inlineState,
  type DeliveringState,
  type ListenerConfig,
  type ListenerEffect,
  type ListenerInput,
  type ListenerState,
  type ListenerTransition,
  type ReplayingState,
} from './listenerState.js';
import { NotificationBuffer } from './notificationBuffer.js';
import type { Notification } from './notification.js';
import type { BatchNotification } from './processDeltas.js';
import type { Replay } from './replay.js';

const none: ListenerEffect<never> = Object.freeze({ kind: 'none' });
// The transitions of the inline path are shared constants: a synchronous handler with nothing
// waiting costs no allocation per notification.
const toInline: ListenerTransition<never> = Object.freeze({
  state: inlineState,
  effect: Object.freeze({ kind: 'deliverInput' }),
});
const toIdle: ListenerTransition<never> = Object.freeze({ state: idleState, effect: none });
const staysClosed: ListenerTransition<never> = Object.freeze({ state: closedState, effect: none });
const toClosed: ListenerTransition<never> = Object.freeze({
  state: closedState,
  effect: Object.freeze({ kind: 'close' }),
});
const toOverflowed: ListenerTransition<never> = Object.freeze({
  state: closedState,
  effect: Object.freeze({ kind: 'overflow' }),
});

/**
 * One handler's delivery, one input at a time (client-go's `processorListener.pop`/`run`, as a
 * pure step): a notification for an idle handler is delivered at once; one for a busy handler
 * waits in its buffer (bounded: `'error'` closes, `'dropAndResync'` drops what waits and asks for a
 * catch-up replay); a replay goes before what waits; when the handler is done with one, the next
 * comes from the replay, then from the buffer. It calls no handler and schedules nothing: the
 * listener performs the effect.
 *
 * ```text
 * input:   -n1----n2--n3----S-----S-----S-----n4-S-      n: notification, S: settled
 * state:   -D-----D---D-----D-----D-----I-----D--I-      I idle, D delivering
 * effect:  -d1----.---.-----d2----d3----.-----d4-.-      n1-n3 return Promises; n4 returns nothing
 * ```
 *
 * @internal
 * @example
 * ```ts
 * const t = listenerStep(idleState, new BatchNotification(addNotification(pod, true), 'ns/a', false), config);
 * // t.state.kind === 'delivering', t.effect.kind === 'deliverInput'
 * ```
 */
export function listenerStep<T>(
  state: ListenerState<T>,
  input: ListenerInput<T>,
  config: ListenerConfig,
): ListenerTransition<T> {
  if (input.type === 'notify') return notify(state, input, config);
  if (state.kind === 'closed') return staysClosed;
  switch (input.type) {
    case 'awaiting':
      return { state: awaiting(state, config.now()), effect: none };
    case 'settled':
      return settled(state);
    case 'replay':
      return startReplay(state, input.replay, input.deferred);
    case 'replayReady':
      if (state.kind !== 'replaying' || state.ready) return { state, effect: none };
      return replayNext({ ...state, ready: true });
    case 'close':
      return toClosed;
  }
}

function notify<T>(
  state: ListenerState<T>,
  item: BatchNotification<T>,
  config: ListenerConfig,
): ListenerTransition<T> {
  if (state.kind === 'idle') return toInline;
  if (state.kind === 'closed') return staysClosed;
  const waiting = state.waiting;
  if (waiting !== undefined && waiting.length >= config.bufferSize) return overflow(state, item, config);
  if (waiting !== undefined) {
    waiting.push(item.notification, config.now(), item.key);
    return { state, effect: none };
  }
  const fresh = new NotificationBuffer<T>();
  fresh.push(item.notification, config.now(), item.key);
  return { state: { ...state, waiting: fresh }, effect: none };
}

function overflow<T>(
  state: DeliveringState<T> | ReplayingState<T>,
  item: BatchNotification<T>,
  config: ListenerConfig,
): ListenerTransition<T> {
  if (config.overflow === 'error') return toOverflowed;
  // dropAndResync: what waits, and the new one, give way to a catch-up with the store.
  const dropped: Array<Notification<T>> = [];
  const waiting = state.waiting!;
  for (let b = waiting.take(); b !== undefined; b = waiting.take()) dropped.push(b.notification);
  dropped.push(item.notification);
  // Adds of a catch-up are not part of the initial list, unless it restarts the initial replay.
  const initial = state.kind === 'replaying' && state.replay.initial;
  return { state, effect: { kind: 'catchUp', dropped, initial } };
}

/** The handler returned a result still running: from now on it counts in the lag. */
function awaiting<T>(state: ListenerState<T>, now: number): ListenerState<T> {
  if (state.kind === 'delivering' && state.since < 0) return { ...state, since: now };
  if (state.kind === 'replaying' && state.inFlight !== undefined && state.inFlight < 0)
    return { ...state, inFlight: now };
  return state;
}

/** The handler is done with one: the next from the replay, then from the buffer. */
function settled<T>(state: ListenerState<T>): ListenerTransition<T> {
  if (state.kind === 'delivering') return takeWaiting(state.waiting);
  if (state.kind === 'replaying')
    return replayNext(state.inFlight === undefined ? state : { ...state, inFlight: undefined });
  return { state, effect: none };
}

function takeWaiting<T>(waiting: NotificationBuffer<T> | undefined): ListenerTransition<T> {
  const next = waiting?.take();
  if (next === undefined) return toIdle;
  return {
    state: { kind: 'delivering', since: next.queuedAt, waiting },
    effect: { kind: 'deliver', notification: next.notification, key: next.key, counted: true },
  };
}

/** Nothing is with the handler: the replay's next, or (replay done) what waits. */
function replayNext<T>(state: ReplayingState<T>): ListenerTransition<T> {
  if (!state.ready || state.inFlight !== undefined) return { state, effect: none };
  const next = state.replay.next();
  if (next === undefined) return takeWaiting(state.waiting);
  return {
    state: { ...state, inFlight: state.replay.startedAt },
    effect: { kind: 'deliver', notification: next.n, key: next.key, counted: false },
  };
}

function startReplay<T>(state: IdleOrBusy<T>, replay: Replay<T>, deferred: boolean): ListenerTransition<T> {
  if (state.kind === 'idle') {
    return replayNext({
      kind: 'replaying',
      replay,
      ready: !deferred,
      inFlight: undefined,
      waiting: undefined,
    });
  }
  if (state.kind === 'delivering') {
    return {
      state: { kind: 'replaying', replay, ready: !deferred, inFlight: state.since, waiting: state.waiting },
      effect: none,
    };
  }
  // A replay replacing one whose deferred start has not run yet waits for it too.
  return replayNext({ ...state, replay, ready: state.ready && !deferred });
}

type IdleOrBusy<T> = Exclude<ListenerState<T>, { kind: 'closed' }>;
