import {
  BehaviorSubject,
  EMPTY,
  Observable,
  Subject,
  Subscription,
  asapScheduler,
  asyncScheduler,
  concatAll,
  filter,
  interval,
  map,
  merge,
  type SchedulerLike,
} from 'rxjs';
import { HandlerBufferOverflowError, HandlerError, InformerStateError, type RxkubeError } from '../errors.js';
import { DeltaType } from '../fifo/delta.js';
import { deltaFifo } from '../fifo/deltaFifo.js';
import type { FifoPop } from '../fifo/fifoOutput.js';
import type { FifoMode } from '../fifo/fifoQueue.js';
import type { ListWatch } from '../listwatch/listWatch.js';
import type { KeyFunc } from '../meta/keys.js';
import type { KubeObject } from '../meta/kubeObject.js';
import { reflector, type ReflectorOptions } from '../reflector/reflector.js';
import type { ReflectorEvent } from '../reflector/reflectorEvent.js';
import type { Indexers } from '../store/indexers.js';
import type { Store } from '../store/store.js';
import { storeWriter, type StoreWriter } from '../store/storeWriter.js';
import type { AddEventHandlerOptions, HandlerRegistration } from './handlerRegistration.js';
import {
  addNotification,
  deleteNotification,
  updateNotification,
  type Notification,
} from './notification.js';
import { ProcessorListener, type ListenerHost } from './processorListener.js';
import type { EventHandler, NotificationObserver } from './resourceEventHandler.js';
import { determineResyncPeriod, normalizeResyncPeriod } from './resyncPeriod.js';

/**
 * Options of {@link informer}. All optional.
 *
 * @example
 * ```ts
 * const options: InformerOptions<V1Pod> = {
 *   resyncPeriod: 30_000,
 *   indexers: { byNode: (p) => (p.spec?.nodeName ? [p.spec.nodeName] : []) },
 *   transform: stripManagedFields,
 * };
 * ```
 */
export interface InformerOptions<T> {
  /**
   * The default handler resync period and the resync check period (ms), as the `resync` argument of
   * client-go's `NewSharedIndexInformer`. 0 (default): no resync. See `addEventHandler`.
   */
  readonly resyncPeriod?: number;
  /** Named index functions, on top of the `namespace` index. More can be added later. */
  readonly indexers?: Indexers<T>;
  /** The store key. Default `namespace/name`. */
  readonly keyFunc?: KeyFunc<T>;
  /**
   * Runs once on each object from the server before it is stored or handed to anyone (client-go's
   * `SetTransform`), e.g. {@link stripManagedFields}. Set here or with `setTransform` before start.
   */
  readonly transform?: (obj: T) => T;
  /** The delta FIFO's mode: `coalescing` (client-go's DeltaFIFO, default) or `ordered` (RealFIFO). */
  readonly fifoMode?: FifoMode;
  /** Start each list with a streaming list (watch-list), falling back to list + watch. Default false. */
  readonly watchList?: boolean;
  /** The page size of lists (see the reflector's `pageSize`). */
  readonly pageSize?: number;
  /**
   * The clock of every timer (resync check, reflector backoff, watch timeouts) and of lag figures.
   * Default `asyncScheduler`; a `TestScheduler` runs the whole informer on virtual time.
   */
  readonly scheduler?: SchedulerLike;
  /** Other reflector options (backoff, timeouts, type name in messages, ...). */
  readonly reflector?: Omit<
    ReflectorOptions,
    'scheduler' | 'useWatchList' | 'pageSize' | 'watchErrorHandler'
  >;
  /** Called with every error, as `errors$` emits it (client-go's `SetWatchErrorHandler`, plus handler errors). */
  readonly onError?: (error: RxkubeError) => void;
}

/**
 * The informer of one resource (client-go's `SharedIndexInformer`): it lists and watches through a
 * {@link ListWatch}, keeps an indexed store of immutable snapshots, and tells each handler of every
 * change, in order, at the handler's own pace.
 *
 * Lifecycle: created idle; `start()` (or a first subscription to `store$` / `events$`) starts it;
 * `stop()` tears down the request in flight, every timer and every handler; a stopped informer stays
 * stopped. An informer started by a subscription (never by `start()`) stops when its last `store$`
 * / `events$` subscriber leaves.
 *
 * @example
 * ```ts
 * const pods = informer(listWatch<V1Pod>(kubeConfig, podsResource), { resyncPeriod: 60_000 });
 * pods.addEventHandler({ add: (pod) => console.log('add', pod.metadata?.name) });
 * pods.start();
 * await pods.waitForCacheSync();
 * pods.list().length;
 * ```
 */
export interface Informer<T> {
  /** The current store snapshot, then each new one (replays the current one, as a BehaviorSubject). Starts the informer. */
  readonly store$: Observable<Store<T>>;
  /**
   * Every notification, for as long as you are subscribed: an `add` for each object already stored
   * first, then changes (resyncs excluded). Each subscription is a handler with an unbounded buffer.
   * Starts the informer.
   */
  readonly events$: Observable<Notification<T>>;
  /** Every error: list/watch errors the reflector recovers from, handler errors, objects without a key. Hot. */
  readonly errors$: Observable<RxkubeError>;
  /** `false`, then `true` once the first list has been stored and distributed, then completes. */
  readonly synced$: Observable<boolean>;
  /** The store's current snapshot (client-go's `GetStore` / `GetIndexer`). */
  getStore(): Store<T>;
  getByKey(key: string): T | undefined;
  get(obj: T): T | undefined;
  list(): ReadonlyArray<T>;
  listKeys(): ReadonlyArray<string>;
  byIndex(indexName: string, value: string): T[];
  indexKeys(indexName: string, value: string): string[];
  listIndexFuncValues(indexName: string): string[];
  index(indexName: string, obj: T): T[];
  /** Adds indexes, built over what is stored; allowed while running. A clashing name throws. */
  addIndexers(indexers: Indexers<T>): void;
  /** Sets the transform; throws {@link InformerStateError} once started. */
  setTransform(transform: (obj: T) => T): void;
  /** True once the first list has been stored and distributed (client-go's `HasSynced`). */
  hasSynced(): boolean;
  /** Resolves `true` once synced, `false` if the informer stops first (client-go's `WaitForCacheSync`). */
  waitForCacheSync(): Promise<boolean>;
  /** The resource version of the last list or event seen, `''` before any. */
  lastSyncResourceVersion(): string;
  /** Adds a handler; throws {@link InformerStateError} on a stopped informer. */
  addEventHandler(handler: EventHandler<T>, options?: AddEventHandlerOptions): HandlerRegistration;
  /** Removes a handler; idempotent; a registration of another informer is ignored. */
  removeEventHandler(registration: HandlerRegistration): void;
  /** Starts listing and watching; no-op when started or stopped. */
  start(): void;
  /** Stops everything; resolves once handler calls in flight have settled. Idempotent. */
  stop(): Promise<void>;
  isStarted(): boolean;
  isStopped(): boolean;
}

/**
 * Creates the informer of one resource: `informer(listWatch, options)`. This is the entry point the
 * shared informer factory calls (one per resource and namespace); it can be used on its own too.
 *
 * Pipeline: reflector events (+ a `resync` event when the resync check finds a handler due) ->
 * `deltaFifo` (knowing the store) -> each pop applied to the store as one batch -> notifications
 * distributed to every handler's own buffer (resyncs only to handlers that are due).
 *
 * ```text
 * reflector:  --R[a,b]-------u(a2)---------R[a2]--
 * resync:     ------------------------t-----------   t: a handler is due (check period elapsed)
 * store$:     S0-S1-----------S2--------------------  store updated before anyone hears (I1)
 * handler:    ---A(a)B(b)-----U(a,a2)-U(a2,a2)------  U(x,x): a resync, only to handlers due
 * ```
 *
 * @example
 * ```ts
 * const lw = listWatch<V1Pod>(kubeConfig, { group: '', version: 'v1', plural: 'pods', namespaced: true });
 * const pods = informer(lw, { resyncPeriod: 30_000, transform: stripManagedFields });
 * const reg = pods.addEventHandler({
 *   add: (pod) => console.log('added', pod.metadata?.name),
 *   update: (oldPod, pod) => console.log('updated', pod.metadata?.name),
 *   delete: (obj) => console.log('deleted', obj instanceof DeletedFinalStateUnknown ? obj.key : obj.metadata?.name),
 * });
 * pods.start();
 * await pods.waitForCacheSync();
 * // ...
 * await pods.stop();
 * ```
 */
export function informer<T extends KubeObject>(
  listWatch: ListWatch<T>,
  options: InformerOptions<T> = {},
): Informer<T> {
  return new SharedIndexInformer<T>(listWatch, options);
}

const RESYNC: ReflectorEvent<never> = Object.freeze({ type: 'resync' as const });

class SharedIndexInformer<T extends KubeObject> implements Informer<T>, ListenerHost<T> {
  readonly scheduler: SchedulerLike;
  readonly store$: Observable<Store<T>>;
  readonly events$: Observable<Notification<T>>;
  readonly errors$: Observable<RxkubeError>;
  readonly synced$: Observable<boolean>;

  private readonly writer: StoreWriter<T>;
  private readonly errors = new Subject<RxkubeError>();
  private readonly syncedSubject = new BehaviorSubject<boolean>(false);
  private listeners: ReadonlyArray<ProcessorListener<T>> = [];
  private syncingListeners: ReadonlyArray<ProcessorListener<T>> = [];
  private readonly defaultResyncPeriod: number;
  private resyncCheckPeriod: number;
  private transform: ((obj: T) => T) | undefined;
  private started = false;
  private stopped = false;
  private synced = false;
  private startedBySubscription = false;
  private subscribers = 0;
  private pipeline: Subscription | undefined;
  private rv = '';

  constructor(
    private readonly listWatch: ListWatch<T>,
    private readonly options: InformerOptions<T>,
  ) {
    this.scheduler = options.scheduler ?? asyncScheduler;
    this.defaultResyncPeriod = normalizeResyncPeriod(options.resyncPeriod);
    this.resyncCheckPeriod = this.defaultResyncPeriod;
    this.transform = options.transform;
    this.writer = storeWriter<T>({ keyFunc: options.keyFunc, indexers: options.indexers });
    this.errors$ = this.errors.asObservable();
    this.synced$ = this.syncedSubject.asObservable();
    this.store$ = new Observable<Store<T>>((subscriber) => {
      if (this.stopped) {
        // The writer has completed: still replay the last snapshot.
        subscriber.next(this.writer.current);
        subscriber.complete();
        return undefined;
      }
      const sub = this.writer.store$.subscribe(subscriber);
      this.retain();
      return () => {
        sub.unsubscribe();
        this.release();
      };
    });
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
      this.retain();
      return () => {
        registration.remove();
        this.release();
      };
    });
  }

  // ---- reads ----------------------------------------------------------------------------------

  getStore(): Store<T> {
    return this.writer.current;
  }
  snapshot(): Store<T> {
    return this.writer.current;
  }
  getByKey(key: string): T | undefined {
    return this.writer.current.getByKey(key);
  }
  get(obj: T): T | undefined {
    return this.writer.current.get(obj);
  }
  list(): ReadonlyArray<T> {
    return this.writer.current.list();
  }
  listKeys(): ReadonlyArray<string> {
    return this.writer.current.listKeys();
  }
  byIndex(indexName: string, value: string): T[] {
    return this.writer.current.byIndex(indexName, value);
  }
  indexKeys(indexName: string, value: string): string[] {
    return this.writer.current.indexKeys(indexName, value);
  }
  listIndexFuncValues(indexName: string): string[] {
    return this.writer.current.listIndexFuncValues(indexName);
  }
  index(indexName: string, obj: T): T[] {
    return this.writer.current.index(indexName, obj);
  }
  hasSynced(): boolean {
    return this.synced;
  }
  lastSyncResourceVersion(): string {
    return this.rv;
  }
  isStarted(): boolean {
    return this.started;
  }
  isStopped(): boolean {
    return this.stopped;
  }

  waitForCacheSync(): Promise<boolean> {
    if (this.synced) return Promise.resolve(true);
    if (this.stopped) return Promise.resolve(false);
    return new Promise<boolean>((resolve) => {
      this.syncedSubject.subscribe({ next: (v) => v && resolve(true), complete: () => resolve(this.synced) });
    });
  }

  // ---- configuration ----------------------------------------------------------------------------

  addIndexers(indexers: Indexers<T>): void {
    if (this.stopped) throw new InformerStateError('addIndexers: the informer has stopped');
    this.writer.addIndexers(indexers);
  }

  setTransform(transform: (obj: T) => T): void {
    if (this.started || this.stopped) {
      throw new InformerStateError(
        'setTransform: the informer has already started; set the transform before start',
      );
    }
    this.transform = transform;
  }

  // ---- handlers ---------------------------------------------------------------------------------

  addEventHandler(handler: EventHandler<T>, options: AddEventHandlerOptions = {}): HandlerRegistration {
    if (this.stopped) {
      throw new InformerStateError('addEventHandler: the informer has stopped; handler not added');
    }
    // client-go's AddEventHandlerWithResyncPeriod rules.
    let period =
      options.resyncPeriod === undefined
        ? this.defaultResyncPeriod
        : normalizeResyncPeriod(options.resyncPeriod);
    if (period > 0 && period < this.resyncCheckPeriod) {
      if (this.started) {
        period = this.resyncCheckPeriod;
      } else {
        this.resyncCheckPeriod = period;
        for (const l of this.listeners)
          l.resyncPeriod = determineResyncPeriod(l.requestedResyncPeriod, period);
      }
    }
    const listener = new ProcessorListener<T>(
      handler,
      options,
      period,
      determineResyncPeriod(period, this.resyncCheckPeriod),
      this,
    );
    this.listeners = [...this.listeners, listener];
    if (this.started) {
      listener.startInitialReplay(this.writer.current);
      if (this.synced) listener.upstreamSynced();
    }
    return listener;
  }

  removeEventHandler(registration: HandlerRegistration): void {
    const listener = registration as ProcessorListener<T>;
    if (!this.listeners.includes(listener)) return;
    this.remove(listener);
    void listener.close();
  }

  /** ListenerHost: a registration's `remove()`, and the `'error'` overflow policy. */
  remove(listener: ProcessorListener<T>): void {
    if (!this.listeners.includes(listener)) return;
    this.listeners = this.listeners.filter((l) => l !== listener);
    this.syncingListeners = this.syncingListeners.filter((l) => l !== listener);
    void listener.close();
  }

  /** ListenerHost: handler errors go to `errors$`. */
  report(error: HandlerError | HandlerBufferOverflowError): void {
    this.emitError(error);
  }

  // ---- lifecycle --------------------------------------------------------------------------------

  start(): void {
    this.startedBySubscription = false;
    this.run();
  }

  stop(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    this.stopped = true;
    this.pipeline?.unsubscribe();
    this.pipeline = undefined;
    const listeners = this.listeners;
    this.listeners = [];
    this.syncingListeners = [];
    const settled = listeners.map((l) => l.close());
    this.writer.complete();
    this.syncedSubject.complete();
    this.errors.complete();
    return Promise.all(settled).then(() => undefined);
  }

  private retain(): void {
    this.subscribers++;
    if (!this.started && !this.stopped) {
      this.run();
      this.startedBySubscription = true;
    }
  }

  private release(): void {
    this.subscribers--;
    if (this.subscribers === 0 && this.startedBySubscription) void this.stop();
  }

  private run(): void {
    if (this.started || this.stopped) return;
    this.started = true;
    const r = reflector<T>(this.listWatch, {
      ...this.options.reflector,
      scheduler: this.scheduler,
      useWatchList: this.options.watchList,
      pageSize: this.options.pageSize,
    });
    const transform = this.transform;
    const checkPeriod = this.resyncCheckPeriod;
    const resync$: Observable<ReflectorEvent<T>> =
      checkPeriod > 0
        ? interval(checkPeriod, this.scheduler).pipe(
            filter(() => this.shouldResync()),
            map(() => RESYNC),
          )
        : EMPTY;
    const store = this.writer;
    const pipeline = new Subscription();
    pipeline.add(r.errors$.subscribe((e) => this.emitError(e)));
    pipeline.add(r.resourceVersion$.subscribe((rv) => (this.rv = rv)));
    pipeline.add(
      merge(r.bursts$.pipe(concatAll()), resync$) // bursts flattened until the FIFO takes bursts
        .pipe(
          deltaFifo<T>({
            mode: this.options.fifoMode,
            keyFunc: this.options.keyFunc,
            knownObjects: {
              getByKey: (key) => store.current.getByKey(key),
              listKeys: () => store.current.listKeys(),
            },
            emitDeltaTypeReplaced: true,
            transform,
            onError: (e) => this.emitError(e),
            scheduler: this.options.scheduler ?? asapScheduler,
          }),
        )
        .subscribe({
          next: (out) => (out.type === 'pop' ? this.handlePop(out) : this.markSynced()),
          error: (e: unknown) =>
            this.emitError(
              e instanceof Error && 'code' in e
                ? (e as RxkubeError)
                : new InformerStateError(`the informer's pipeline failed: ${String(e)}`),
            ),
        }),
    );
    this.pipeline = pipeline;
  }

  /** client-go's `sharedProcessor.shouldResync`: which handlers are due now; true if any. */
  private shouldResync(): boolean {
    const now = this.scheduler.now();
    const syncing: ProcessorListener<T>[] = [];
    for (const l of this.listeners) {
      if (l.shouldResync(now)) {
        syncing.push(l);
        l.determineNextResync(now);
      }
    }
    this.syncingListeners = syncing;
    return syncing.length > 0;
  }

  /**
   * client-go's `processDeltas`: each pop is applied to the store as one batch (I1: before anyone
   * hears), then its notifications go out. Sync / Replaced / Added / Updated become an update when
   * the key was stored, an add otherwise; an update with an unchanged resource version is a resync
   * and goes only to the handlers due one (I3).
   */
  private handlePop(pop: FifoPop<T>): void {
    const deltas = pop.deltas;
    const notes: Array<Notification<T>> = [];
    const syncFlags: boolean[] = [];
    this.writer.batch((m) => {
      for (const d of deltas) {
        if (d.type === DeltaType.Deleted) {
          m.delete(d.object);
          notes.push(deleteNotification(d.object));
          syncFlags.push(false);
        } else {
          const obj = d.object as T;
          const old = m.upsert(obj);
          if (old === undefined) {
            notes.push(addNotification(obj, pop.isInInitialList));
            syncFlags.push(false);
          } else {
            notes.push(updateNotification(old, obj));
            syncFlags.push(old.metadata?.resourceVersion === obj.metadata?.resourceVersion);
          }
        }
      }
    });
    for (let i = 0; i < notes.length; i++) {
      const targets = syncFlags[i] ? this.syncingListeners : this.listeners;
      for (const l of targets) l.push(notes[i], pop.key);
    }
  }

  private markSynced(): void {
    if (this.synced) return;
    this.synced = true;
    for (const l of this.listeners) l.upstreamSynced();
    this.syncedSubject.next(true);
    this.syncedSubject.complete();
  }

  private emitError(error: RxkubeError): void {
    if (!this.errors.closed) this.errors.next(error);
    if (this.options.onError) {
      try {
        this.options.onError(error);
      } catch {
        // A throwing onError must not stop the informer; the error is on errors$ already.
      }
    }
  }
}
