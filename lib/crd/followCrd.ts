import type { CustomResourceDefinition } from 'kubernetes-types/apiextensions/v1.js';
import {
  asyncScheduler,
  BehaviorSubject,
  combineLatest,
  distinctUntilChanged,
  EMPTY,
  filter,
  firstValueFrom,
  fromEvent,
  map,
  NEVER,
  Observable,
  of,
  race,
  scan,
  switchMap,
  take,
  tap,
  timer,
  type SchedulerLike,
  type Subscription,
} from 'rxjs';
import type { AddEventHandlerOptions, HandlerLag, HandlerRegistration } from '../informer/handlerRegistration.js';
import type { Informer } from '../informer/informer.js';
import type { EventHandler } from '../informer/resourceEventHandler.js';
import type { WaitForCacheSyncOptions } from '../informer/waitForSync.js';
import type { Resource } from '../listwatch/resource.js';
import { lister, type Lister } from '../lister/lister.js';
import type { KubeObjectLike } from '../meta/kubeObject.js';
import { createStore } from '../store/store.js';
import { crdName, crdReadiness } from './crdReadiness.js';
import { initialCrdFollowStatus, nextCrdFollowStatus, sameCrdFollowStatus, type CrdFollowStatus } from './crdStatus.js';

/**
 * An informer that runs only while its CustomResourceDefinition is established and serves the
 * version asked for (see {@link followCrd}). Usable as a controller's `for`, `owns` or `watches`.
 *
 * @example
 * ```ts
 * const widgets: CrdFollowingInformer<Widget> = factory.followCrd<Widget>(widgetResource);
 * widgets.status$.subscribe((s) => console.log(s.phase));
 * ```
 */
export interface CrdFollowingInformer<T> {
  /** The current status, then each change (replayed to every subscriber). */
  readonly status$: Observable<CrdFollowStatus>;
  status(): CrdFollowStatus;
  /** The informer of the current run, `undefined` while not running. */
  current(): Informer<T> | undefined;
  /** A lister over the current run's store; empty while not running. */
  lister(): Lister<T>;
  getByKey(key: string): T | undefined;
  listKeys(): ReadonlyArray<string>;
  /** True only while running and the current run's informer has synced. */
  hasSynced(): boolean;
  /**
   * Resolves `true` once running and synced, waiting through `waitingForCrd` and `crdRemoved` for
   * as long as it takes; `false` when stopped first, the `timeout` passes or the `signal` aborts.
   */
  waitForCacheSync(options?: WaitForCacheSyncOptions): Promise<boolean>;
  /** Added to every run's informer, now and later; its `synced$` follows the current run. */
  addEventHandler(handler: EventHandler<T>, options?: AddEventHandlerOptions): HandlerRegistration;
  /** Starts following (and the CRD informer). Idempotent. */
  start(): void;
  /** Stops following and the current run's informer; resolves once it has stopped. */
  stop(): Promise<void>;
}

interface HandlerEntry<T> {
  readonly handler: EventHandler<T>;
  readonly options: AddEventHandlerOptions | undefined;
  readonly regs: Map<Informer<T>, HandlerRegistration>;
  removed: boolean;
}

const noLag: HandlerLag = Object.freeze({ queued: 0, oldestAgeMs: 0 });

/**
 * Runs the informer `create` builds only while the CRD of `resource` (named `plural.group`) is
 * established and serves `resource.version`, as seen by `crds`, an informer of
 * `customresourcedefinitions`: a `switchMap` from the CRD's readiness to a run of the informer.
 * A CRD that never becomes established (or that goes mid-list) leaves it waiting: no request is
 * made for the resource until the CRD is ready again, so nothing loops.
 *
 * ```text
 * CRD:     absent ---- created+Established ---------- deleted ------------ created again --
 * status:  waitingForCrd  running                     crdRemoved            running
 * runs:                  [informer #1 ---------------]                     [informer #2 ----
 * ```
 *
 * @example
 * ```ts
 * const crds = informer(listWatch<CustomResourceDefinition>(kc, crdResource));
 * const widgets = followCrd(crds, widgetResource, () => informer(listWatch<Widget>(kc, widgetResource)));
 * widgets.start();
 * await widgets.waitForCacheSync({ timeout: 60_000 });
 * ```
 */
export function followCrd<T extends KubeObjectLike>(
  crds: Informer<CustomResourceDefinition>,
  resource: Resource,
  create: () => Informer<T>,
  options: { readonly scheduler?: SchedulerLike } = {},
): CrdFollowingInformer<T> {
  const scheduler = options.scheduler ?? asyncScheduler;
  const name = crdName(resource);
  const statusSubject = new BehaviorSubject<CrdFollowStatus>(initialCrdFollowStatus);
  const generation = new BehaviorSubject<Informer<T> | undefined>(undefined);
  const stopped = new BehaviorSubject(false);
  const handlers: HandlerEntry<T>[] = [];
  const emptyStore = createStore<T>();
  let subscription: Subscription | undefined;
  let lastStop: Promise<void> = Promise.resolve();

  const readiness$ = combineLatest([crds.synced$, crds.store$]).pipe(
    filter(([synced]) => synced),
    map(([, store]) => crdReadiness(store.getByKey(name), resource)),
    distinctUntilChanged(),
  );

  /** One run: a new informer with every handler, stopped when the CRD stops being ready. */
  const run$ = new Observable<never>(() => {
    const inf = create();
    for (const h of handlers) if (!h.removed) h.regs.set(inf, inf.addEventHandler(h.handler, h.options));
    generation.next(inf);
    inf.start();
    return () => {
      generation.next(undefined);
      for (const h of handlers) h.regs.delete(inf);
      lastStop = inf.stop();
    };
  });

  const currentStore = () => generation.value?.getStore() ?? emptyStore;

  const follower: CrdFollowingInformer<T> = {
    status$: statusSubject.asObservable(),
    status: () => statusSubject.value,
    current: () => generation.value,
    lister: () => lister(currentStore),
    getByKey: (key) => generation.value?.getByKey(key),
    listKeys: () => generation.value?.listKeys() ?? [],
    hasSynced: () => statusSubject.value.phase === 'running' && (generation.value?.hasSynced() ?? false),

    waitForCacheSync(waitOptions: WaitForCacheSyncOptions = {}): Promise<boolean> {
      const synced$ = generation.pipe(
        // synced$ completes after `true`: a late subscriber would get nothing from it.
        switchMap((inf) => (inf === undefined ? of(false) : inf.hasSynced() ? of(true) : inf.synced$)),
        filter(Boolean),
      );
      const stopped$ = stopped.pipe(filter(Boolean), map(() => false));
      const timeout$ = waitOptions.timeout === undefined ? NEVER : timer(waitOptions.timeout, scheduler).pipe(map(() => false));
      const signal = waitOptions.signal;
      const abort$ = signal === undefined ? NEVER : signal.aborted ? of(false) : fromEvent(signal, 'abort').pipe(map(() => false));
      return firstValueFrom(race(synced$, stopped$, timeout$, abort$).pipe(take(1)));
    },

    addEventHandler(handler: EventHandler<T>, handlerOptions?: AddEventHandlerOptions): HandlerRegistration {
      const entry: HandlerEntry<T> = { handler, options: handlerOptions, regs: new Map(), removed: false };
      handlers.push(entry);
      const inf = generation.value;
      if (inf) entry.regs.set(inf, inf.addEventHandler(handler, handlerOptions));
      const currentReg = () => {
        const g = generation.value;
        return g ? entry.regs.get(g) : undefined;
      };
      return {
        hasSynced: () => currentReg()?.hasSynced() ?? false,
        synced$: generation.pipe(
          switchMap((g) => {
            const reg = g ? entry.regs.get(g) : undefined;
            return reg === undefined ? of(false) : reg.hasSynced() ? of(true) : reg.synced$;
          }),
          distinctUntilChanged(),
        ),
        lag: () => currentReg()?.lag() ?? noLag,
        lag$: generation.pipe(switchMap((g) => (g && entry.regs.get(g)?.lag$) || of(noLag))),
        remove: () => {
          entry.removed = true;
          for (const reg of entry.regs.values()) reg.remove();
          entry.regs.clear();
        },
        resyncPeriod: handlerOptions?.resyncPeriod ?? 0,
        get removed() {
          return entry.removed;
        },
      };
    },

    start(): void {
      if (subscription !== undefined || stopped.value) return;
      subscription = readiness$
        .pipe(
          scan(nextCrdFollowStatus, initialCrdFollowStatus),
          distinctUntilChanged(sameCrdFollowStatus),
          tap((s) => {
            if (!sameCrdFollowStatus(s, statusSubject.value)) statusSubject.next(s);
          }),
          map((s) => s.phase === 'running'),
          distinctUntilChanged(),
          switchMap((running) => (running ? run$ : EMPTY)),
        )
        .subscribe();
    },

    async stop(): Promise<void> {
      stopped.next(true);
      subscription?.unsubscribe();
      subscription = undefined;
      await lastStop;
    },
  };
  return Object.freeze(follower);
}
