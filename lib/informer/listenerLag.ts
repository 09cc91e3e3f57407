import type { HandlerLag } from './handlerRegistration.js';
import type { ListenerState } from './listenerState.js';

/** @internal Nothing queued. */
export const emptyLag: HandlerLag = Object.freeze({ queued: 0, oldestAgeMs: 0 });

/**
 * How far behind a handler in `state` is at `now` ({@link HandlerLag}): what waits, what is left to
 * replay and the one with the handler; the oldest of them is the one with the handler (once known
 * to wait), else the replay's start, else the oldest waiting.
 *
 * @internal
 * @example
 * ```ts
 * listenerLag(idleState, scheduler.now()); // { queued: 0, oldestAgeMs: 0 }
 * ```
 */
export function listenerLag<T>(state: ListenerState<T>, now: number): HandlerLag {
  if (state.kind === 'idle' || state.kind === 'closed') return emptyLag;
  const waiting = state.waiting?.length ?? 0;
  const inFlight = state.kind === 'delivering' ? state.since : state.inFlight;
  const replaying = state.kind === 'replaying' ? state.replay.remaining() : 0;
  const queued = waiting + replaying + (inFlight !== undefined ? 1 : 0);
  if (queued === 0) return emptyLag;
  let oldest = Infinity;
  if (inFlight !== undefined && inFlight >= 0) oldest = inFlight;
  else if (state.kind === 'replaying') oldest = state.replay.startedAt;
  else if (waiting > 0) oldest = state.waiting!.oldestTime();
  return { queued, oldestAgeMs: oldest === Infinity ? 0 : Math.max(0, now - oldest) };
}

/** Whether two lags are the same (for `lag$`'s `distinctUntilChanged`). @internal */
export const sameLag = (a: HandlerLag, b: HandlerLag): boolean =>
  a.queued === b.queued && a.oldestAgeMs === b.oldestAgeMs;
