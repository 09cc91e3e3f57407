import { defer, filter, map, scan, type OperatorFunction } from 'rxjs';
import type { ReflectorBurst } from '../reflector/reflectorBurst.js';
import type { ReflectorEvent } from '../reflector/reflectorEvent.js';
import { createFifoQueue } from './createFifoQueue.js';
import type { FifoBatch } from './fifoBatch.js';
import type { FifoQueue, FifoQueueOptions } from './fifoQueue.js';

/** The `scan` state: the queue (a pure, deterministic reducer of events), and the last batch. */
interface FifoScanState<T> {
  readonly queue: FifoQueue<T>;
  readonly hasSynced: boolean;
  readonly batch: FifoBatch<T> | undefined;
}

/** A resource version as the server sent it, or `undefined` when missing or empty. */
function validRv(rv: unknown): string | undefined {
  return typeof rv === 'string' && rv !== '' ? rv : undefined;
}

/** The resource version one event carries (a list's, an event object's, a bookmark's), if valid. */
function eventRv<T>(event: ReflectorEvent<T>): string | undefined {
  switch (event.type) {
    case 'replace':
    case 'bookmark':
      return validRv(event.resourceVersion);
    case 'add':
    case 'update':
    case 'delete':
      return validRv(
        (event.object as { metadata?: { resourceVersion?: unknown } } | null)?.metadata?.resourceVersion,
      );
    case 'resync':
      return undefined;
  }
}

/**
 * The step function of {@link deltaFifoBatch}: applies every event of `burst` to `queue`, then pops
 * everything ready as one batch. Coalescing happens within the burst (the queue is empty between
 * bursts). Exported for tests that drive it step by step.
 *
 * @example
 * ```ts
 * const queue = createFifoQueue<V1Pod>();
 * const batch = popBurst(queue, [{ type: 'add', object: a }, { type: 'update', object: a2 }], false);
 * batch.pops; // [{ key: 'ns/a', deltas: [Added a, Updated a2], ... }]
 * ```
 */
export function popBurst<T>(
  queue: FifoQueue<T>,
  burst: ReflectorBurst<T>,
  syncedBefore: boolean,
): FifoBatch<T> {
  let resourceVersion: string | undefined;
  let resync = false;
  for (const event of burst) {
    queue.apply(event);
    if (event.type === 'resync') resync = true;
    else resourceVersion = eventRv(event) ?? resourceVersion;
  }
  const pops = queue.popBatch();
  const synced = !syncedBefore && queue.hasSynced;
  return resync ? { pops, resourceVersion, synced, resync } : { pops, resourceVersion, synced };
}

/**
 * The delta FIFO over bursts (client-go's `DeltaFIFO`, or `RealFIFO` with `mode: 'ordered'`, with
 * `PopBatch`): a `scan` whose reducer is the pure queue ({@link createFifoQueue}). Each burst (all
 * that arrived together: a list, the lines of one watch chunk, a resync) goes into the queue and
 * every pop it made ready leaves as one {@link FifoBatch}, synchronously. A burst that changes
 * nothing (no pop, no resource version, no sync) emits nothing. Each subscription has its own queue.
 * Objects without a key (or whose transform throws) are skipped and reported to `onError`.
 *
 * ```text
 * bursts: -B-------R----b--|     B = [add a, update A, add b]; R = [replace [a3, b1]]; b = [bookmark 9]
 * output: -X-------Y----Z--|     X = { pops: [a [Added a, Updated A], b [Added b]], synced: true }
 *                                Y = { pops: [a [Sync a3], b [Sync b1]], resourceVersion: R's }
 *                                Z = { pops: [], resourceVersion: '9' }
 * ```
 *
 * @example
 * ```ts
 * bursts$.pipe(deltaFifoBatch({ knownObjects: store })).subscribe((batch) => {
 *   for (const pop of batch.pops) for (const d of pop.deltas) apply(store, pop.key, d);
 *   if (batch.synced) markSynced();
 * });
 * ```
 */
export function deltaFifoBatch<T>(
  options: FifoQueueOptions<T> = {},
): OperatorFunction<ReflectorBurst<T>, FifoBatch<T>> {
  return (source) =>
    defer(() => {
      const seed: FifoScanState<T> = {
        queue: createFifoQueue<T>(options),
        hasSynced: false,
        batch: undefined,
      };
      return source.pipe(
        scan((state: FifoScanState<T>, burst: ReflectorBurst<T>): FifoScanState<T> => {
          const batch = popBurst(state.queue, burst, state.hasSynced);
          return { queue: state.queue, hasSynced: state.hasSynced || batch.synced, batch };
        }, seed),
        map((state) => state.batch as FifoBatch<T>),
        filter((b) => b.pops.length > 0 || b.resourceVersion !== undefined || b.synced),
      );
    });
}
