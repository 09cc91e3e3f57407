import {
  BehaviorSubject,
  Observable,
  Subject,
  Subscription,
  asyncScheduler,
  filter,
  map,
  merge,
  type SchedulerLike,
} from 'rxjs';
import { declareParts } from '../rbac/permission.js';
import { ConfigError } from '../configError.js';
import type { Notification } from '../informer/notification.js';
import type { KubeObjectLike } from '../meta/kubeObject.js';
import { errorLogger } from '../logging/errorLogger.js';
import { longTimer } from '../timers/longTimer.js';
import { LOW_PRIORITY, workQueue, type QueueItem, type WorkQueue } from '../workqueue/workQueue.js';
import { CacheSyncTimeoutError, ControllerInputError, ReconcileError, ReconcileTimeoutError } from './controllerErrors.js';
import { newReconcileId } from './reconcileId.js';
import type { ControllerMetricEvent, ControllerStats, ControllerStatus } from './controllerMetrics.js';
import { checkControllerOptions } from './checkControllerOptions.js';
import { runReconcile, type ReconcileOutcome } from './reconcileOutcome.js';
import { requeueAfter } from './requeueAfter.js';
import type { OwnWritesOutcome } from './awaitOwnWrites.js';
import { OwnWritesGate } from './ownWritesGate.js';
import { OwnWritesTimeoutError } from './ownWritesTimeoutError.js';
import { WriteLedger, kindOf, watchedCache } from './writeLedger.js';
import { recordWrite } from '../write/writeTracker.js';
import type { Controller, ControllerError, ControllerOptions } from './controllerOptions.js';
import type { ReconcileContext } from './reconciler.js';
import { owned, type TriggerSource } from './triggerSource.js';
import { ControllerSources } from './controllerSources.js';
import { forKeys, triggerKeys, type KeySource } from './keySource.js';
import type { ReconcileReport } from './reconcileReport.js';
import { lifetimeOf } from '../meta/lifetime.js';

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

/** How long a key waits for its own writes by default (`readYourWritesTimeout`), in ms. */
export const DEFAULT_READ_YOUR_WRITES_TIMEOUT_MS = 5000;

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
    throw new ConfigError(
      'forKind',
      `controller ${JSON.stringify(name)}: owns needs forKind (the apiVersion and kind of the primary objects) to follow owner references`,
    );
  }
  const run = new ControllerRun(name, options, sources, concurrency);
  // What it needs, for RBAC generation (permissionsOf): its informers' reads and what it declares.
  declareParts(run, [options.for, ...sources.map((s) => s.informer), ...(options.permissions ?? [])]);
  return run;
}

class ControllerRun<T extends KubeObjectLike> implements Controller {
  readonly queue: WorkQueue<string>;
  readonly status$: Observable<ControllerStatus>;
  readonly errors$: Observable<ControllerError>;
  readonly metrics$: Observable<ControllerMetricEvent>;
  readonly results$: Observable<ReconcileReport>;

  private readonly scheduler: SchedulerLike;
  private readonly results = new Subject<ReconcileReport>();
  private readonly keySources: ControllerSources;
  private syncTimeout: Subscription | undefined;
  private readonly statusSubject = new BehaviorSubject<ControllerStatus>('idle');
  private readonly errors = new Subject<ControllerError>();
  private readonly metrics = new Subject<ControllerMetricEvent>();
  private readonly slots: Slot[];
  private readonly controls = new Subscription();
  private keyFilter: (key: string) => boolean;
  private leading = true;
  private synced = false;
  private active = 0;
  private stopping: Promise<void> | undefined;
  private readonly totals = { success: 0, error: 0, requeue: 0, requeue_after: 0 };
  private errorsTotal = 0;
  private terminalTotal = 0;
  private timeoutsTotal = 0;
  private ownWritesWaits = 0;
  private ownWritesTimeouts = 0;
  private readonly gate: OwnWritesGate | undefined;
  private release: (() => void) | undefined;

  constructor(
    readonly name: string,
    private readonly options: ControllerOptions<T>,
    private readonly sources: ReadonlyArray<TriggerSource>,
    private readonly concurrency: number,
  ) {
    this.scheduler = options.scheduler ?? asyncScheduler;
    this.queue = workQueue<string>({ name, rateLimiter: options.rateLimiter, scheduler: this.scheduler });
    this.status$ = this.statusSubject.asObservable();
    this.results$ = this.results.asObservable();
    this.keySources = new ControllerSources({
      name,
      enqueue: (key, priority) => this.enqueue(key, priority),
      synced: () => this.onSynced(),
    });
    // Errors and metrics of reconciles are derived from results$; the sources' errors are theirs;
    // the rest are the controller's own.
    this.errors$ = merge(
      this.errors,
      this.keySources.errors$,
      this.results.pipe(
        filter((r) => r.result === 'error'),
        map((r) => new ReconcileError(this.name, r.key, r.error, r.terminal, r.retries, r.reconcileId)),
      ),
    );
    this.metrics$ = merge(
      this.metrics,
      this.results.pipe(
        map((r): ControllerMetricEvent => ({
          type: 'reconcile',
          result: r.result,
          seconds: r.seconds,
          terminal: r.terminal,
          timeout: r.timeout,
          reconcileId: r.reconcileId,
        })),
      ),
    );
    this.addOwnSources();
    (options.sources ?? []).forEach((source, i) => this.keySources.add(source, `sources[${i}]`, false));
    this.slots = Array.from({ length: concurrency }, () => ({ state: IDLE_SLOT }));
    this.keyFilter = options.keyFilter$ === undefined ? () => true : () => false;
    // The log is one subscriber of errors$ (no second error channel).
    this.errors$.subscribe(errorLogger(options.logger, { scheduler: this.scheduler }));
    this.gate = options.readYourWrites === false ? undefined : this.ownWritesGate();
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
    this.ownWritesWaits++;
    const timedOut = outcome.kind === 'timedOut';
    this.metrics.next({ type: 'ownWritesWait', seconds: outcome.waitedMs / 1000, timedOut });
    if (outcome.kind === 'timedOut') {
      this.ownWritesTimeouts++;
      const timeoutMs = this.options.readYourWritesTimeout ?? DEFAULT_READ_YOUR_WRITES_TIMEOUT_MS;
      this.errors.next(new OwnWritesTimeoutError(this.name, key, timeoutMs, outcome.pending));
    }
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
      ownWritesWaitsTotal: this.ownWritesWaits,
      ownWritesTimeoutsTotal: this.ownWritesTimeouts,
    };
  }

  start(): void {
    if (this.status() !== 'idle') return;
    // Its informer is of the fake API server's KubeConfig: the server's close() stops it if it still runs.
    this.release = lifetimeOf(this.options.for)?.adopt(this, () => `controller ${JSON.stringify(this.name)} (call its stop())`, () => this.stop());
    this.statusSubject.next('waitingForSync');
    this.watchControls();
    this.keySources.start();
  }

  addSource(source: KeySource, name?: string): Subscription {
    return this.keySources.add(source, name);
  }

  // for, owns and watches: sources built from the informers, each told to the read-your-own-writes
  // gate first; the controller reconciles once all of them have synced.
  private addOwnSources(): void {
    const forKind = this.options.forKind;
    // Read at each change (the gate is made after the sources): undefined when it is off.
    const seen = (cache: number) => (n: Notification<KubeObjectLike>) => this.gate?.saw(cache, n);
    this.keySources.add(
      forKeys(this.options.for, this.options.predicates ?? [], { name: `${this.name}/for`, seen: seen(0) }),
      'for',
      true,
    );
    this.sources.forEach((source, i) => {
      const options = { name: `${this.name}/source${i}`, seen: seen(i + 1) as (n: Notification<never>) => ReadonlySet<string> | undefined };
      this.keySources.add(triggerKeys(source, forKind, options), `source${i}`, true);
    });
  }

  private onSynced(): void {
    this.syncTimeout?.unsubscribe();
    this.synced = true;
    this.updateWorkers();
  }

  stop(): Promise<void> {
    this.release?.();
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
    this.syncTimeout = longTimer(timeoutMs, this.scheduler)
      .pipe(map(() => new CacheSyncTimeoutError(this.name, timeoutMs)))
      .subscribe((e) => {
        this.errors.next(e);
        this.stopping ??= new Promise<void>((resolve) => this.tearDown('failed', resolve));
      });
    this.controls.add(this.syncTimeout);
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
      // No longer this replica's key: drop it (another replica reconciles it), and its writes.
      this.queue.forget(key);
      this.gate?.forget(key);
      this.queue.done(key);
      this.takeNext(slot);
      return;
    }
    if (this.gate === undefined) return this.reconcile(key, priority, slot, 0);
    this.gate.gate(
      key,
      (waited) => this.reconcile(key, priority, slot, waited),
      () => {
        this.queue.done(key);
        this.takeNext(slot);
      },
    );
  }

  private reconcile(key: string, priority: number, slot: Slot, waited: number): void {
    this.active++;
    const startedAt = this.scheduler.now();
    const retries = this.queue.numRequeues(key);
    // Made on first use: most reconciles never read their signal, and an AbortController (with its
    // signal) costs more than the rest of a trivial reconcile's bookkeeping.
    let aborter: AbortController | undefined;
    const abort = { abort: () => (aborter ??= new AbortController()).abort() };
    const reconcileId = newReconcileId();
    const tracker = this.gate?.tracker(key) ?? { wrote: () => undefined };
    const ctx: ReconcileContext<T> = {
      object: this.options.for.getByKey(key),
      priority,
      retries,
      get signal() {
        return (aborter ??= new AbortController()).signal;
      },
      reconcileId,
      wrote: tracker.wrote,
      track: async <R>(write: PromiseLike<R>) => recordWrite(tracker, await write),
    };
    runReconcile(this.options.reconcile, key, ctx, abort, {
      timeoutMs: this.options.reconcileTimeout,
      scheduler: this.scheduler,
      priority,
    }).subscribe((outcome) => this.finish(key, outcome, startedAt, { retries, reconcileId, priority, waited }, slot));
  }

  private finish(
    key: string,
    outcome: ReconcileOutcome,
    startedAt: number,
    run: { retries: number; reconcileId: string; priority: number; waited: number },
    slot: Slot,
  ): void {
    const { retries, reconcileId, priority, waited } = run;
    const seconds = (this.scheduler.now() - startedAt) / 1000;
    this.totals[outcome.result]++;
    const terminal = outcome.result === 'error' && outcome.terminal;
    const timeout = outcome.result === 'error' && outcome.error instanceof ReconcileTimeoutError;
    if (outcome.result === 'error') {
      this.errorsTotal++;
      if (terminal) this.terminalTotal++;
      if (timeout) this.timeoutsTotal++;
    }
    // Reported before `done`: the key done may end a drain, and with it results$ (errors$, metrics$).
    this.results.next({
      key,
      result: outcome.result,
      error: outcome.result === 'error' ? outcome.error : undefined,
      terminal,
      timeout,
      seconds,
      requeueAfterMs: outcome.result === 'requeue_after' ? outcome.ms : undefined,
      priority,
      retries,
      ownWritesWaitSeconds: waited,
      reconcileId,
    });
    try {
      requeueAfter(this.queue, key, outcome, this.keyFilter);
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

  private tearDown(final: 'stopped' | 'failed', resolve: () => void): void {
    this.keySources.close();
    this.controls.unsubscribe();
    // Keys waiting for their own writes are let go unreconciled (as keys still queued are).
    this.gate?.close();
    for (const slot of this.slots) {
      if (slot.state.kind === 'waiting') slot.state.sub.unsubscribe();
      if (slot.state.kind !== 'busy') slot.state = IDLE_SLOT;
    }
    if (this.status() !== 'idle') this.statusSubject.next('stopping');
    this.queue.shutDownWithDrain().subscribe({
      complete: () => {
        this.statusSubject.next(final);
        this.statusSubject.complete();
        this.results.complete();
        this.errors.complete();
        this.metrics.complete();
        resolve();
      },
    });
  }
}
