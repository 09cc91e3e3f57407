import { filter, map, scan, type OperatorFunction } from 'rxjs';
import type { RxkubeError } from '../errors.js';
import type { ReflectorBurst } from '../reflector/reflectorBurst.js';
import type { ReflectorEvent } from '../reflector/reflectorEvent.js';
import { DeltaFifoQueue } from './deltaFifoQueue.js';
import type { FifoBatch } from './fifoBatch.js';
import type { FifoQueueOptions } from './fifoQueue.js';
import { resolveQueueOptions, type ResolvedQueueOptions } from './fifoSupport.js';
import { OrderedFifoQueue } from './orderedFifoQueue.js';

/**
 * The options of {@link deltaFifoBatch}: the queue's, without `knownObjects` and `onError` (the
 * objects it could not queue are in each batch's `errors`). This FIFO reads no
 * store; a relist's deletions of keys only the store knows are left to the store write as
 * {@link RelistMark}s, and a deletion of a key with nothing queued is passed on (the store write
 * drops it when it does not hold the key).
 *
 * @example
 * ```ts
 * const options: DeltaFifoBatchOptions<V1Pod> = { mode: 'ordered', transform: stripManagedFields };
 * ```
 */
export type DeltaFifoBatchOptions<T> = Omit<
  FifoQueueOptions<T>,
  'knownObjects' | 'knownObjectsDownstream' | 'onError'
>;

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
  }
}

/**
 * The options of a burst's queue, resolved once per options object (key function, transform,
 * error sink) rather than once per burst, and where the burst's errors are collected. The reducer
 * runs synchronously, so one context serves every burst of every subscription.
 */
interface BurstContext<T> {
  readonly resolved: ResolvedQueueOptions<T>;
  errors: RxkubeError[] | undefined;
}

const contexts = new WeakMap<object, BurstContext<unknown>>();

function burstContext<T>(options: DeltaFifoBatchOptions<T>): BurstContext<T> {
  let ctx = contexts.get(options) as BurstContext<T> | undefined;
  if (ctx === undefined) {
    const made: { resolved?: ResolvedQueueOptions<T>; errors: RxkubeError[] | undefined } = {
      errors: undefined,
    };
    made.resolved = resolveQueueOptions<T>({
      ...options,
      knownObjectsDownstream: true,
      onError: (e) => (made.errors ??= []).push(e),
    });
    ctx = made as BurstContext<T>;
    contexts.set(options, ctx as BurstContext<unknown>);
  }
  return ctx;
}

/**
 * The reducer of {@link deltaFifoBatch}, a pure function of one burst and whether the FIFO had
 * synced before it: the burst's events go into a queue of their own (coalesced per key, deletions
 * deduplicated, a list's items as `Replaced`/`Sync`), and every pop leaves as one batch. Nothing is
 * carried from one burst to the next but `syncedBefore`: each burst's pops all leave with it.
 *
 * @example
 * ```ts
 * const batch = popBurst([{ type: 'add', object: a }, { type: 'update', object: a2 }], false);
 * batch.pops; // [{ key: 'ns/a', deltas: [Added a, Updated a2], ... }]
 * batch.synced; // true: the first event was not a list
 * ```
 */
export function popBurst<T>(
  burst: ReflectorBurst<T>,
  syncedBefore: boolean,
  options: DeltaFifoBatchOptions<T> = {},
): FifoBatch<T> {
  const ctx = burstContext(options);
  ctx.errors = undefined;
  const queue =
    options.mode === 'ordered'
      ? new OrderedFifoQueue<T>(undefined, ctx.resolved)
      : new DeltaFifoQueue<T>(undefined, ctx.resolved);
  if (syncedBefore) queue.startSynced();
  let resourceVersion: string | undefined;
  for (const event of burst) {
    queue.apply(event);
    resourceVersion = eventRv(event) ?? resourceVersion;
  }
  const pops = queue.popBatch();
  const synced = !syncedBefore && queue.hasSynced;
  const relists = queue.takeRelistMarks();
  const errors = ctx.errors as RxkubeError[] | undefined; // filled by the queue during the burst
  ctx.errors = undefined;
  if (relists === undefined && errors === undefined) return { pops, resourceVersion, synced };
  return { pops, resourceVersion, synced, ...(relists && { relists }), ...(errors && { errors }) };
}

/**
 * The delta FIFO over bursts (client-go's `DeltaFIFO`, or `RealFIFO` with `mode: 'ordered'`, with
 * `PopBatch`): a `scan` whose reducer is {@link popBurst}. Each burst (all that arrived together: a
 * list, the lines of one watch chunk) leaves as one {@link FifoBatch}, synchronously. A burst that
 * changes nothing (no pop, no resource version, no sync) emits nothing. It reads nothing downstream:
 * where a list's deletions of keys only the store knows go is marked in the batch (`relists`), and
 * the store write finds them. Objects without a key (or whose transform throws) are skipped and
 * carried in the batch's `errors`.
 *
 * ```text
 * bursts: -B-------R----b--|     B = [add a, update A, add b]; R = [replace [a3, b1]]; b = [bookmark 9]
 * output: -X-------Y----Z--|     X = { pops: [a [Added a, Updated A], b [Added b]], synced: true }
 *                                Y = { pops: [a [Sync a3], b [Sync b1]], relists: [{ at: 2, listed: {a, b} }] }
 *                                Z = { pops: [], resourceVersion: '9' }
 * ```
 *
 * @example
 * ```ts
 * bursts$.pipe(deltaFifoBatch<V1Pod>()).subscribe((batch) => {
 *   writeToStore(batch); // pops in order, the relists' deletions at their marks
 *   if (batch.synced) markSynced();
 * });
 * ```
 */
export function deltaFifoBatch<T>(
  options: DeltaFifoBatchOptions<T> = {},
): OperatorFunction<ReflectorBurst<T>, FifoBatch<T>> {
  const empty: FifoBatch<T> = { pops: [], resourceVersion: undefined, synced: false };
  return (source) =>
    source.pipe(
      scan(
        (state: { readonly synced: boolean; readonly batch: FifoBatch<T> }, burst: ReflectorBurst<T>) => {
          const batch = popBurst(burst, state.synced, options);
          return { synced: state.synced || batch.synced, batch };
        },
        { synced: false, batch: empty },
      ),
      map((state) => state.batch),
      filter(
        (b) =>
          b.pops.length > 0 ||
          b.resourceVersion !== undefined ||
          b.synced ||
          b.relists !== undefined ||
          b.errors !== undefined,
      ),
    );
}
