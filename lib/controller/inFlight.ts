import type { SchedulerLike, Subscription } from 'rxjs';
import type { WorkQueue } from '../workqueue/workQueue.js';
import type { ControllerInput, GotInput } from './controllerState.js';
import type { ControllerReconcileContext } from './reconcileContext.js';
import type { OutcomeSink, ReconcileOutcome, ReconcileRunOptions } from './reconcileOutcome.js';

// What the controller's edge (ControllerRun) keeps per worker: its answers to the step, and the
// reconcile it runs. Internal: not exported from the package.

type Mutable<T> = { -readonly [K in keyof T]: T[K] };
type ReconciledInput = Extract<ControllerInput, { type: 'reconciled' }>;

/**
 * One worker's answers to the step (`got`, `reconciled`), made once and filled in for each key
 * instead of made per key (two objects a key on the controller's hottest path). Safe because a
 * worker has at most one of each waiting at a time (it asks for one key at a time, and its
 * reconcile settles once), and the step keeps none of an input, only values read from it.
 *
 * @internal
 * @example
 * ```ts
 * const answers = new WorkerAnswers(0);
 * answers.got.item = queue.take(); // then dispatch(answers.got)
 * ```
 */
export class WorkerAnswers {
  readonly got: Mutable<GotInput>;
  readonly reconciled: Mutable<ReconciledInput>;

  constructor(worker: number) {
    this.got = { type: 'got', worker, item: undefined, retries: 0, waits: false, more: false, now: 0 };
    this.reconciled = { type: 'reconciled', worker, outcome: SUCCESS_OUTCOME, more: false, now: 0 };
  }
}
const SUCCESS_OUTCOME: ReconcileOutcome = Object.freeze({ result: 'success' });

/**
 * A reconcile in flight: its context, what stops it (an Observable reconcile, the timeout), and
 * where its outcome goes (once: a reconcile that timed out may still settle later).
 *
 * @internal
 * @example
 * ```ts
 * const flight = new InFlight(ctx, answers, 0, asyncScheduler, queue, (input) => dispatch(input));
 * flight.settle({ result: 'success' }); // answers `reconciled` once
 * ```
 */
export class InFlight implements OutcomeSink, ReconcileRunOptions {
  running: Subscription | undefined;
  timeout: Subscription | undefined;
  private settled = false;

  constructor(
    readonly ctx: ControllerReconcileContext<unknown>,
    private readonly answers: WorkerAnswers,
    readonly priority: number,
    readonly scheduler: SchedulerLike,
    private readonly queue: WorkQueue<string>,
    private readonly answer: (input: ControllerInput) => void,
  ) {}

  get done(): boolean {
    return this.settled;
  }

  settle(outcome: ReconcileOutcome): void {
    if (this.settled) return;
    this.settled = true;
    this.timeout?.unsubscribe();
    const input = this.answers.reconciled;
    input.outcome = outcome;
    input.more = this.queue.len() > 0;
    input.now = this.scheduler.now();
    this.answer(input);
  }
}
