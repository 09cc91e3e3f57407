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
import { deltaFifoStep, drainEnd, initialDeltaFifoState, nextDrainAction, type DeltaFifoInput } from './deltaFifoState.js';

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
const SYNCED_SENT: DeltaFifoInput = { type: 'syncedSent' };
const POPPED: DeltaFifoInput = { type: 'popped' };
const COMPLETED: DeltaFifoInput = { type: 'sourceEnded', source: { type: 'completed' } };

/**
 * Where the drain stands: nothing pending, one scheduled (its action, once the scheduler has
 * returned it), or one running (a pull or event that arrives then is seen by its loop).
 */
type DrainPhase =
  | { readonly type: 'idle' }
  | { readonly type: 'scheduled'; readonly action: Subscription | undefined }
  | { readonly type: 'draining' };
const IDLE: DrainPhase = { type: 'idle' };
const DRAINING: DrainPhase = { type: 'draining' };

/**
 * The delta FIFO (client-go's `DeltaFIFO`, or `RealFIFO` with `mode: 'ordered'`) as an operator:
 * reflector events in, pops of per-key deltas out, plus one `synced` marker when `hasSynced` turns
 * true. The entries are in a deterministic queue ({@link createFifoQueue}, the one the informer's
 * burst reducer `popBurst` uses); every event is O(1) amortised (a replace or resync is O(items)).
 * What the consumer allows and was told, and where the source stands, is data
 * (`DeltaFifoState` in deltaFifoState.ts, moved by the pure `deltaFifoStep`); the drain loop here is
 * the edge.
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
      let state = initialDeltaFifoState(pull$ === undefined);
      let phase: DrainPhase = IDLE;

      const drain = (): void => {
        // Re-entered from a consumer that pulls or feeds the source while handling a pop: the
        // running loop sees the new demand or entries.
        if (phase.type === 'draining' || subscriber.closed) return;
        // Draining now does what a scheduled drain would have.
        if (phase.type === 'scheduled') phase.action?.unsubscribe();
        phase = DRAINING;
        try {
          for (let next = nextDrainAction(state, queue); next !== 'stop' && !subscriber.closed; next = nextDrainAction(state, queue)) {
            if (next === 'synced') {
              state = deltaFifoStep(state, SYNCED_SENT);
              subscriber.next(SYNCED);
              continue;
            }
            const pop = queue.pop();
            if (pop === undefined) break;
            state = deltaFifoStep(state, POPPED);
            subscriber.next(pop);
          }
        } finally {
          phase = IDLE;
        }
        const end = drainEnd(state, queue);
        if (end === 'complete') subscriber.complete();
        else if (end !== 'open') subscriber.error(end.error);
      };

      const schedule = (): void => {
        // A drain is pending, or running and will see what was just queued.
        if (phase.type !== 'idle') return;
        const pending: DrainPhase = { type: 'scheduled', action: undefined };
        phase = pending;
        const action = scheduler.schedule(() => {
          if (phase.type !== 'scheduled') return;
          phase = IDLE;
          drain();
        });
        // A scheduler may run the action synchronously (queueScheduler outside a flush).
        if (phase === pending) phase = { type: 'scheduled', action };
      };

      if (pull$ !== undefined) {
        subscriber.add(
          pull$.subscribe({
            next: (n) => {
              const before = state;
              state = deltaFifoStep(state, { type: 'pull', n });
              if (state !== before) drain();
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
          error: (error: unknown) => {
            state = deltaFifoStep(state, { type: 'sourceEnded', source: { type: 'failed', error } });
            schedule();
          },
          complete: () => {
            state = deltaFifoStep(state, COMPLETED);
            schedule();
          },
        }),
      );

      return () => {
        if (phase.type === 'scheduled') phase.action?.unsubscribe();
        phase = IDLE;
      };
    });
}
