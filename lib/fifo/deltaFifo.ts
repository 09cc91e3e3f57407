import {
  asapScheduler,
  Observable,
  type OperatorFunction,
  type SchedulerLike,
  type Subscription,
} from 'rxjs';
import { createFifoQueue } from './createFifoQueue.js';
import type { FifoEvent } from './fifoEvent.js';
import type { FifoOutput, FifoSynced } from './fifoOutput.js';
import type { FifoQueueOptions } from './fifoQueue.js';

/**
 * Options of {@link deltaFifo}: the queue's ({@link FifoQueueOptions}) and how the consumer pulls.
 *
 * @example
 * ```ts
 * const options: DeltaFifoOptions<V1Pod> = { mode: 'ordered', knownObjects, emitDeltaTypeReplaced: true };
 * ```
 */
export interface DeltaFifoOptions<T> extends FifoQueueOptions<T> {
  /**
   * Where the queue is drained. Events that arrive synchronously together (a burst: one chunk of a
   * watch stream, a whole list) all enter the queue before one drain is scheduled here, so deltas of
   * one key coalesce as they do in client-go when the producer outruns `Pop`. Default
   * `asapScheduler` (a microtask after the burst). `queueScheduler` drains after every event (no
   * coalescing across events); a `TestScheduler` runs it on virtual time.
   */
  readonly scheduler?: SchedulerLike;
  /**
   * Demand, for a consumer that wants pops only when it is ready: each emission `n` allows `n` more
   * pops (`Infinity` for all). Without it every queued entry is emitted at each drain. Events keep
   * queueing (and coalescing) while there is no demand. The `synced` marker needs no demand.
   */
  readonly pull$?: Observable<number>;
}

const SYNCED: FifoSynced = Object.freeze({ type: 'synced' as const });

/**
 * The delta FIFO (client-go's `DeltaFIFO`, or `RealFIFO` with `mode: 'ordered'`) as an operator:
 * reflector events in, pops of per-key deltas out, plus one `synced` marker when `hasSynced` turns
 * true. Internally a `scan`-style accumulator over a mutable, deterministic queue
 * ({@link createFifoQueue}); every event is O(1) amortised (a replace or resync is O(items)).
 *
 * Events of one synchronous burst accumulate, then the queue is drained once on `scheduler`.
 * The output completes when the source has completed and everything queued has been delivered.
 * A source error is passed on after the drain that follows it. Objects without a key (or whose
 * transform throws) are skipped and reported to `onError`; the stream goes on.
 *
 * ```text
 * events: -(abA)----r-----|     a, A: versions of key a; b: key b; r = replace [a3, b1]
 * output: -(sXY)----(CD)--|     s = synced (the first event was not a list)
 *                               X = a [Added a, Updated A], Y = b [Added b]
 *                               C = a [Sync a3], D = b [Sync b1]
 * ```
 *
 * @example
 * ```ts
 * reflectorEvents$
 *   .pipe(deltaFifo({ knownObjects: store }))
 *   .subscribe((out) => {
 *     if (out.type === 'pop') for (const d of out.deltas) apply(store, out.key, d);
 *     else markSynced();
 *   });
 * ```
 */
export function deltaFifo<T>(
  options: DeltaFifoOptions<T> = {},
): OperatorFunction<FifoEvent<T>, FifoOutput<T>> {
  return (source) =>
    new Observable<FifoOutput<T>>((subscriber) => {
      const queue = createFifoQueue<T>(options);
      const scheduler = options.scheduler ?? asapScheduler;
      const pull$ = options.pull$;
      let demand = pull$ === undefined ? Infinity : 0;
      let syncedSent = false;
      let sourceDone = false;
      let failure: { error: unknown } | undefined;
      let draining = false;
      let scheduled = false;
      let scheduledAction: Subscription | undefined;

      const drain = (): void => {
        // Re-entered from a consumer that pulls or feeds the source while handling a pop: the
        // running loop will see the new demand or entries.
        if (draining || subscriber.closed) return;
        draining = true;
        try {
          for (;;) {
            if (!syncedSent && queue.hasSynced) {
              syncedSent = true;
              subscriber.next(SYNCED);
            }
            if (demand <= 0 || subscriber.closed) break;
            const pop = queue.pop();
            if (pop === undefined) break;
            demand--;
            subscriber.next(pop);
          }
        } finally {
          draining = false;
        }
        if (failure !== undefined) subscriber.error(failure.error);
        else if (sourceDone && queue.length === 0) subscriber.complete();
      };

      const schedule = (): void => {
        if (scheduled) return;
        scheduled = true;
        const action = scheduler.schedule(() => {
          scheduled = false;
          scheduledAction = undefined;
          drain();
        });
        // A scheduler may run the action synchronously (queueScheduler outside a flush).
        if (scheduled) scheduledAction = action;
      };

      if (pull$ !== undefined) {
        subscriber.add(
          pull$.subscribe({
            next: (n) => {
              if (!(n > 0)) return;
              demand += n;
              drain();
            },
            error: (err: unknown) => subscriber.error(err),
          }),
        );
      }

      subscriber.add(
        source.subscribe({
          next: (event) => {
            queue.apply(event);
            schedule();
          },
          error: (err: unknown) => {
            failure = { error: err };
            schedule();
          },
          complete: () => {
            sourceDone = true;
            schedule();
          },
        }),
      );

      return () => {
        scheduledAction?.unsubscribe();
        scheduledAction = undefined;
      };
    });
}
