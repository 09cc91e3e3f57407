import {
  BehaviorSubject,
  Observable,
  Subject,
  defer,
  distinctUntilChanged,
  map,
  Subscription,
  startWith,
  takeUntil,
  type SchedulerLike,
} from 'rxjs';
import { ConfigError } from '../configError.js';
import { HandlerBufferOverflowError, HandlerError } from '../errors.js';
import { longInterval } from '../timers/longTimer.js';
import type { AddEventHandlerOptions, HandlerLag, HandlerRegistration } from './handlerRegistration.js';
import { awaitHandlerResult } from './handlerResult.js';
import { listenerLag, sameLag } from './listenerLag.js';
import {
  awaitingInput,
  closeInput,
  idleState,
  replayReadyInput,
  settledInput,
  type ListenerConfig,
  type ListenerEffect,
  type ListenerInput,
  type ListenerState,
  type ListenerTransition,
} from './listenerState.js';
import { listenerStep } from './listenerStep.js';
import type { Notification } from './notification.js';
import { BatchNotification, type ProcessedBatch } from './processDeltas.js';
import { Replay, resyncReplay, type ReplaySource } from './replay.js';
import {
  callHandler,
  isNotificationObserver,
  type EventHandler,
  type HandlerResult,
} from './resourceEventHandler.js';
import { determineResyncPeriod } from './resyncPeriod.js';
import { resyncLook, resyncSchedule, type ResyncSchedule } from './resyncSchedule.js';
import {
  initialSyncTracker,
  settleSync,
  trackFinished,
  trackStart,
  trackUpstreamSynced,
  type SyncTracker,
} from './syncTracker.js';

/**
 * What a listener is given by its informer, all of it read-only: the clock, the store it replays
 * from (a resync, a catch-up), the shared notification stream, the informer's resync check period,
 * and, for a handler added to a running informer (or one that ran), the snapshot to replay first.
 * A listener calls nothing in the informer: it reports on its own `errors$` and `closed$`.
 *
 * @internal
 * @example
 * ```ts
 * const inputs: ListenerInputs<V1Pod> = { scheduler, store: writer, batches$, checkPeriod$ };
 * ```
 */
export interface ListenerInputs<T> {
  readonly scheduler: SchedulerLike;
  /** The store the informer writes; `current` is its snapshot now. */
  readonly store: { readonly current: ReplaySource<T> };
  /** The informer's shared notification stream: one emission per batch. */
  readonly batches$: Observable<ProcessedBatch<T>>;
  /** The informer's resync check period: the current one on subscription, then each change. */
  readonly checkPeriod$: Observable<number>;
  /** Replay `snapshot` first (adds of the initial list); `synced`: the informer has synced. */
  readonly initial?: { readonly snapshot: ReplaySource<T>; readonly synced: boolean };
}

/**
 * One handler's processor (client-go's `processorListener`): the handler's {@link ListenerState},
 * moved on by the pure {@link listenerStep}, and the effects it asks for performed here (calling the
 * handler, waiting for its result, starting a replay); its own sync tracker, resync schedule, lag
 * and errors.
 *
 * A synchronous handler with nothing queued is called inline, with no buffering, timer or Promise;
 * a handler that returns a Promise or Observable makes later notifications wait in its buffer until
 * it settles, without holding up the informer or other handlers. Errors are reported and skipped.
 *
 * Internal to the informer; users see it as a {@link HandlerRegistration}.
 *
 * @internal
 * @example
 * ```ts
 * const listener = new ProcessorListener(handler, {}, 30_000, { scheduler, store: writer, batches$, checkPeriod$ });
 * ```
 */
export class ProcessorListener<T> implements HandlerRegistration {
  readonly synced$: Observable<boolean>;
  readonly lag$: Observable<HandlerLag>;
  /** Emits once when the listener closes (removed, overflowed with `'error'`, or the informer stopped). */
  readonly closed$ = new Subject<void>();
  /** This handler's errors (thrown, rejected, errored, overflowed); completes when it closes. */
  readonly errors$: Observable<HandlerError | HandlerBufferOverflowError>;

  private state: ListenerState<T> = idleState;
  private sync: SyncTracker = initialSyncTracker;
  private resync: ResyncSchedule;
  private period: number;
  private readonly config: ListenerConfig;
  private readonly name: string;
  /** An Observer handler: told `complete` / `error` when the listener closes. */
  private readonly observer: boolean;
  /** What this handler has been told, per key: kept only for `dropAndResync`, to bring it up to date. */
  private readonly view: Map<string, T> | undefined;
  /** The effects still running: a handler's Observable result, a Promise's settling, a deferred replay. */
  private inflight: Subscription | undefined;
  private inflightDone: Promise<void> | undefined;
  private replayTask: Subscription | undefined;
  private readonly syncedSubject = new BehaviorSubject<boolean>(false);
  private readonly lagChanged = new Subject<void>();
  private readonly errors = new Subject<HandlerError | HandlerBufferOverflowError>();
  /** The subscriptions to the inputs, and the resync timer. */
  private readonly feed = new Subscription();

  constructor(
    private readonly handler: EventHandler<T>,
    options: AddEventHandlerOptions,
    /** The period this handler asked for (normalized), before the informer's check period applies. */
    readonly requestedResyncPeriod: number,
    private readonly inputs: ListenerInputs<T>,
  ) {
    this.name = options.name ?? '';
    const size: unknown = options.buffer?.size;
    if (options.buffer && !(typeof size === 'number' && size >= 1)) {
      throw new ConfigError(
        'buffer.size',
        `buffer.size must be at least 1 (Infinity: unbounded), got ${String(size)}`,
        { value: size },
      );
    }
    const scheduler = inputs.scheduler;
    this.config = {
      bufferSize: options.buffer?.size ?? Infinity,
      overflow: options.buffer?.overflow ?? 'error',
      now: () => scheduler.now(),
    };
    this.observer = isNotificationObserver(handler);
    const bounded = Number.isFinite(this.config.bufferSize);
    this.view = bounded && this.config.overflow === 'dropAndResync' ? new Map() : undefined;
    this.errors$ = this.errors.asObservable();
    this.synced$ = this.syncedSubject.asObservable();
    this.lag$ = defer(() =>
      this.state.kind === 'closed'
        ? [this.lag()]
        : this.lagChanged.pipe(
            startWith(undefined),
            map(() => this.lag()),
            distinctUntilChanged(sameLag),
            takeUntil(this.closed$),
          ),
    );
    this.period = 0;
    this.feed.add(
      inputs.checkPeriod$.subscribe(
        (check) => (this.period = determineResyncPeriod(requestedResyncPeriod, check)),
      ),
    );
    this.resync = resyncSchedule(scheduler.now(), this.period);
    this.feed.add(inputs.batches$.subscribe((batch) => this.onBatch(batch)));
    if (inputs.initial) this.startInitialReplay(inputs.initial.snapshot, inputs.initial.synced);
  }

  /** The period this handler actually resyncs at (ms, 0 = never). */
  get resyncPeriod(): number {
    return this.period;
  }

  get removed(): boolean {
    return this.state.kind === 'closed';
  }

  hasSynced(): boolean {
    return this.sync.synced;
  }

  remove(): void {
    void this.close();
  }

  lag(): HandlerLag {
    return listenerLag(this.state, this.inputs.scheduler.now());
  }

  /**
   * This handler's own resync timer, on the informer's scheduler: every `checkPeriod` it looks
   * whether its period has elapsed (client-go's `shouldResync`); if so it is `syncing` until its
   * next look and replays the current snapshot to itself alone, an `update(obj, obj)` per object,
   * queued behind what it has not handled yet. Nothing goes round the informer: the FIFO, the store
   * and the other handlers never see a resync. Returns the timer's subscription (ended by `close()`
   * too).
   */
  resyncTimer(checkPeriod: number): Subscription {
    if (this.period === 0 || !(checkPeriod > 0)) return Subscription.EMPTY;
    const scheduler = this.inputs.scheduler;
    const timer = longInterval(checkPeriod, scheduler).subscribe(() => {
      this.resync = resyncLook(this.resync, scheduler.now(), this.period);
      if (!this.resync.syncing) return;
      resyncReplay(this.inputs.store.current, (n, key) => this.give(new BatchNotification(n, key, true)));
    });
    this.feed.add(timer);
    return timer;
  }

  /**
   * Stops delivering: drops what is queued, unsubscribes an in-flight Observable result, completes
   * (or errors) an Observer handler, completes `synced$` and `lag$`. Resolves when an in-flight
   * Promise has settled.
   */
  close(): Promise<void> {
    this.run(closeInput);
    return this.inflightDone ?? Promise.resolve();
  }

  /**
   * A batch's notifications, in order; an unchanged object of a relist only while this handler is
   * `syncing` (I3); a batch that synced the informer tells the sync tracker, after its notifications.
   */
  private onBatch(batch: ProcessedBatch<T>): void {
    const items = batch.notifications;
    const takesResyncs = this.resync.syncing;
    for (let i = 0; i < items.length; i++) {
      const item = items[i]!;
      if (!item.resync || takesResyncs) this.give(item);
    }
    if (batch.synced) {
      this.sync = trackUpstreamSynced(this.sync);
      this.settleSync();
    }
  }

  /** A notification for this handler: counted by the sync tracker, then stepped. */
  private give(item: BatchNotification<T>): void {
    if (!this.sync.synced) this.sync = trackStart(this.sync, item.notification);
    this.run(item);
  }

  /** Replays the store snapshot to a handler added to a running informer (an add per object). */
  private startInitialReplay(snapshot: ReplaySource<T>, synced: boolean): void {
    const replay = new Replay(snapshot, this.view, true, this.inputs.scheduler.now());
    this.run({ type: 'replay', replay, deferred: true });
    if (synced) this.sync = trackUpstreamSynced(this.sync);
    // Deferred, so that no callback runs inside `addEventHandler` (the registration is not even
    // returned yet); notifications that arrive meanwhile wait behind the replay.
    this.replayTask = this.inputs.scheduler.schedule(() => {
      this.replayTask = undefined;
      this.run(replayReadyInput);
    });
  }

  /** Steps `input`, then performs the effects, until one asks for nothing more. */
  private run(input: ListenerInput<T>): void {
    this.perform(listenerStep(this.state, input, this.config), input);
  }

  private perform(first: ListenerTransition<T>, input: ListenerInput<T> | undefined): void {
    let t = first;
    for (;;) {
      this.state = t.state;
      if (!this.sync.synced) this.settleSync();
      if (this.lagChanged.observed) this.lagChanged.next();
      const e = t.effect;
      if (e.kind === 'none') return;
      let next: ListenerTransition<T> | undefined;
      // The deliveries first: they are the hot path.
      if (e.kind === 'deliverInput') {
        const item = input as BatchNotification<T>;
        next = this.deliver(item.notification, item.key, true);
      } else if (e.kind === 'deliver') {
        next = this.deliver(e.notification, e.key, e.counted);
      } else {
        next = this.otherEffect(e);
      }
      if (next === undefined) return;
      t = next;
    }
  }

  /** Performs an effect other than a delivery; a catch-up returns the step that starts its replay. */
  private otherEffect(e: ListenerEffect<T>): ListenerTransition<T> | undefined {
    switch (e.kind) {
      case 'catchUp': {
        for (const n of e.dropped) this.sync = trackFinished(this.sync, n);
        const replay = new Replay(
          this.inputs.store.current,
          this.view,
          e.initial,
          this.inputs.scheduler.now(),
        );
        return listenerStep(this.state, { type: 'replay', replay, deferred: false }, this.config);
      }
      case 'overflow': {
        const err = new HandlerBufferOverflowError(this.config.bufferSize, this.name);
        this.errors.next(err);
        this.teardown(err);
        return undefined;
      }
      case 'close':
        this.teardown(undefined);
        return undefined;
      default:
        return undefined;
    }
  }

  /**
   * Calls the handler. Returns the step after it when it is done at once (returned nothing, threw,
   * or its result settled during the call); otherwise its settling performs that step later.
   */
  private deliver(n: Notification<T>, key: string, counted: boolean): ListenerTransition<T> | undefined {
    if (this.view) {
      if (n.type === 'delete') this.view.delete(key);
      else this.view.set(key, n.type === 'add' ? n.object : n.newObject);
    }
    let result: HandlerResult;
    try {
      result = callHandler(this.handler, n, key);
    } catch (e) {
      this.errors.next(new HandlerError(n, this.name, e));
      return this.finished(n, counted);
    }
    if (result == null) return this.finished(n, counted);
    return this.awaitResult(result, n, counted);
  }

  /**
   * The handler returned a Promise or Observable: it counts in the lag until it settles. A method of
   * its own so that a synchronous delivery costs nothing for it (docs/PERFORMANCE.md, "A handler's
   * listener on the inline path").
   */
  private awaitResult(
    result: PromiseLike<unknown> | Observable<unknown>,
    n: Notification<T>,
    counted: boolean,
  ): ListenerTransition<T> | undefined {
    this.state = listenerStep(this.state, awaitingInput, this.config).state;
    if (this.lagChanged.observed) this.lagChanged.next();
    let during = true;
    let settledDuring: ListenerTransition<T> | undefined;
    const pending = awaitHandlerResult(result, (err, failed) => {
      this.inflight = undefined;
      this.inflightDone = undefined;
      if (this.state.kind === 'closed') return;
      if (failed) this.errors.next(new HandlerError(n, this.name, err));
      const next = this.finished(n, counted);
      // Settled during the call: the caller's loop goes on. Settled later: this goes on.
      if (during) settledDuring = next;
      else this.perform(next, undefined);
    });
    during = false;
    this.inflight = pending.inflight;
    this.inflightDone = pending.done;
    return settledDuring;
  }

  private finished(n: Notification<T>, counted: boolean): ListenerTransition<T> {
    if (counted && !this.sync.synced) this.sync = trackFinished(this.sync, n);
    return listenerStep(this.state, settledInput, this.config);
  }

  private settleSync(): void {
    if (this.sync.synced || this.state.kind === 'closed') return;
    this.sync = settleSync(this.sync, this.state.kind === 'replaying');
    // Not completed here: a late subscriber gets `true` at once (completed on close).
    if (this.sync.synced) this.syncedSubject.next(true);
  }

  private teardown(error: HandlerBufferOverflowError | undefined): void {
    this.feed.unsubscribe();
    this.inflight?.unsubscribe();
    this.inflight = undefined;
    this.replayTask?.unsubscribe();
    this.replayTask = undefined;
    if (this.observer) {
      const obs = this.handler as { error?: (e: unknown) => void; complete?: () => void };
      try {
        if (error) obs.error?.(error);
        else obs.complete?.();
      } catch {
        // An Observer that throws on completion has nothing left to be told.
      }
    }
    this.closed$.next();
    this.closed$.complete();
    this.errors.complete();
    this.lagChanged.complete();
    this.syncedSubject.complete();
  }
}
