import type { Observable } from 'rxjs';
import { ConfigError } from '../configError.js';
import type { RxkubeError } from '../errors.js';
import type { ListWatch } from '../listwatch/listWatch.js';
import type { Lister } from '../lister/lister.js';
import type { KubeObjectLike } from '../meta/kubeObject.js';
import { missingMethods } from '../meta/missingMethods.js';
import type { Indexers } from '../store/indexers.js';
import type { Store } from '../store/store.js';
import type { AddEventHandlerOptions, HandlerLag, HandlerRegistration } from './handlerRegistration.js';
import type { InformerOptions } from './informerOptions.js';
import type { Notification } from './notification.js';
import type { EventHandler } from './resourceEventHandler.js';
import type { WaitForCacheSyncOptions } from './waitForSync.js';
import { SharedIndexInformer } from './sharedIndexInformer.js';

export type { InformerOptions } from './informerOptions.js';

/**
 * The informer of one resource (client-go's `SharedIndexInformer`): it lists and watches through a
 * {@link ListWatch}, keeps an indexed store of immutable snapshots, and tells each handler of every
 * change, in order, at the handler's own pace.
 *
 * Lifecycle: created idle; `start()` (or a first subscription to `store$` / `events$`) starts it;
 * `stop()` tears down the request in flight, every timer and every handler; a stopped informer stays
 * stopped. An informer started by a subscription (never by `start()`) goes idle when its last
 * `store$` / `events$` subscriber leaves, and starts again on the next subscription.
 *
 * @example
 * ```ts
 * const pods = informer(listWatch<V1Pod>(kubeConfig, podsResource), { resyncPeriod: 60_000 });
 * pods.addEventHandler({ add: (pod) => console.log('add', pod.metadata?.name) });
 * pods.start();
 * await pods.waitForCacheSync();
 * pods.list().length;
 * pods.lister().byNamespace('shop').list('app=web');
 * ```
 */
export interface Informer<T> {
  /**
   * The current store snapshot, then each new one (one per batch); `shareReplay`-backed: every
   * subscriber gets the current snapshot first, as from a BehaviorSubject. Starts the informer; an
   * informer it started goes idle when the last subscriber leaves and starts again on the next.
   */
  readonly store$: Observable<Store<T>>;
  /**
   * Every notification, for as long as you are subscribed: an `add` for each object already stored
   * first, then changes (resyncs excluded). Each subscription is a handler with an unbounded buffer.
   * Starts the informer.
   */
  readonly events$: Observable<Notification<T>>;
  /** Every error: list/watch errors the reflector recovers from, handler errors, objects without a key. Hot. */
  readonly errors$: Observable<RxkubeError>;
  /**
   * Whether the first list has been stored and distributed: the current value to every subscriber
   * (`false`, or `true` at once for a subscriber that comes after the sync), then `true` when it
   * syncs. Completes when the informer stops.
   */
  readonly synced$: Observable<boolean>;
  /**
   * The store snapshots from the first synced one on (`store$` while `synced$` is `true`): the
   * current snapshot to a subscriber that comes after the sync, the first full one to an earlier
   * one, never the empty snapshot from before the first list. Starts the informer, as `store$` does.
   */
  readonly syncedStore$: Observable<Store<T>>;
  /** The store's current snapshot (client-go's `GetStore` / `GetIndexer`). */
  getStore(): Store<T>;
  /**
   * A lister over the current store (client-go's `Lister()`): by label selector, by key, by
   * namespace. The same lister every call; each of its reads reads the latest snapshot.
   */
  lister(): Lister<T>;
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
  /**
   * Resolves `true` once synced; `false` if the informer stops first (client-go's
   * `WaitForCacheSync`), or the `timeout` passes, or the `signal` aborts. Never rejects: why it
   * has not synced is logged (`logger`) and on `errors$`.
   */
  waitForCacheSync(options?: WaitForCacheSyncOptions): Promise<boolean>;
  /** The resource version of the last list or event seen, `''` before any. */
  lastSyncResourceVersion(): string;
  /**
   * Notifications waiting for the handlers (each handler's `lag().queued`, summed): client-go's
   * `informer_queued_items`. The FIFO itself hands on every burst at once, so what queues up in
   * rxkube is what slow handlers have not handled yet.
   */
  queuedItems(): number;
  /**
   * All handlers' lag at once: notifications waiting (as `queuedItems()`) and the age of the oldest
   * one, in ms (0 when none waits), the informer-wide figure behind dashboards' "informer lag".
   */
  lag(): HandlerLag;
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
 * Pipeline: reflector bursts -> `deltaFifoBatch` (a pure reducer of each burst; it reads no store) ->
 * each batch applied to the store in one write (which finds a relist's deletions, where the old
 * state is) -> its notifications on a shared stream every handler's buffer subscribes to. A
 * handler's periodic resync is its own replay of the store, on its own timer.
 *
 * ```text
 * reflector:  --R[a,b]-------u(a2)---------R[a2]--
 * store$:     S0-S1-----------S2--------------S3--  one snapshot per batch, before anyone hears
 * H's timer:  ------------------------t-----------  t: handler H is due
 * handler H:  ---A(a)B(b)-----U(a,a2)-U(a2,a2)U(b,b)-U(a2,a2)  U(x,x) from a relist: only to handlers due
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
export function informer<T extends KubeObjectLike>(
  listWatch: ListWatch<T>,
  options: InformerOptions<T> = {},
): Informer<T> {
  const lw = listWatch as Partial<Record<'list' | 'watch', unknown>> | null | undefined;
  if (missingMethods(lw, ['list', 'watch']).length > 0) {
    throw new ConfigError(
      'listWatch',
      `informer(listWatch): listWatch must have list and watch functions (make one with listWatch(kubeConfig, resource)), got ${lw === null || typeof lw !== 'object' ? String(lw) : `an object with ${Object.keys(lw).join(', ') || 'no keys'}`}`,
      { value: listWatch },
    );
  }
  return new SharedIndexInformer<T>(listWatch, options);
}
