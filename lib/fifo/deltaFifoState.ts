import type { FifoQueue } from './fifoQueue.js';

/**
 * Where the source of the standalone {@link deltaFifo} operator stands: still sending, completed,
 * or failed with an error (passed on after the drain that follows it).
 *
 * @example
 * ```ts
 * const ended: FifoSourceState = { type: 'failed', error: new Error('watch closed') };
 * ```
 */
export type FifoSourceState =
  | { readonly type: 'open' }
  | { readonly type: 'completed' }
  | { readonly type: 'failed'; readonly error: unknown };

/**
 * The state of the standalone {@link deltaFifo} operator between drains, as data: what the consumer
 * still allows, whether it was told the FIFO synced, and where the source stands. The entries are in
 * the queue ({@link createFifoQueue}); {@link deltaFifoStep} moves this state and
 * {@link nextDrainAction} / {@link drainEnd} say what a drain does with both.
 *
 * @example
 * ```ts
 * let state = initialDeltaFifoState(false); // a pull$ consumer: no demand yet
 * state = deltaFifoStep(state, { type: 'pull', n: 2 });
 * state.demand; // 2
 * ```
 */
export interface DeltaFifoState {
  /** Pops the consumer still allows: `Infinity` without `pull$`. */
  readonly demand: number;
  /** The `synced` marker went out (it goes once, and needs no demand). */
  readonly syncedSent: boolean;
  readonly source: FifoSourceState;
}

/**
 * What moves a {@link DeltaFifoState}: the consumer pulls `n` more, the source ends, the marker or
 * a pop goes out.
 *
 * @example
 * ```ts
 * const input: DeltaFifoInput = { type: 'pull', n: 10 };
 * ```
 */
export type DeltaFifoInput =
  | { readonly type: 'pull'; readonly n: number }
  | { readonly type: 'sourceEnded'; readonly source: Exclude<FifoSourceState, { type: 'open' }> }
  | { readonly type: 'syncedSent' }
  | { readonly type: 'popped' };

/**
 * The next thing a drain does: send the `synced` marker, pop one entry, or stop (no demand, or
 * nothing queued).
 *
 * @example
 * ```ts
 * nextDrainAction({ demand: 0, syncedSent: false, source: { type: 'open' } }, queue); // 'synced' once queue.hasSynced
 * ```
 */
export type DrainAction = 'synced' | 'pop' | 'stop';

/** What a drain can see of the queue. */
export type FifoQueueView = Pick<FifoQueue<unknown>, 'hasSynced' | 'length'>;

/** One shape for every state (a literal, not a spread: this runs once per pop under `pull$`). */
function record(demand: number, syncedSent: boolean, source: FifoSourceState): DeltaFifoState {
  return { demand, syncedSent, source };
}

const OPEN: FifoSourceState = Object.freeze({ type: 'open' as const });

/**
 * The state a subscription starts in: everything allowed without `pull$` (`unbounded`), nothing
 * with it until the consumer pulls.
 *
 * @example
 * ```ts
 * initialDeltaFifoState(true).demand; // Infinity
 * ```
 */
export function initialDeltaFifoState(unbounded: boolean): DeltaFifoState {
  return { demand: unbounded ? Infinity : 0, syncedSent: false, source: OPEN };
}

/**
 * The pure step of the operator's state. A pull of anything but a positive number changes nothing
 * (the same state comes back); a source ends once (later ends change nothing); a pop under unbounded
 * demand changes nothing.
 *
 * @example
 * ```ts
 * const s = deltaFifoStep(initialDeltaFifoState(false), { type: 'pull', n: 1 });
 * deltaFifoStep(s, { type: 'popped' }).demand; // 0
 * ```
 */
export function deltaFifoStep(state: DeltaFifoState, input: DeltaFifoInput): DeltaFifoState {
  switch (input.type) {
    case 'pull':
      return input.n > 0 ? record(state.demand + input.n, state.syncedSent, state.source) : state;
    case 'sourceEnded':
      return state.source.type === 'open' ? record(state.demand, state.syncedSent, input.source) : state;
    case 'syncedSent':
      return state.syncedSent ? state : record(state.demand, true, state.source);
    case 'popped':
      // Without pull$ (the usual case) a pop changes nothing: no new record per pop.
      return state.demand === Infinity ? state : record(state.demand - 1, state.syncedSent, state.source);
  }
}

/**
 * What a drain does next: the `synced` marker first, as soon as the queue has synced (it needs no
 * demand); then a pop while the consumer allows one and one is queued; else stop.
 *
 * @example
 * ```ts
 * nextDrainAction(initialDeltaFifoState(true), { hasSynced: false, length: 3 }); // 'pop'
 * ```
 */
export function nextDrainAction(state: DeltaFifoState, queue: FifoQueueView): DrainAction {
  if (!state.syncedSent && queue.hasSynced) return 'synced';
  return state.demand > 0 && queue.length > 0 ? 'pop' : 'stop';
}

/**
 * How a drain ends the stream: a failed source fails it (whatever is still queued: the consumer
 * had its chance in this drain), a completed one completes it once nothing is queued, else it stays
 * open.
 *
 * @example
 * ```ts
 * drainEnd({ demand: 0, syncedSent: true, source: { type: 'completed' } }, { hasSynced: true, length: 0 }); // 'complete'
 * ```
 */
export function drainEnd(state: DeltaFifoState, queue: FifoQueueView): 'open' | 'complete' | { readonly error: unknown } {
  if (state.source.type === 'failed') return { error: state.source.error };
  return state.source.type === 'completed' && queue.length === 0 ? 'complete' : 'open';
}
