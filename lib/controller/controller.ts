import {
  BehaviorSubject,
  Observable,
  Subject,
  Subscription,
  asyncScheduler,
  combineLatest,
  filter,
  map,
  take,
  type SchedulerLike,
} from 'rxjs';
import type { HandlerRegistration } from '../informer/handlerRegistration.js';
import type { Notification } from '../informer/notification.js';
import type { KubeObjectLike } from '../meta/kubeObject.js';
import { errorLogger } from '../informer/errorLogger.js';
import { longTimer } from '../operators/longTimer.js';
import { LOW_PRIORITY, workQueue, type QueueItem, type WorkQueue } from '../workqueue/workQueue.js';
import { CacheSyncTimeoutError, ControllerConfigError, ControllerInputError, ReconcileError, ReconcileTimeoutError } from './controllerErrors.js';
import { newReconcileId } from './reconcileId.js';
import type { ControllerMetricEvent, ControllerStats, ControllerStatus } from './controllerMetrics.js';
import { checkControllerOptions } from './checkControllerOptions.js';
import { runReconcile, type ReconcileOutcome } from './reconcileOutcome.js';
import type { Controller, ControllerError, ControllerOptions } from './controllerOptions.js';
import {
  changePriority,
  owned,
  primaryKey,
  type TriggerSource,
} from './triggerSource.js';

// The options and the interface live in controllerOptions.ts; exported from here too.
export type { Controller, ControllerError, ControllerOptions, ForInformer } from './controllerOptions.js';

/**
 * A worker's state: `idle` (workers off), `waiting` for the queue to hand it a key, or `busy`
 * reconciling one. Only an idle worker may start waiting: a busy one takes its next key itself.
 */
type SlotState = { readonly kind: 'idle' } | { readonly kind: 'waiting'; readonly sub: Subscription } | { readonly kind: 'busy' };

interface Slot {
  state: SlotState;
}

const IDLE_SLOT: SlotState = { kind: 'idle' };
const BUSY_SLOT: SlotState = { kind: 'busy' };

/**
 * A controller (controller-runtime's `Controller`, kube-rs' `Controller`): changes of the primary
 * (`for`), of owned objects (`owns`) and of watched objects (`watches`) enqueue keys in a
 * {@link workQueue}; `concurrency` workers reconcile them, never one key in two workers at once.
 * A throw requeues the key with the rate limiter, a {@link TerminalError} does not, `{ requeueAfter }`
 * reconciles again later. Items from the initial list and unchanged resyncs go at low priority.
 *
 * ```text
 * for:        --a---a'--------b--      (changes of the primary: keys a, b)
 * owns:       -------p(a)------------   (a pod owned by a: key a)
 * reconcile:  --[a]--[a']-----[b]----   (a' and p(a) merge while a is queued)
 * ```
 *
 * @example
 * ```ts
 * const ctl = controller({
 *   for: factory.deployments(),
 *   forKind: { apiVersion: 'apps/v1', kind: 'Deployment' },
 *   owns: [factory.replicaSets()],
 *   predicates: [generationChanged],
 *   reconcile: async (key, { object }) => {
 *     if (!object) return; // deleted
 *     await ensureLabel(object);
 *   },
 *   concurrency: 4,
 * });
 * ctl.start();
 * ```
 */
export function controller<T extends KubeObjectLike>(options: ControllerOptions<T>): Controller {
  const name = options?.name ?? 'controller';
  const concurrency = checkControllerOptions(name, options);
  const sources: TriggerSource[] = [
    ...(options.owns ?? []).map((o) => ('keysOf' in o ? o : owned(o))),
    ...(options.watches ?? []),
  ];
  if (sources.some((s) => s.needsForKind) && options.forKind === undefined) {
    throw new ControllerConfigError(
      `controller ${JSON.stringify(name)}: owns needs forKind (the apiVersion and kind of the primary objects) to follow owner references`,
    );
  }
  return new ControllerRun(name, options, sources, concurrency);
}

class ControllerRun<T extends KubeObjectLike> implements Controller {
  readonly queue: WorkQueue<string>;
  readonly status$: Observable<ControllerStatus>;
  readonly errors$: Observable<ControllerError>;
  readonly metrics$: Observable<ControllerMetricEvent>;

  private readonly scheduler: SchedulerLike;
  private readonly statusSubject = new BehaviorSubject<ControllerStatus>('idle');
  private readonly errors = new Subject<ControllerError>();
  private readonly metrics = new Subject<ControllerMetricEvent>();
  private readonly slots: Slot[];
  private readonly controls = new Subscription();
  private registrations: HandlerRegistration[] = [];
  private keyFilter: (key: string) => boolean;
  private leading = true;
  private synced = false;
  private active = 0;
  private stopping: Promise<void> | undefined;
  private readonly totals = { success: 0, error: 0, requeue: 0, requeue_after: 0 };
  private errorsTotal = 0;
  private terminalTotal = 0;
  private timeoutsTotal = 0;

  constructor(
    readonly name: string,
    private readonly options: ControllerOptions<T>,
    private readonly sources: ReadonlyArray<TriggerSource>,
    private readonly concurrency: number,
  ) {
    this.scheduler = options.scheduler ?? asyncScheduler;
    this.queue = workQueue<string>({ name, rateLimiter: options.rateLimiter, scheduler: this.scheduler });
    this.status$ = this.statusSubject.asObservable();
    this.errors$ = this.errors.asObservable();
    this.metrics$ = this.metrics.asObservable();
    this.slots = Array.from({ length: concurrency }, () => ({ state: IDLE_SLOT }));
    this.keyFilter = options.keyFilter$ === undefined ? () => true : () => false;
    // The log is one subscriber of errors$ (no second error channel).
    this.errors$.subscribe(errorLogger(options.logger, { scheduler: this.scheduler }));
  }

  status(): ControllerStatus {
    return this.statusSubject.value;
  }

  stats(): ControllerStats {
    return {
      activeWorkers: this.active,
      maxConcurrentReconciles: this.concurrency,
      reconcileTotal: { ...this.totals },
      reconcileErrorsTotal: this.errorsTotal,
      terminalReconcileErrorsTotal: this.terminalTotal,
      reconcileTimeoutsTotal: this.timeoutsTotal,
    };
  }

  start(): void {
    if (this.status() !== 'idle') return;
    this.statusSubject.next('waitingForSync');
    const primary = this.options.for;
    const predicates = this.options.predicates ?? [];
    this.registrations.push(
      primary.addEventHandler(
        {
          next: (n: Notification<T>) => {
            if (predicates.every((p) => p(n))) this.enqueue(primaryKey(n), changePriority(n));
          },
        },
        { name: `${this.name}/for` },
      ),
    );
    this.sources.forEach((source, i) => {
      const handler = {
        next: (n: Notification<never>) => {
          const priority = changePriority(n as Notification<KubeObjectLike>);
          for (const key of source.keysOf(n, this.options.forKind)) this.enqueue(key, priority);
        },
      };
      this.registrations.push(source.informer.addEventHandler(handler, { name: `${this.name}/source${i}` }));
    });
    this.watchControls();
    primary.start();
    for (const source of this.sources) source.informer.start();
  }

  stop(): Promise<void> {
    this.stopping ??= new Promise<void>((resolve) => this.tearDown('stopped', resolve));
    return this.stopping;
  }

  private watchControls(): void {
    const { keyFilter$, leading$ } = this.options;
    if (keyFilter$ !== undefined) {
      this.controls.add(
        keyFilter$.subscribe({
          next: (f) => this.setKeyFilter(f),
          error: (e: unknown) => {
            this.keyFilter = () => false;
            this.errors.next(new ControllerInputError(this.name, 'keyFilter$', e));
          },
        }),
      );
    }
    if (leading$ !== undefined) {
      this.controls.add(
        leading$.subscribe({
          next: (leading) => {
            this.leading = leading;
            this.updateWorkers();
          },
          error: (e: unknown) => {
            this.leading = false;
            this.updateWorkers();
            this.errors.next(new ControllerInputError(this.name, 'leading$', e));
          },
        }),
      );
    }
    const timeoutMs = this.options.cacheSyncTimeout ?? 120_000;
    const syncTimeout = longTimer(timeoutMs, this.scheduler)
      .pipe(map(() => new CacheSyncTimeoutError(this.name, timeoutMs)))
      .subscribe((e) => {
        this.errors.next(e);
        this.stopping ??= new Promise<void>((resolve) => this.tearDown('failed', resolve));
      });
    this.controls.add(syncTimeout);
    // Handlers (not only informers) synced: every initial-list key is queued before workers start.
    this.controls.add(
      combineLatest(this.registrations.map((r) => r.synced$))
        .pipe(
          filter((all) => all.every(Boolean)),
          take(1),
        )
        .subscribe(() => {
          syncTimeout.unsubscribe();
          this.synced = true;
          this.updateWorkers();
        }),
    );
  }

  private setKeyFilter(next: (key: string) => boolean): void {
    const previous = this.keyFilter;
    this.keyFilter = next;
    // Keys that became ours: reconcile them (they may have changed while another replica had them).
    for (const key of this.options.for.listKeys()) if (next(key) && !previous(key)) this.enqueue(key, LOW_PRIORITY);
  }

  private enqueue(key: string, priority: number): void {
    if (this.queue.shuttingDown() || !this.keyFilter(key)) return;
    this.queue.add(key, { priority });
  }

  private workersOn(): boolean {
    return this.synced && this.leading && this.stopping === undefined;
  }

  private updateWorkers(): void {
    if (this.stopping !== undefined) return;
    const status = this.leading ? 'running' : 'standby';
    if (this.synced && this.status() !== status) this.statusSubject.next(status);
    for (const slot of this.slots) {
      // A busy worker is left alone either way: it takes its next key (or not) when it finishes.
      if (this.workersOn() && slot.state.kind === 'idle') this.takeNext(slot);
      else if (!this.workersOn() && slot.state.kind === 'waiting') {
        slot.state.sub.unsubscribe();
        slot.state = IDLE_SLOT;
      }
    }
  }

  // A worker: waits for a key, reconciles it, and takes the next. get$ hands keys out in a loop,
  // so synchronous reconciles do not recurse.
  private takeNext(slot: Slot): void {
    slot.state = IDLE_SLOT;
    if (!this.workersOn()) return;
    let delivered = false;
    const sub = this.queue.get$().subscribe((item) => {
      delivered = true;
      slot.state = BUSY_SLOT;
      this.process(item, slot);
    });
    if (!delivered) slot.state = { kind: 'waiting', sub };
  }

  private process({ key, priority }: QueueItem<string>, slot: Slot): void {
    if (!this.keyFilter(key)) {
      // No longer this replica's key: drop it (another replica reconciles it).
      this.queue.forget(key);
      this.queue.done(key);
      this.takeNext(slot);
      return;
    }
    this.active++;
    const startedAt = this.scheduler.now();
    const retries = this.queue.numRequeues(key);
    const abort = new AbortController();
    const reconcileId = newReconcileId();
    const ctx = { object: this.options.for.getByKey(key), priority, retries, signal: abort.signal, reconcileId };
    runReconcile(this.options.reconcile, key, ctx, abort, {
      timeoutMs: this.options.reconcileTimeout,
      scheduler: this.scheduler,
      priority,
    }).subscribe((outcome) => this.finish(key, outcome, startedAt, { retries, reconcileId }, slot));
  }

  private finish(key: string, outcome: ReconcileOutcome, startedAt: number, run: { retries: number; reconcileId: string }, slot: Slot): void {
    const { retries, reconcileId } = run;
    const seconds = (this.scheduler.now() - startedAt) / 1000;
    this.totals[outcome.result]++;
    const terminal = outcome.result === 'error' && outcome.terminal;
    const timeout = outcome.result === 'error' && outcome.error instanceof ReconcileTimeoutError;
    if (outcome.result === 'error') {
      this.errorsTotal++;
      if (terminal) this.terminalTotal++;
      if (timeout) this.timeoutsTotal++;
    }
    // Reported before `done`: the key done may end a drain, and with it errors$ and metrics$.
    this.metrics.next({ type: 'reconcile', result: outcome.result, seconds, terminal, timeout, reconcileId });
    if (outcome.result === 'error') this.errors.next(new ReconcileError(this.name, key, outcome.error, terminal, retries, reconcileId));
    try {
      this.requeue(key, outcome);
    } catch (e) {
      // A rate limiter that answered no delay (InvalidDelayError): the key is let go (not retried
      // until it changes) and reported, never left in flight with its worker dead.
      this.queue.forget(key);
      this.errors.next(new ReconcileError(this.name, key, e, true, retries, reconcileId));
    }
    this.active--;
    this.queue.done(key);
    this.takeNext(slot);
  }

  private requeue(key: string, outcome: ReconcileOutcome): void {
    const q = this.queue;
    if (q.shuttingDown()) return;
    switch (outcome.result) {
      case 'success':
        q.forget(key);
        return;
      case 'requeue_after':
        q.forget(key);
        if (this.keyFilter(key)) q.addAfter(key, outcome.ms, { priority: outcome.priority });
        return;
      case 'requeue':
        if (this.keyFilter(key)) q.addRateLimited(key, { priority: outcome.priority });
        return;
      case 'error': {
        if (outcome.terminal) {
          q.forget(key);
          return;
        }
        if (!this.keyFilter(key)) return;
        // The server said when (429 + Retry-After): then, as the reflector does, not the limiter's schedule.
        if (outcome.retryAfterMs !== undefined) q.addAfter(key, outcome.retryAfterMs, { priority: outcome.priority });
        else q.addRateLimited(key, { priority: outcome.priority });
      }
    }
  }

  private tearDown(final: 'stopped' | 'failed', resolve: () => void): void {
    for (const r of this.registrations) r.remove();
    this.registrations = [];
    this.controls.unsubscribe();
    for (const slot of this.slots) {
      if (slot.state.kind === 'waiting') slot.state.sub.unsubscribe();
      if (slot.state.kind !== 'busy') slot.state = IDLE_SLOT;
    }
    if (this.status() !== 'idle') this.statusSubject.next('stopping');
    this.queue.shutDownWithDrain().subscribe({
      complete: () => {
        this.statusSubject.next(final);
        this.statusSubject.complete();
        this.errors.complete();
        this.metrics.complete();
        resolve();
      },
    });
  }
}
