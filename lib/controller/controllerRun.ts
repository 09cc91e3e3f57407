import { BehaviorSubject, Observable, Subject, Subscription, asyncScheduler, catchError, map, merge, of, type SchedulerLike } from 'rxjs';
import type { Notification } from '../informer/notification.js';
import type { KubeObjectLike } from '../meta/kubeObject.js';
import { errorLogger } from '../logging/errorLogger.js';
import { longTimer } from '../timers/longTimer.js';
import { consumeQueue, type QueueConsumer } from '../workqueue/queueConsumer.js';
import { LOW_PRIORITY, workQueue, type WorkQueue } from '../workqueue/workQueue.js';
import { runWithWriteTracker } from '../write/writeScope.js';
import type { OwnWritesOutcome } from './awaitOwnWrites.js';
import { CacheSyncTimeoutError, ControllerInputError, ReconcileError, ReconcileTimeoutError } from './controllerErrors.js';
import type { ControllerMetricEvent, ControllerStats, ControllerStatus } from './controllerMetrics.js';
import type { Controller, ControllerError, ControllerOptions } from './controllerOptions.js';
import { ControllerSources } from './controllerSources.js';
import {
  acceptsKey,
  activeWorkers,
  initialControllerState,
  type ControllerEffect,
  type ControllerInput,
  type ControllerState,
  type FinishEffect,
  type ReconcilingWorker,
} from './controllerState.js';
import { controllerStep } from './controllerStep.js';
import { changeKeys, primaryKeysOf } from './changeKeys.js';
import type { KeySource } from './keySource.js';
import { OwnWritesGate } from './ownWritesGate.js';
import { OwnWritesTimeoutError } from './ownWritesTimeoutError.js';
import { ControllerReconcileContext } from './reconcileContext.js';
import { InFlight, WorkerAnswers } from './inFlight.js';
import { reconcileTimeoutOutcome, startReconcile, type ReconcileOutcome } from './reconcileOutcome.js';
import type { Reconciler } from './reconciler.js';
import { ControllerReconcileReport, reconcileErrorOf, type ReconcileReport } from './reconcileReport.js';
import { applyRequeue } from './requeue.js';
import type { TriggerSource } from './triggerSource.js';
import { WriteLedger, kindOf, watchedCache } from './writeLedger.js';
import { lifetimeOf } from '../meta/lifetime.js';
import { ControllerTracer } from '../tracing/controllerTracer.js';
import type { ReconcileSpan } from '../tracing/tracing.js';

/** How long a key waits for its own writes by default (`readYourWritesTimeout`), in ms. */
export const DEFAULT_READ_YOUR_WRITES_TIMEOUT_MS = 5000;

const START: ControllerInput = Object.freeze({ type: 'start' });
const STOP: ControllerInput = Object.freeze({ type: 'stop' });
const SYNCED: ControllerInput = Object.freeze({ type: 'synced' });
const READY: ControllerInput = Object.freeze({ type: 'ready' });
const DRAINED: ControllerInput = Object.freeze({ type: 'drained' });
const SYNC_TIMED_OUT: ControllerInput = Object.freeze({ type: 'syncTimedOut' });

/**
 * The controller's edge: everything it does that is not a decision. It feeds every input (the
 * queue's ready keys, each worker's answers, `leading$`, `keyFilter$`, the cache sync timer, the
 * sources' sync) through {@link controllerStep}, one at a time (an input that arrives while an
 * effect runs, e.g. a synchronous reconcile's end, waits its turn), and performs the effects the
 * step returns: queue calls, reconciles, reports on `results$`, `status$` and `errors$`.
 *
 * @internal
 * @example
 * ```ts
 * const ctl: Controller = new ControllerRun('web', options, sources, 4);
 * ```
 */
export class ControllerRun<T extends KubeObjectLike> implements Controller {
  readonly queue: WorkQueue<string>;
  readonly status$: Observable<ControllerStatus>;
  readonly errors$: Observable<ControllerError>;
  readonly metrics$: Observable<ControllerMetricEvent>;
  readonly results$: Observable<ReconcileReport>;

  private state: ControllerState;
  private stepping = false;
  private readonly inbox: ControllerInput[] = [];
  private readonly scheduler: SchedulerLike;
  private readonly statusSubject = new BehaviorSubject<ControllerStatus>('idle');
  private readonly results = new Subject<ReconcileReport>();
  private readonly errors = new Subject<ControllerError>();
  private readonly metrics = new Subject<ControllerMetricEvent>();
  private readonly keySources: ControllerSources;
  private readonly inputs = new Subscription();
  private syncTimer: Subscription | undefined;
  private readonly inFlight: Array<InFlight | undefined>;
  private readonly answers: ReadonlyArray<WorkerAnswers>;
  private readonly consumer: QueueConsumer<string>;
  private readonly gate: OwnWritesGate | undefined;
  private readonly tracer: ControllerTracer | undefined;
  private readonly finished: Promise<void>;
  private resolveFinished: () => void = () => undefined;
  private readonly answer = (input: ControllerInput): void => this.dispatch(input);
  private release: (() => void) | undefined;
  // Counted as each reconcile is reported (and each wait for own writes): stats() is a fold of them.
  private readonly totals = { success: 0, error: 0, requeue: 0, requeue_after: 0 };
  private readonly counts = { errors: 0, terminal: 0, timeouts: 0, ownWritesWaits: 0, ownWritesTimeouts: 0 };

  constructor(
    readonly name: string,
    private readonly options: ControllerOptions<T>,
    private readonly sources: ReadonlyArray<TriggerSource>,
    private readonly concurrency: number,
  ) {
    this.scheduler = options.scheduler ?? asyncScheduler;
    this.state = initialControllerState(concurrency, options.keyFilter$ !== undefined);
    this.inFlight = Array.from({ length: concurrency }, () => undefined);
    this.answers = Array.from({ length: concurrency }, (_, worker) => new WorkerAnswers(worker));
    this.finished = new Promise((resolve) => (this.resolveFinished = resolve));
    this.queue = workQueue<string>({ name, rateLimiter: options.rateLimiter, scheduler: this.scheduler });
    // Workers pull keys when the queue says some are ready, instead of a get$ per key.
    this.consumer = consumeQueue<string>(this.queue, () => this.dispatch(READY)) as QueueConsumer<string>;
    this.status$ = this.statusSubject.asObservable();
    this.results$ = this.results.asObservable();
    this.keySources = new ControllerSources({ name, enqueue: (key, priority) => this.enqueue(key, priority), synced: () => this.dispatch(SYNCED) });
    // A reconcile's error is derived from its report (finish); the sources' errors are theirs; the
    // rest are the controller's own. Metrics of reconciles are derived from results$.
    this.errors$ = merge(this.errors, this.keySources.errors$);
    this.metrics$ = merge(
      this.metrics,
      this.results.pipe(
        map((r): ControllerMetricEvent => ({ type: 'reconcile', result: r.result, seconds: r.seconds, terminal: r.terminal, timeout: r.timeout, reconcileId: r.reconcileId })),
      ),
    );
    this.gate = options.readYourWrites === false ? undefined : this.ownWritesGate();
    this.tracer =
      options.tracing === undefined
        ? undefined
        : new ControllerTracer(name, options.tracing, this.scheduler, concurrency, (key) => !this.queue.shuttingDown() && acceptsKey(this.state, key));
    this.addOwnSources();
    (options.sources ?? []).forEach((source, i) => this.keySources.add(source, `sources[${i}]`, false));
    // The log is one subscriber of errors$ (no second error channel).
    this.errors$.subscribe(errorLogger(options.logger, { scheduler: this.scheduler }));
  }

  status(): ControllerStatus {
    return this.statusSubject.value;
  }

  stats(): ControllerStats {
    const { errors, terminal, timeouts, ownWritesWaits, ownWritesTimeouts } = this.counts;
    return {
      activeWorkers: activeWorkers(this.state),
      maxConcurrentReconciles: this.concurrency,
      reconcileTotal: { ...this.totals },
      reconcileErrorsTotal: errors,
      terminalReconcileErrorsTotal: terminal,
      reconcileTimeoutsTotal: timeouts,
      ownWritesWaitsTotal: ownWritesWaits,
      ownWritesTimeoutsTotal: ownWritesTimeouts,
    };
  }

  start(): void {
    // Its informer is of the fake API server's KubeConfig: the server's close() stops it if it still runs.
    if (this.statusSubject.value === 'idle') {
      this.release ??= lifetimeOf(this.options.for)?.adopt(this, () => `controller ${JSON.stringify(this.name)} (call its stop())`, () => this.stop());
    }
    this.dispatch(START);
  }

  stop(): Promise<void> {
    this.release?.();
    this.release = undefined;
    this.dispatch(STOP);
    return this.finished;
  }

  addSource(source: KeySource, name?: string): Subscription {
    return this.keySources.add(source, name);
  }

  /** Steps `input`, and every input that arrives while its effects run, in order. */
  private dispatch(input: ControllerInput): void {
    if (this.stepping) {
      this.inbox.push(input);
      return;
    }
    this.stepping = true;
    try {
      for (let next: ControllerInput | undefined = input; next !== undefined; next = this.inbox.shift()) {
        const { state, effects } = controllerStep(this.state, next);
        this.state = state;
        for (let i = 0; i < effects.length; i++) this.perform(effects[i]);
      }
    } finally {
      this.stepping = false;
    }
  }

  private perform(effect: ControllerEffect): void {
    switch (effect.kind) {
      case 'status':
        return this.statusSubject.next(effect.status);
      case 'begin':
        return this.begin();
      case 'synced':
        return this.syncTimer?.unsubscribe();
      case 'take':
        return this.take(effect.worker);
      case 'awaitWrites':
        return this.gate?.wait(effect.key, (waitedSeconds) =>
          this.dispatch({ type: 'writesSeen', worker: effect.worker, waitedSeconds, now: this.scheduler.now() }),
        );
      case 'reconcile':
        return this.reconcile(effect.worker, this.state.workers[effect.worker] as ReconcilingWorker);
      case 'finish':
        return this.finish(effect);
      case 'drop':
        this.tracer?.released(effect.key, false);
        this.queue.forget(effect.key);
        this.gate?.forget(effect.key);
        return this.queue.done(effect.key);
      case 'release':
        this.tracer?.released(effect.key, false);
        return this.queue.done(effect.key);
      case 'putBack':
        this.tracer?.released(effect.key, true);
        this.queue.add(effect.key, { priority: effect.priority }); // held: queued again once done
        return this.queue.done(effect.key);
      case 'claim':
        // Keys that became ours: reconcile them (they may have changed while another replica had them).
        for (const key of this.options.for.listKeys()) if (effect.next(key) && !effect.previous(key)) this.enqueue(key, LOW_PRIORITY);
        return;
      case 'inputFailed':
        return this.errors.next(new ControllerInputError(this.name, effect.input, effect.error));
      case 'syncTimedOut':
        return this.errors.next(new CacheSyncTimeoutError(this.name, this.options.cacheSyncTimeout ?? 120_000));
      case 'tearDown':
        this.keySources.close();
        this.inputs.unsubscribe();
        return this.gate?.close();
      case 'drain':
        this.queue.shutDownWithDrain().subscribe({ complete: () => this.dispatch(DRAINED) });
        return;
      case 'complete':
        this.statusSubject.complete();
        this.results.complete();
        this.errors.complete();
        this.metrics.complete();
        return this.resolveFinished();
    }
  }

  // leading$, keyFilter$ and the cache sync timer as inputs, then the sources (which start the informers).
  private begin(): void {
    const { keyFilter$, leading$ } = this.options;
    const failed = (input: 'leading$' | 'keyFilter$') =>
      catchError<ControllerInput, Observable<ControllerInput>>((error: unknown) => of({ type: 'inputFailed', input, error }));
    const inputs: Observable<ControllerInput>[] = [];
    if (keyFilter$ !== undefined) inputs.push(keyFilter$.pipe(map((accepts): ControllerInput => ({ type: 'keyFilter', accepts })), failed('keyFilter$')));
    if (leading$ !== undefined) inputs.push(leading$.pipe(map((leading): ControllerInput => ({ type: 'leading', leading })), failed('leading$')));
    this.inputs.add(merge(...inputs).subscribe((input) => this.dispatch(input)));
    this.syncTimer = longTimer(this.options.cacheSyncTimeout ?? 120_000, this.scheduler).subscribe(() => this.dispatch(SYNC_TIMED_OUT));
    this.inputs.add(this.syncTimer);
    this.keySources.start();
  }

  private take(worker: number): void {
    // One clock read: when the queue holds the key from is when its reconcile starts.
    const now = this.scheduler.now();
    const item = this.consumer.take(now);
    const key = item?.key;
    if (key !== undefined) this.tracer?.took(key, now);
    const got = this.answers[worker].got;
    got.item = item;
    got.retries = key === undefined ? 0 : this.queue.numRequeues(key);
    got.waits = key !== undefined && this.gate !== undefined && this.gate.waits(key);
    got.more = this.queue.len() > 0;
    got.now = now;
    this.dispatch(got);
  }

  private reconcile(worker: number, run: ReconcilingWorker): void {
    const { key, priority, retries } = run;
    const ctx = new ControllerReconcileContext<T>(this.options.for.getByKey(key), key, priority, retries, this.gate?.ledger, this.name);
    const flight = new InFlight(ctx, this.answers[worker], priority, this.scheduler, this.queue, this.answer);
    this.inFlight[worker] = flight;
    ctx.trace = this.tracer?.start(worker, key, () => ctx.reconcileId, priority, retries, run.waitedSeconds * 1000);
    // In the reconcile's own async context (Node): the writes it sends are recorded for its key
    // (and are child spans of its span).
    if (ctx.trace !== undefined) flight.running = runWithWriteTracker(ctx, this.startTracedFlight, flight);
    else flight.running = this.gate === undefined ? this.startFlight(flight) : runWithWriteTracker(ctx, this.startFlight, flight);
    const timeoutMs = this.options.reconcileTimeout;
    if (timeoutMs === undefined || flight.done) return;
    flight.timeout = longTimer(timeoutMs, this.scheduler).subscribe(() => {
      ctx.abort();
      flight.running?.unsubscribe();
      flight.settle(reconcileTimeoutOutcome(key, timeoutMs, flight));
    });
  }

  private readonly startFlight = (flight: InFlight): Subscription | undefined =>
    startReconcile(this.options.reconcile as Reconciler<unknown>, flight.ctx.key, flight.ctx, flight, flight);

  // With the reconcile's span current for the tracer too (spans the reconcile starts are its children).
  private readonly startTracedFlight = (flight: InFlight): Subscription | undefined => (flight.ctx.trace as ReconcileSpan).run(this.startFlight, flight);

  private finish({ worker, run, outcome, seconds, requeue }: FinishEffect): void {
    const flight = this.inFlight[worker];
    this.inFlight[worker] = undefined;
    const context = flight?.ctx ?? { reconcileId: '', trace: undefined };
    this.count(outcome);
    this.tracer?.end(worker, outcome);
    // Reported before `done`: the key done may end a drain, and with it results$ (errors$, metrics$).
    // A report is made when someone is told of it (an error always is: errors$, the log).
    if (outcome.result === 'error' || this.results.observed) {
      const report = new ControllerReconcileReport(run, outcome, seconds, context);
      if (report.result === 'error') this.errors.next(reconcileErrorOf(this.name, report, context.trace?.context));
      this.results.next(report);
    }
    try {
      applyRequeue(this.queue, run.key, requeue);
    } catch (e) {
      // A rate limiter that answered no delay (InvalidDelayError): the key is let go (not retried
      // until it changes) and reported, never left in flight with its worker dead.
      this.queue.forget(run.key);
      this.errors.next(new ReconcileError(this.name, run.key, e, true, run.retries, context.reconcileId));
    }
    this.queue.done(run.key);
  }

  private enqueue(key: string, priority: number): void {
    if (this.queue.shuttingDown() || !acceptsKey(this.state, key)) return;
    this.queue.add(key, priority === 0 ? undefined : { priority });
  }

  private count(outcome: ReconcileOutcome): void {
    this.totals[outcome.result]++;
    if (outcome.result !== 'error') return;
    this.counts.errors++;
    if (outcome.terminal) this.counts.terminal++;
    if (outcome.error instanceof ReconcileTimeoutError) this.counts.timeouts++;
  }

  private ownWritesGate(): OwnWritesGate {
    const forKind = this.options.forKind === undefined ? undefined : kindOf(this.options.forKind);
    const caches = [watchedCache(this.options.for, forKind), ...this.sources.map((s) => watchedCache(s.informer, undefined))];
    return new OwnWritesGate(new WriteLedger(caches), {
      timeoutMs: this.options.readYourWritesTimeout ?? DEFAULT_READ_YOUR_WRITES_TIMEOUT_MS,
      scheduler: this.scheduler,
      report: (key, outcome) => this.reportOwnWrites(key, outcome),
    });
  }

  private reportOwnWrites(key: string, outcome: OwnWritesOutcome): void {
    this.counts.ownWritesWaits++;
    const timedOut = outcome.kind === 'timedOut';
    this.metrics.next({ type: 'ownWritesWait', seconds: outcome.waitedMs / 1000, timedOut });
    if (outcome.kind !== 'timedOut') return;
    this.counts.ownWritesTimeouts++;
    const timeoutMs = this.options.readYourWritesTimeout ?? DEFAULT_READ_YOUR_WRITES_TIMEOUT_MS;
    this.errors.next(new OwnWritesTimeoutError(this.name, key, timeoutMs, outcome.pending));
  }

  // for, owns and watches: sources built from the informers, each telling the read-your-own-writes
  // gate of every change first; the controller reconciles once all of them have synced.
  private addOwnSources(): void {
    const gate = this.gate;
    const seen = (cache: number) => (gate === undefined ? undefined : (n: Notification<KubeObjectLike>) => gate.saw(cache, n));
    // Keys at priority 0 come as plain strings: no object per change.
    const tracer = this.tracer;
    const owns = this.options.owns?.length ?? 0;
    const forKeys = changeKeys(this.options.for, primaryKeysOf(this.options.predicates ?? []), { name: `${this.name}/for`, seen: seen(0) }, true, tracer?.changed('for'));
    this.keySources.add(forKeys, 'for', true);
    this.sources.forEach((source, i) => {
      const options = { name: `${this.name}/source${i}`, seen: seen(i + 1) as ((n: Notification<never>) => ReadonlySet<string> | undefined) | undefined };
      const forKind = this.options.forKind;
      const changed = tracer?.changed(i < owns ? `owns[${i}]` : `watches[${i - owns}]`);
      this.keySources.add(changeKeys(source.informer, (n) => source.keysOf(n, forKind), options, true, changed), `source${i}`, true);
    });
  }
}
