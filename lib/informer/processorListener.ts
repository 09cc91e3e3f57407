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
import type {
  AddEventHandlerOptions,
  BufferOptions,
  HandlerLag,
  HandlerRegistration,
} from './handlerRegistration.js';
import type { Notification } from './notification.js';
import type { ProcessedBatch } from './processDeltas.js';
import { Replay, resyncReplay, type ReplaySource } from './replay.js';
import { awaitHandlerResult } from './handlerResult.js';
import { NotificationBuffer } from './notificationBuffer.js';
import { determineResyncPeriod } from './resyncPeriod.js';
import { callHandler, isNotificationObserver, type EventHandler, type HandlerResult } from './resourceEventHandler.js';

/**
 * What a listener reads from its informer: the clock, and the current store snapshot (for a
 * resync's or a catch-up's replay). Reads only: a listener reports its errors on its own `errors$`
 * and its end on `closed$`, which the informer subscribes to; it calls nothing in the informer.
 *
 * @example
 * ```ts
 * const source: ListenerSource<V1Pod> = { scheduler: asyncScheduler, snapshot: () => store };
 * ```
 */
export interface ListenerSource<T> {
  readonly scheduler: SchedulerLike;
  /** The current store snapshot. */
  snapshot(): ReplaySource<T>;
}

const emptyLag: HandlerLag = Object.freeze({ queued: 0, oldestAgeMs: 0 });
const sameLag = (a: HandlerLag, b: HandlerLag): boolean =>
  a.queued === b.queued && a.oldestAgeMs === b.oldestAgeMs;

/**
 * One handler's processor (client-go's `processorListener`): its own buffer, delivered one
 * notification at a time at the handler's pace, its own resync schedule, its own sync state and lag.
 *
 * A synchronous handler with nothing queued is called inline, with no buffering, timer or Promise;
 * a handler that returns a Promise or Observable makes later notifications wait in its buffer until
 * it settles, without holding up the informer or other handlers. Errors are reported and skipped.
 *
 * Internal to the informer; users see it as a {@link HandlerRegistration}.
 *
 * @example
 * ```ts
 * // inside the informer:
 * const listener = new ProcessorListener(handler, options, resyncPeriod, resyncPeriod, source);
 * listener.push(addNotification(pod, true), 'ns/pod');
 * ```
 */
export class ProcessorListener<T> implements HandlerRegistration {
  /** The period this handler asked for (normalized), before the informer's check period applies. */
  readonly requestedResyncPeriod: number;
  private period: number;
  /**
   * Set by its own resync timer at each look: whether this listener was due, so that it also takes
   * a relist's unchanged objects until its next look (client-go's `syncingListeners`).
   */
  private syncing = false;
  readonly synced$: Observable<boolean>;
  readonly lag$: Observable<HandlerLag>;

  private nextResync = 0;
  private readonly name: string;
  private readonly buffer: BufferOptions | undefined;
  /** An Observer handler: told `complete` / `error` when the listener closes. */
  private readonly observer: boolean;
  private readonly q: NotificationBuffer<T>;
  private busy = false;
  private busyTime = -1;
  private pumping = false;
  private inflight: Subscription | undefined;
  private replayTask: Subscription | undefined;
  private inflightDone: Promise<void> | undefined;
  private replay: Replay<T> | undefined;
  /** What this handler has been told, per key: kept only for `dropAndResync`, to bring it up to date. */
  private readonly view: Map<string, T> | undefined;
  private enqueued = 0;
  private consumed = 0;
  private syncMark = -1;
  private isSynced = false;
  private closed = false;
  private readonly syncedSubject = new BehaviorSubject<boolean>(false);
  private readonly lagChanged = new Subject<void>();
  /** Emits once when the listener closes (removed, overflowed with `'error'`, or the informer stopped). */
  readonly closed$ = new Subject<void>();
  private readonly errors = new Subject<HandlerError | HandlerBufferOverflowError>();
  /** This handler's errors (thrown, rejected, errored, overflowed); completes when it closes. */
  readonly errors$: Observable<HandlerError | HandlerBufferOverflowError> = this.errors.asObservable();
  /** The subscription to the shared notification stream, and the resync timer. */
  private readonly feed = new Subscription();

  constructor(
    private readonly handler: EventHandler<T>,
    options: AddEventHandlerOptions,
    requestedResyncPeriod: number,
    resyncPeriod: number,
    private readonly host: ListenerSource<T>,
  ) {
    this.requestedResyncPeriod = requestedResyncPeriod;
    this.period = resyncPeriod;
    this.name = options.name ?? '';
    const size: unknown = options.buffer?.size;
    if (options.buffer && !(typeof size === 'number' && size >= 1)) {
      throw new ConfigError('buffer.size', `buffer.size must be at least 1 (Infinity: unbounded), got ${String(size)}`, { value: size });
    }
    this.buffer = options.buffer && Number.isFinite(options.buffer.size) ? options.buffer : undefined;
    this.observer = isNotificationObserver(handler);
    this.view = this.buffer?.overflow === 'dropAndResync' ? new Map() : undefined;
    this.q = new NotificationBuffer<T>();
    this.synced$ = this.syncedSubject.asObservable();
    this.lag$ = defer(() =>
      this.closed
        ? [this.lag()]
        : this.lagChanged.pipe(
            startWith(undefined),
            map(() => this.lag()),
            distinctUntilChanged(sameLag),
            takeUntil(this.closed$),
          ),
    );
    this.determineNextResync(host.scheduler.now());
  }

  /** The period this handler actually resyncs at (ms, 0 = never). */
  get resyncPeriod(): number {
    return this.period;
  }

  /**
   * The informer's resync check period went down before start (a handler asked for a shorter
   * period): this handler's own period follows client-go's `determineResyncPeriod`.
   */
  checkPeriodChanged(checkPeriod: number): void {
    this.period = determineResyncPeriod(this.requestedResyncPeriod, checkPeriod);
  }

  get removed(): boolean {
    return this.closed;
  }

  hasSynced(): boolean {
    return this.isSynced;
  }

  remove(): void {
    void this.close();
  }

  lag(): HandlerLag {
    const waiting = this.q.length;
    const replaying = this.replay ? this.replay.remaining() : 0;
    const queued = waiting + replaying + (this.busy ? 1 : 0);
    if (queued === 0) return emptyLag;
    const now = this.host.scheduler.now();
    let oldest = Infinity;
    if (this.busy && this.busyTime >= 0) oldest = this.busyTime;
    else if (this.replay) oldest = this.replay.startedAt;
    else if (waiting > 0) oldest = this.q.oldestTime();
    return { queued, oldestAgeMs: oldest === Infinity ? 0 : Math.max(0, now - oldest) };
  }

  /** client-go's `shouldResync`: due when its period has elapsed; period 0 never is. */
  shouldResync(now: number): boolean {
    return this.resyncPeriod !== 0 && now >= this.nextResync;
  }

  determineNextResync(now: number): void {
    this.nextResync = now + this.resyncPeriod;
  }

  /**
   * Subscribes this handler to the informer's shared notification stream: each batch's
   * notifications go to its own buffer, in order; a resync (an update with an unchanged resource
   * version) only while this handler is `syncing` (I3); a batch that synced the informer marks the
   * point after which this handler is synced.
   */
  listen(batches$: Observable<ProcessedBatch<T>>): void {
    this.feed.add(batches$.subscribe((b) => this.onBatch(b)));
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
    if (this.resyncPeriod === 0 || !(checkPeriod > 0)) return Subscription.EMPTY;
    const timer = longInterval(checkPeriod, this.host.scheduler).subscribe(() => {
      const now = this.host.scheduler.now();
      this.syncing = this.shouldResync(now);
      if (!this.syncing) return;
      this.determineNextResync(now);
      resyncReplay(this.host.snapshot(), (n, key) => this.push(n, key));
    });
    this.feed.add(timer);
    return timer;
  }

  private onBatch(batch: ProcessedBatch<T>): void {
    const { notifications, keys, resyncs } = batch;
    // An unchanged object of a relist only to the handlers due at their last look.
    const takesResyncs = this.syncing;
    for (let i = 0; i < notifications.length; i++) {
      if (!resyncs[i] || takesResyncs) this.push(notifications[i], keys[i]);
    }
    if (batch.synced) this.upstreamSynced();
  }

  /** Replays the store snapshot to a handler added to a running informer (an add per object). */
  startInitialReplay(snapshot: ReplaySource<T>): void {
    this.replay = new Replay(snapshot, this.view, true, this.host.scheduler.now());
    // Deferred, so that no callback runs inside `addEventHandler` (the registration is not even
    // returned yet); notifications that arrive meanwhile wait behind the replay.
    this.replayTask = this.host.scheduler.schedule(() => {
      this.replayTask = undefined;
      if (!this.busy) this.pump();
    });
  }

  /** The informer has synced: this handler is synced once it has handled what it has been given. */
  upstreamSynced(): void {
    if (this.syncMark < 0) this.syncMark = this.enqueued;
    this.checkSynced();
  }

  /** Adds a notification to this handler's buffer (or delivers it now if the handler is idle). */
  push(n: Notification<T>, key: string): void {
    if (this.closed) return;
    this.enqueued++;
    if (!this.busy && this.replay === undefined && this.q.length === 0 && !this.pumping) {
      // Hot path: an idle handler is called inline.
      this.run(n, key, -1);
      if (!this.busy && (this.replay !== undefined || this.q.length > 0)) this.pump();
      return;
    }
    if (this.buffer && this.q.length >= this.buffer.size) {
      this.overflow(this.buffer);
      return;
    }
    this.q.push(n, this.host.scheduler.now(), key);
    if (this.lagChanged.observed) this.lagChanged.next();
    if (!this.busy) this.pump();
  }

  /**
   * Stops delivering: drops what is queued, unsubscribes an in-flight Observable result, completes
   * (or errors) an Observer handler, completes `synced$` and `lag$`. Resolves when an in-flight
   * Promise has settled.
   */
  close(error?: HandlerBufferOverflowError): Promise<void> {
    if (!this.closed) {
      this.closed = true;
      this.feed.unsubscribe();
      this.q.clear();
      this.replay = undefined;
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
    return this.inflightDone ?? Promise.resolve();
  }

  private overflow(buffer: BufferOptions): void {
    if (buffer.overflow === 'error') {
      const err = new HandlerBufferOverflowError(buffer.size, this.name);
      this.reportError(err);
      void this.close(err);
      return;
    }
    // dropAndResync: what is waiting (and the new one) is replaced by a catch-up with the store.
    this.consumed += this.q.length + 1;
    this.q.clear();
    // Adds of a catch-up are not part of the initial list, unless it restarts the initial replay.
    const initial = this.replay?.initial ?? false;
    this.replay = new Replay(this.host.snapshot(), this.view, initial, this.host.scheduler.now());
    if (this.lagChanged.observed) this.lagChanged.next();
    if (!this.busy) this.pump();
  }

  private pump(): void {
    if (this.pumping) return;
    this.pumping = true;
    try {
      while (!this.busy && !this.closed) {
        if (this.replay !== undefined) {
          if (this.replayTask !== undefined) break;
          const next = this.replay.next();
          if (next === undefined) {
            this.replay = undefined;
            this.checkSynced();
            continue;
          }
          this.runReplayed(next.n, next.key);
          continue;
        }
        const next = this.q.take();
        if (next === undefined) break;
        this.run(next.notification, next.key, next.queuedAt);
      }
    } finally {
      this.pumping = false;
    }
  }

  /** Delivers a queued (counted) notification. */
  private run(n: Notification<T>, key: string, time: number): void {
    this.deliver(n, key, time, true);
  }

  /** Delivers a replayed notification (not counted against the buffer's sequence). */
  private runReplayed(n: Notification<T>, key: string): void {
    this.deliver(n, key, this.replay?.startedAt ?? -1, false);
  }

  private deliver(n: Notification<T>, key: string, time: number, counted: boolean): void {
    this.busy = true;
    this.busyTime = time;
    if (this.view) {
      if (n.type === 'delete') this.view.delete(key);
      else this.view.set(key, n.type === 'add' ? n.object : n.newObject);
    }
    let result: HandlerResult;
    try {
      result = callHandler(this.handler, n);
    } catch (e) {
      this.reportError(new HandlerError(n, this.name, e));
      this.finish(counted);
      return;
    }
    if (result == null) {
      this.finish(counted);
      return;
    }
    if (this.busyTime < 0) this.busyTime = this.host.scheduler.now();
    if (this.lagChanged.observed) this.lagChanged.next();
    let sync = true;
    const pending = awaitHandlerResult(result, (err, failed) => {
      this.inflight = undefined;
      this.inflightDone = undefined;
      if (this.closed) return;
      if (failed) this.reportError(new HandlerError(n, this.name, err));
      this.finish(counted);
      // Settled later: nobody is pumping now. Settled during the call: the caller's pump goes on.
      if (!sync) this.pump();
    });
    sync = false;
    this.inflight = pending.inflight;
    this.inflightDone = pending.done;
  }

  private finish(counted: boolean): void {
    this.busy = false;
    if (counted) this.consumed++;
    if (!this.isSynced) this.checkSynced();
    if (this.lagChanged.observed) this.lagChanged.next();
  }

  private checkSynced(): void {
    if (this.isSynced || this.closed || this.syncMark < 0) return;
    if (this.replay !== undefined || this.consumed < this.syncMark) return;
    if (this.busy) return;
    this.isSynced = true;
    // Not completed here: a late subscriber gets `true` at once (completed on close).
    this.syncedSubject.next(true);
  }

  /** A handler's errors go to the informer's `errors$`, its one error channel. */
  private reportError(err: HandlerError | HandlerBufferOverflowError): void {
    this.errors.next(err);
  }
}
