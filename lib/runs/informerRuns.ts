import {
  asyncScheduler,
  BehaviorSubject,
  distinctUntilChanged,
  filter,
  firstValueFrom,
  fromEvent,
  map,
  NEVER,
  Observable,
  of,
  race,
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
import { lister, type Lister } from '../lister/lister.js';
import type { KubeObjectLike } from '../meta/kubeObject.js';
import { createStore } from '../store/store.js';

/**
 * One informer at a time, replaced as its input changes (see {@link informerRuns}): a stable
 * handle for listers, handlers and controllers over a succession of informers.
 *
 * @example
 * ```ts
 * const runs: InformerRuns<Pod> = informerRuns(range$, (range) => informer(shardedListWatch(kc, pods, [range])));
 * runs.lister().list();
 * ```
 */
export interface InformerRuns<T> {
  /** The informer of the current run, `undefined` between runs. */
  current(): Informer<T> | undefined;
  /** The current run, then each change. */
  readonly current$: Observable<Informer<T> | undefined>;
  /** A lister over the current run's store; empty between runs. */
  lister(): Lister<T>;
  getByKey(key: string): T | undefined;
  listKeys(): ReadonlyArray<string>;
  /** True while a run is current and its informer has synced. */
  hasSynced(): boolean;
  /** `true` once a run is current and synced; `false` on `stop()`, `timeout` or `signal`. Waits across gaps. */
  waitForCacheSync(options?: WaitForCacheSyncOptions): Promise<boolean>;
  /** Added to every run's informer, now and later; its `synced$` follows the current run. */
  addEventHandler(handler: EventHandler<T>, options?: AddEventHandlerOptions): HandlerRegistration;
  start(): void;
  /** Stops following and every run's informer; resolves once they have stopped. */
  stop(): Promise<void>;
}

/**
 * How one run gives way to the next: `stopFirst` stops the old informer before the new one starts
 * (its objects are gone: a CRD removed); `syncFirst` keeps the old one current until the new one
 * has synced, so no object is missing meanwhile (a shard range moving).
 */
export type RunHandover = 'stopFirst' | 'syncFirst';

interface HandlerEntry<T> {
  readonly handler: EventHandler<T>;
  readonly options: AddEventHandlerOptions | undefined;
  readonly regs: Map<Informer<T>, HandlerRegistration>;
  removed: boolean;
}

const noLag: HandlerLag = Object.freeze({ queued: 0, oldestAgeMs: 0 });

/** `true` once the informer (or registration) has synced, also for a late subscriber (synced$ completes). */
const synced$ = (x: { hasSynced(): boolean; readonly synced$: Observable<boolean> } | undefined): Observable<boolean> =>
  x === undefined ? of(false) : x.hasSynced() ? of(true) : x.synced$;

/**
 * Runs the informer `create` builds for each value of `input$`, one at a time: a new value starts a
 * new run, `undefined` ends the current one (a `switchMap` from the input to a run). Handlers are
 * added to every run. With `handover: 'syncFirst'` a run stays current until the next has synced.
 *
 * ```text
 * input$:   --a-----------b-------------undefined----c--
 * runs:       [#a --------][#b ---------]            [#c --
 * current:    #a (synced)   #b (synced)  undefined    #c
 * ```
 *
 * @example
 * ```ts
 * const runs = informerRuns(ready$.pipe(map((r) => (r ? 'run' : undefined))), () => informer(lw));
 * runs.start();
 * ```
 */
export function informerRuns<K, T extends KubeObjectLike>(
  input$: Observable<K | undefined>,
  create: (input: K) => Informer<T>,
  options: { readonly scheduler?: SchedulerLike; readonly handover?: RunHandover; readonly same?: (a: K, b: K) => boolean } = {},
): InformerRuns<T> {
  const scheduler = options.scheduler ?? asyncScheduler;
  const handover = options.handover ?? 'stopFirst';
  const same = options.same ?? ((a: K, b: K) => a === b);
  const generation = new BehaviorSubject<Informer<T> | undefined>(undefined);
  const stopped = new BehaviorSubject(false);
  const handlers: HandlerEntry<T>[] = [];
  const emptyStore = createStore<T>();
  const stopping = new Set<Promise<void>>();
  let retiring: Informer<T> | undefined;
  let latest: K | undefined;
  let subscription: Subscription | undefined;

  const stopRun = (inf: Informer<T>): void => {
    for (const h of handlers) h.regs.get(inf)?.remove();
    for (const h of handlers) h.regs.delete(inf);
    const p = inf.stop().finally(() => stopping.delete(p));
    stopping.add(p);
  };

  /** One run: current once synced (at once with stopFirst); retired or stopped when the input moves on. */
  const run$ = (input: K) =>
    new Observable<never>(() => {
      const inf = create(input);
      for (const h of handlers) if (!h.removed) h.regs.set(inf, inf.addEventHandler(h.handler, h.options));
      inf.start();
      let becameCurrent: Subscription | undefined;
      if (handover === 'syncFirst' && generation.value !== undefined) {
        becameCurrent = synced$(inf)
          .pipe(filter(Boolean), take(1))
          .subscribe(() => {
            generation.next(inf);
            if (retiring !== undefined) stopRun(retiring);
            retiring = undefined;
          });
      } else generation.next(inf);
      return () => {
        becameCurrent?.unsubscribe();
        const keep = handover === 'syncFirst' && latest !== undefined && generation.value === inf;
        if (keep) {
          if (retiring !== undefined && retiring !== inf) stopRun(retiring);
          retiring = inf; // stays current until the next run has synced
          return;
        }
        if (generation.value === inf) generation.next(retiring);
        stopRun(inf);
      };
    });

  const currentStore = () => generation.value?.getStore() ?? emptyStore;

  return Object.freeze({
    current: () => generation.value,
    current$: generation.asObservable(),
    lister: () => lister(currentStore),
    getByKey: (key: string) => generation.value?.getByKey(key),
    listKeys: () => generation.value?.listKeys() ?? [],
    hasSynced: () => generation.value?.hasSynced() ?? false,

    waitForCacheSync(waitOptions: WaitForCacheSyncOptions = {}): Promise<boolean> {
      const ready$ = generation.pipe(switchMap(synced$), filter(Boolean));
      const stopped$ = stopped.pipe(filter(Boolean), map(() => false));
      const timeout$ = waitOptions.timeout === undefined ? NEVER : timer(waitOptions.timeout, scheduler).pipe(map(() => false));
      const signal = waitOptions.signal;
      const abort$ = signal === undefined ? NEVER : signal.aborted ? of(false) : fromEvent(signal, 'abort').pipe(map(() => false));
      return firstValueFrom(race(ready$, stopped$, timeout$, abort$).pipe(take(1)));
    },

    addEventHandler(handler: EventHandler<T>, handlerOptions?: AddEventHandlerOptions): HandlerRegistration {
      const entry: HandlerEntry<T> = { handler, options: handlerOptions, regs: new Map(), removed: false };
      handlers.push(entry);
      for (const inf of new Set([generation.value, retiring])) if (inf) entry.regs.set(inf, inf.addEventHandler(handler, handlerOptions));
      const regOf = (g: Informer<T> | undefined) => (g ? entry.regs.get(g) : undefined);
      return {
        hasSynced: () => regOf(generation.value)?.hasSynced() ?? false,
        synced$: generation.pipe(switchMap((g) => synced$(regOf(g))), distinctUntilChanged()),
        lag: () => regOf(generation.value)?.lag() ?? noLag,
        lag$: generation.pipe(switchMap((g) => regOf(g)?.lag$ ?? of(noLag))),
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
      subscription = input$
        .pipe(
          distinctUntilChanged((a, b) => (a === undefined || b === undefined ? a === b : same(a, b))),
          tap((k) => (latest = k)),
          switchMap((k) => (k === undefined ? NEVER : run$(k))),
        )
        .subscribe();
    },

    async stop(): Promise<void> {
      stopped.next(true);
      latest = undefined;
      subscription?.unsubscribe();
      subscription = undefined;
      if (retiring !== undefined) stopRun(retiring);
      retiring = undefined;
      if (generation.value !== undefined) generation.next(undefined);
      await Promise.all([...stopping]);
    },
  });
}
