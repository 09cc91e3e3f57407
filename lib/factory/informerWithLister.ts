import type { Observable } from 'rxjs';
import type { RxkubeError } from '../errors.js';
import type { AddEventHandlerOptions, HandlerRegistration } from '../informer/handlerRegistration.js';
import type { Informer } from '../informer/informer.js';
import type { WaitForCacheSyncOptions } from '../informer/waitForSync.js';
import type { Notification } from '../informer/notification.js';
import type { EventHandler } from '../informer/resourceEventHandler.js';
import { lister, type Lister } from '../lister/lister.js';
import type { KubeObjectLike } from '../meta/kubeObject.js';
import type { Indexers } from '../store/indexers.js';
import type { Store } from '../store/store.js';

/**
 * An informer with its lister (client-go's typed informer: `Informer()` and `Lister()` in one), as
 * the shared informer factory hands them out.
 *
 * @example
 * ```ts
 * const pods: SharedInformer<V1Pod> = factory.pods();
 * pods.addEventHandler({ add: (pod) => console.log(pod.metadata?.name) });
 * pods.lister().byNamespace('default').list('app=web');
 * ```
 */
export interface SharedInformer<T> extends Informer<T> {
  /** A lister over this informer's current store snapshot (every call reads the latest). */
  lister(): Lister<T>;
  /** The informer itself, without the lister. */
  readonly informer: Informer<T>;
}

/**
 * Adds `lister()` to an informer; every other member is the informer's own.
 *
 * @example
 * ```ts
 * const pods = withLister(informer(listWatch<V1Pod>(kc, builtInResources.pods)));
 * pods.lister().list('app=web');
 * ```
 */
export function withLister<T extends KubeObjectLike>(inner: Informer<T>): SharedInformer<T> {
  return new InformerWithLister(inner);
}

class InformerWithLister<T extends KubeObjectLike> implements SharedInformer<T> {
  private readonly cachedLister: Lister<T>;
  readonly store$: Observable<Store<T>>;
  readonly events$: Observable<Notification<T>>;
  readonly errors$: Observable<RxkubeError>;
  readonly synced$: Observable<boolean>;
  readonly syncedStore$: Observable<Store<T>>;

  constructor(readonly informer: Informer<T>) {
    // The informer's own reads (list, getByKey, byIndex) hand out no snapshot, so a lister read per
    // reconcile does not make the informer's next batch copy what it changes (docs/store.md).
    this.cachedLister = lister(informer);
    this.store$ = informer.store$;
    this.events$ = informer.events$;
    this.errors$ = informer.errors$;
    this.synced$ = informer.synced$;
    this.syncedStore$ = informer.syncedStore$;
  }

  lister(): Lister<T> {
    return this.cachedLister;
  }
  getStore(): Store<T> {
    return this.informer.getStore();
  }
  getByKey(key: string): T | undefined {
    return this.informer.getByKey(key);
  }
  get(obj: T): T | undefined {
    return this.informer.get(obj);
  }
  list(): ReadonlyArray<T> {
    return this.informer.list();
  }
  listKeys(): ReadonlyArray<string> {
    return this.informer.listKeys();
  }
  byIndex(indexName: string, value: string): T[] {
    return this.informer.byIndex(indexName, value);
  }
  indexKeys(indexName: string, value: string): string[] {
    return this.informer.indexKeys(indexName, value);
  }
  listIndexFuncValues(indexName: string): string[] {
    return this.informer.listIndexFuncValues(indexName);
  }
  index(indexName: string, obj: T): T[] {
    return this.informer.index(indexName, obj);
  }
  addIndexers(indexers: Indexers<T>): void {
    this.informer.addIndexers(indexers);
  }
  setTransform(transform: (obj: T) => T): void {
    this.informer.setTransform(transform);
  }
  hasSynced(): boolean {
    return this.informer.hasSynced();
  }
  waitForCacheSync(options?: WaitForCacheSyncOptions): Promise<boolean> {
    return this.informer.waitForCacheSync(options);
  }
  lastSyncResourceVersion(): string {
    return this.informer.lastSyncResourceVersion();
  }
  queuedItems(): number {
    return this.informer.queuedItems();
  }
  addEventHandler(handler: EventHandler<T>, options?: AddEventHandlerOptions): HandlerRegistration {
    return this.informer.addEventHandler(handler, options);
  }
  removeEventHandler(registration: HandlerRegistration): void {
    this.informer.removeEventHandler(registration);
  }
  start(): void {
    this.informer.start();
  }
  stop(): Promise<void> {
    return this.informer.stop();
  }
  isStarted(): boolean {
    return this.informer.isStarted();
  }
  isStopped(): boolean {
    return this.informer.isStopped();
  }
}
