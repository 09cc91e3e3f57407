import {
  BehaviorSubject,
  defer,
  Observable,
  of,
  Subject,
  Subscription,
  asyncScheduler,
  merge,
  share,
  shareReplay,
  takeUntil,
  type SchedulerLike,
} from 'rxjs';
import { InformerStateError, type RxkubeError } from '../errors.js';
import { deltaFifoBatch } from '../fifo/deltaFifoBatch.js';
import type { FifoBatch } from '../fifo/fifoBatch.js';
import { lister, type Lister } from '../lister/lister.js';
import type { ListWatch } from '../listwatch/listWatch.js';
import type { KubeObjectLike } from '../meta/kubeObject.js';
import { reflector } from '../reflector/reflector.js';
import type { Indexers } from '../store/indexers.js';
import type { Store } from '../store/store.js';
import { storeWriter, type StoreWriter } from '../store/storeWriter.js';
import type { AddEventHandlerOptions, HandlerLag, HandlerRegistration } from './handlerRegistration.js';
import type { Informer } from './informer.js';
import type { InformerOptions } from './informerOptions.js';
import type { Notification } from './notification.js';
import { processDeltas, type ProcessedBatch } from './processDeltas.js';
import { ProcessorListener } from './processorListener.js';
import { checkEventHandler, type EventHandler, type NotificationObserver } from './resourceEventHandler.js';
import { normalizeResyncPeriod } from './resyncPeriod.js';
import { errorLogger } from '../logging/errorLogger.js';
import { syncedSnapshots } from './syncedSnapshots.js';
import { waitForSync, type WaitForCacheSyncOptions } from './waitForSync.js';

/**
 * Where an informer is in its life:
 * - `idle`: not running (new, or left by its last subscriber: the next subscription, or `start()`,
 *   starts it again, from the snapshot it has);
 * - `running`: listing and watching (`lifecycle$` has subscribers);
 * - `stopped`: `stop()` was called; final.
 */
type Phase =
  | { readonly kind: 'idle' }
  | { readonly kind: 'running'; readonly pipeline: Subscription }
  | { readonly kind: 'stopped' };

const IDLE: Phase = { kind: 'idle' };
const STOPPED: Phase = { kind: 'stopped' };

/**
 * The informer behind {@link informer} (client-go's `sharedIndexInformer`). Internal.
 *
 * @internal
 * @example
 * ```ts
 * const pods: Informer<V1Pod> = new SharedIndexInformer(listWatch, { resyncPeriod: 30_000 });
 * ```
 */
export class SharedIndexInformer<T extends KubeObjectLike> implements Informer<T> {
  readonly scheduler: SchedulerLike;
  readonly store$: Observable<Store<T>>;
  readonly events$: Observable<Notification<T>>;
  readonly errors$: Observable<RxkubeError>;
  readonly synced$: Observable<boolean>;
  readonly syncedStore$: Observable<Store<T>>;

  private readonly writer: StoreWriter<T>;
  private readonly errors = new Subject<RxkubeError>();
  private readonly syncedSubject = new BehaviorSubject<boolean>(false);
  private readonly name: string;
  private cachedLister: Lister<T> | undefined;
  private readonly log: (error: RxkubeError) => void;
  private listeners: ReadonlyArray<ProcessorListener<T>> = [];
  /** The shared notification stream: one emission per batch; every handler subscribes to it. */
  private readonly batches = new Subject<ProcessedBatch<T>>();
  private readonly defaultResyncPeriod: number;
  /** The resync check period: each handler's own period follows it (client-go's `determineResyncPeriod`). */
  private readonly resyncCheckPeriod: BehaviorSubject<number>;
  private transform: ((obj: T) => T) | undefined;
  private phase: Phase = IDLE;
  /** Whether it has ever run: the transform is fixed from then on. */
  private ranOnce = false;
  private synced = false;
  /**
   * The informer running, shared by everyone who needs it to: `start()`, each `store$` connection
   * and each `events$` subscriber. The first subscriber starts the pipeline, the last one leaving
   * idles it (`share` counts them); `stop()` completes it for all.
   */
  private readonly lifecycle$: Observable<never>;
  private readonly stopping = new Subject<void>();
  /** `start()`'s own subscription to {@link lifecycle$}. */
  private started: Subscription | undefined;

  constructor(
    private readonly listWatch: ListWatch<T>,
    private readonly options: InformerOptions<T>,
  ) {
    this.scheduler = options.scheduler ?? asyncScheduler;
    this.defaultResyncPeriod = normalizeResyncPeriod(options.resyncPeriod);
    this.resyncCheckPeriod = new BehaviorSubject(this.defaultResyncPeriod);
    this.transform = options.transform;
    this.name = options.name ?? options.reflector?.expectedTypeName ?? '<unspecified>';
    this.log = errorLogger(options.logger, {
      resource: options.name ?? options.reflector?.expectedTypeName,
      scheduler: this.scheduler,
    });
    this.writer = storeWriter<T>({
      keyFunc: options.keyFunc,
      indexers: options.indexers,
      freeze: options.freeze,
    });
    this.errors$ = this.errors.asObservable();
    this.lifecycle$ = new Observable<never>((subscriber) => {
      if (this.phase.kind === 'stopped') {
        subscriber.complete();
        return undefined;
      }
      const pipeline = this.run();
      return () => {
        pipeline.unsubscribe();
        if (this.phase.kind === 'running') this.phase = IDLE;
      };
    }).pipe(takeUntil(this.stopping), share());
    this.synced$ = this.syncedSubject.asObservable();
    // One connection for every store$ subscriber, replaying the current snapshot; the last one
    // leaving disconnects it (and idles an informer it started), the next one connects again.
    this.store$ = defer(() =>
      this.phase.kind === 'stopped' ? of(this.writer.current) : merge(this.writer.store$, this.lifecycle$),
    ).pipe(shareReplay({ bufferSize: 1, refCount: true }));
    this.syncedStore$ = syncedSnapshots(this.store$, this.synced$);
    this.events$ = new Observable<Notification<T>>((subscriber) => {
      let registration: HandlerRegistration;
      try {
        const observer: NotificationObserver<T> = {
          next: (n) => subscriber.next(n),
          error: (e: unknown) => subscriber.error(e),
          complete: () => subscriber.complete(),
        };
        registration = this.addEventHandler(observer, { resyncPeriod: 0, name: 'events$' });
      } catch (e) {
        subscriber.error(e);
        return undefined;
      }
      const running = this.lifecycle$.subscribe(subscriber);
      return () => {
        registration.remove();
        running.unsubscribe();
      };
    });
  }

  // ---- reads ----------------------------------------------------------------------------------

  getStore(): Store<T> {
    return this.writer.current;
  }
  lister(): Lister<T> {
    // Reads through the informer's own reads, which hand out no snapshot (docs/store.md).
    return (this.cachedLister ??= lister(this));
  }
  getByKey(key: string): T | undefined {
    return this.writer.peekByKey(key);
  }
  get(obj: T): T | undefined {
    return this.writer.peekByObject(obj);
  }
  list(): ReadonlyArray<T> {
    return this.writer.peek().list();
  }
  listKeys(): ReadonlyArray<string> {
    return this.writer.peek().listKeys();
  }
  byIndex(indexName: string, value: string): T[] {
    return this.writer.peek().byIndex(indexName, value);
  }
  indexKeys(indexName: string, value: string): string[] {
    return this.writer.peek().indexKeys(indexName, value);
  }
  listIndexFuncValues(indexName: string): string[] {
    return this.writer.peek().listIndexFuncValues(indexName);
  }
  index(indexName: string, obj: T): T[] {
    return this.writer.peek().index(indexName, obj);
  }
  hasSynced(): boolean {
    return this.synced;
  }
  lastSyncResourceVersion(): string {
    // The store follows every batch's RV (list, event, bookmark): client-go's LastStoreSyncResourceVersion.
    return this.writer.peek().resourceVersion ?? '';
  }
  queuedItems(): number {
    let n = 0;
    for (const l of this.listeners) n += l.lag().queued;
    return n;
  }
  lag(): HandlerLag {
    let queued = 0;
    let oldestAgeMs = 0;
    for (const l of this.listeners) {
      const lag = l.lag();
      queued += lag.queued;
      oldestAgeMs = Math.max(oldestAgeMs, lag.oldestAgeMs);
    }
    return { queued, oldestAgeMs };
  }
  isStarted(): boolean {
    return this.phase.kind === 'running' || (this.phase.kind === 'stopped' && this.ranOnce);
  }
  isStopped(): boolean {
    return this.phase.kind === 'stopped';
  }

  waitForCacheSync(options?: WaitForCacheSyncOptions): Promise<boolean> {
    if (this.synced) return Promise.resolve(true);
    if (this.phase.kind === 'stopped') return Promise.resolve(false);
    return waitForSync(this.syncedSubject, options, this.scheduler);
  }

  // ---- configuration ----------------------------------------------------------------------------

  addIndexers(indexers: Indexers<T>): void {
    if (this.phase.kind === 'stopped') throw new InformerStateError('addIndexers: the informer has stopped');
    this.writer.addIndexers(indexers);
  }

  setTransform(transform: (obj: T) => T): void {
    if (this.ranOnce) {
      throw new InformerStateError(
        'setTransform: the informer has already started; set the transform before start',
      );
    }
    this.transform = transform;
  }

  // ---- handlers ---------------------------------------------------------------------------------

  addEventHandler(handler: EventHandler<T>, options: AddEventHandlerOptions = {}): HandlerRegistration {
    checkEventHandler(handler);
    if (this.phase.kind === 'stopped') {
      throw new InformerStateError('addEventHandler: the informer has stopped; handler not added');
    }
    const running = this.phase.kind === 'running';
    // client-go's AddEventHandlerWithResyncPeriod rules.
    let period =
      options.resyncPeriod === undefined
        ? this.defaultResyncPeriod
        : normalizeResyncPeriod(options.resyncPeriod);
    const checkPeriod = this.resyncCheckPeriod.value;
    if (period > 0 && period < checkPeriod) {
      // Running: the period becomes the check period; before start: the check period goes down,
      // and every handler's own period follows it.
      if (running) period = checkPeriod;
      else this.resyncCheckPeriod.next(period);
    }
    // A running informer, or an idle one that ran before: replay what the store holds first (I5).
    const replayFirst = running || this.writer.peek().size > 0;
    const listener = new ProcessorListener<T>(handler, options, period, {
      scheduler: this.scheduler,
      store: this.writer,
      batches$: this.batches,
      checkPeriod$: this.resyncCheckPeriod,
      initial: replayFirst ? { snapshot: this.writer.current, synced: this.synced } : undefined,
    });
    this.listeners = [...this.listeners, listener];
    // The listener's own streams: its errors onto errors$; its end (removed, overflowed) drops it.
    listener.errors$.subscribe((e) => this.emitError(e));
    listener.closed$.subscribe(() => this.drop(listener));
    if (this.phase.kind === 'running')
      this.phase.pipeline.add(listener.resyncTimer(this.resyncCheckPeriod.value));
    return listener;
  }

  removeEventHandler(registration: HandlerRegistration): void {
    const listener = registration as ProcessorListener<T>;
    if (!this.listeners.includes(listener)) return; // another informer's, or removed already
    void listener.close(); // its closed$ drops it
  }

  private drop(listener: ProcessorListener<T>): void {
    this.listeners = this.listeners.filter((l) => l !== listener);
  }

  // ---- lifecycle --------------------------------------------------------------------------------

  start(): void {
    // A subscription of its own: the informer runs until stop(), whoever else comes and goes.
    if (this.phase.kind === 'stopped' || this.started) return;
    this.started = this.lifecycle$.subscribe();
  }

  stop(): Promise<void> {
    if (this.phase.kind === 'stopped') return Promise.resolve();
    this.stopping.next(); // every lifecycle$ subscriber completes; the pipeline is torn down
    this.stopping.complete();
    this.started = undefined;
    this.phase = STOPPED;
    const listeners = this.listeners;
    this.listeners = [];
    const settled = listeners.map((l) => l.close());
    this.batches.complete();
    this.resyncCheckPeriod.complete();
    this.writer.complete();
    this.syncedSubject.complete();
    this.errors.complete();
    return Promise.all(settled).then(() => undefined);
  }

  /** Starts the pipeline (reflector, FIFO, store writes, resync timers); its subscription stops it. */
  private run(): Subscription {
    this.ranOnce = true;
    const pipeline = new Subscription();
    this.phase = { kind: 'running', pipeline };
    const r = reflector<T>(this.listWatch, {
      expectedTypeName: this.name,
      ...this.options.reflector,
      scheduler: this.scheduler,
      useWatchList: this.options.watchList,
      pageSize: this.options.pageSize,
    });
    for (const l of this.listeners) pipeline.add(l.resyncTimer(this.resyncCheckPeriod.value));
    pipeline.add(r.errors$.subscribe((e) => this.emitError(e)));
    pipeline.add(
      r.bursts$
        .pipe(
          deltaFifoBatch<T>({
            mode: this.options.fifoMode,
            keyFunc: this.options.keyFunc,
            emitDeltaTypeReplaced: true,
            transform: this.transform,
          }),
        )
        .subscribe({
          next: (batch) => this.handleBatch(batch),
          error: (e: unknown) =>
            this.emitError(
              e instanceof Error && 'code' in e
                ? (e as RxkubeError)
                : new InformerStateError(`${this.name}: the informer's pipeline failed: ${String(e)}`),
            ),
        }),
    );
    return pipeline;
  }

  /**
   * One batch: applied to the store in one write (before anyone hears), then its notifications go
   * out on the shared stream, which every handler's buffer subscribes to (an unchanged object of a
   * relist is taken only by the handlers due a resync), then `synced`.
   */
  private handleBatch(batch: FifoBatch<T>): void {
    if (batch.errors) for (const e of batch.errors) this.emitError(e);
    const done = processDeltas(this.writer, batch, this.name, this.transform === undefined);
    for (const e of done.errors) this.emitError(e);
    this.batches.next(done);
    if (batch.synced) this.markSynced();
  }

  private markSynced(): void {
    if (this.synced) return;
    this.synced = true;
    // Not completed: a late subscriber (a component created after the sync) gets `true` at once.
    this.syncedSubject.next(true);
  }

  /** The informer's one error channel: `errors$`; the logger is told too (the default subscriber). */
  private emitError(error: RxkubeError): void {
    this.log(error);
    if (!this.errors.closed) this.errors.next(error);
  }
}
