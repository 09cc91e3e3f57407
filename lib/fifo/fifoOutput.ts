import type { Deltas } from './delta.js';

/**
 * What one pop of the delta FIFO returns: every delta queued for one key, oldest first.
 * `isInInitialList` is true for the items of the first Replace (client-go marks these so that
 * handlers can tell the initial listing from later adds).
 */
export interface FifoPop<T> {
  readonly type: 'pop';
  readonly key: string;
  readonly deltas: Deltas<T>;
  readonly isInInitialList: boolean;
}

/**
 * Emitted once, at the moment the FIFO's `hasSynced` turns true: after a first Add with no list,
 * after `Replace([])`, or after the last item of the first Replace has been popped. A consumer that
 * processes pops synchronously has processed every initial item when it sees this.
 */
export interface FifoSynced {
  readonly type: 'synced';
}

/** The delta FIFO's output stream: pops, and the one `synced` marker. */
export type FifoOutput<T> = FifoPop<T> | FifoSynced;
