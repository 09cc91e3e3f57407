import { NEVER, Observable, type SchedulerLike, asyncScheduler } from 'rxjs';
import { DeletedFinalStateUnknown } from '../meta/deletedFinalStateUnknown.js';
import type { HandlerRegistration, AddEventHandlerOptions } from '../informer/handlerRegistration.js';
import type { Informer } from '../informer/informer.js';
import type { Notification } from '../informer/notification.js';
import type { ListOptions, ListPage, ListWatch, WatchOptions } from '../listwatch/listWatch.js';
import type { WatchEvent } from '../listwatch/watchEvent.js';
import { metaNamespaceKeyFunc, type KeyFunc } from '../meta/keys.js';
import type { KubeObjectLike } from '../meta/kubeObject.js';

/**
 * What a {@link fakeListWatch} answers: the n-th `list` call gets `lists[n]`, the n-th `watch` call
 * `watches[n]` (or a function of the options and the call number). Past the end of an array, a call
 * gets an Observable that never emits (a request that hangs), so the informer just waits.
 *
 * @example
 * ```ts
 * const script: FakeListWatchScript<V1Pod> = {
 *   lists: [cold('-(p|)', { p: listPage([pod1], '10') })],
 *   watches: [cold('--a--m', { a: { type: 'ADDED', object: pod2 }, m: { type: 'MODIFIED', object: pod1v2 } })],
 * };
 * ```
 */
export interface FakeListWatchScript<T> {
  readonly lists?:
    | ReadonlyArray<Observable<ListPage<T>>>
    | ((options: ListOptions, call: number) => Observable<ListPage<T>>);
  readonly watches?:
    | ReadonlyArray<Observable<WatchEvent<T>>>
    | ((options: WatchOptions, call: number) => Observable<WatchEvent<T>>);
}

/**
 * A {@link ListWatch} that also records the options of every call, in order.
 *
 * @example
 * ```ts
 * expect(lw.listCalls.map((o) => o.resourceVersion)).toEqual(['0', '10']);
 * ```
 */
export interface FakeListWatch<T> extends ListWatch<T> {
  readonly listCalls: ReadonlyArray<ListOptions>;
  readonly watchCalls: ReadonlyArray<WatchOptions>;
}

/**
 * A scripted {@link ListWatch} for unit and marble tests: no server, no network. Build the answers
 * with `TestScheduler`'s `cold()` and the informer runs on virtual time (pass the scheduler, or use
 * `TestScheduler.run`, which virtualises the default schedulers).
 *
 * @example
 * ```ts
 * new TestScheduler((a, e) => expect(a).toEqual(e)).run(({ cold, expectObservable }) => {
 *   const lw = fakeListWatch<Pod>({
 *     lists: [cold('-(p|)', { p: listPage([pod('a', '1')], '1') })],
 *     watches: [cold('--m', { m: { type: 'MODIFIED', object: pod('a', '2') } })],
 *   });
 *   const inf = informer(lw, { reflector: { random: () => 0 } });
 *   expectObservable(inf.events$.pipe(map(describeNotification)), '^ 10ms !').toBe('-a--u', {
 *     a: 'add ns/a@1 initial',
 *     u: 'update ns/a@1->2',
 *   });
 * });
 * ```
 */
export function fakeListWatch<T>(script: FakeListWatchScript<T>): FakeListWatch<T> {
  const listCalls: ListOptions[] = [];
  const watchCalls: WatchOptions[] = [];
  const pick = <O, R>(
    answers: ReadonlyArray<Observable<R>> | ((options: O, call: number) => Observable<R>) | undefined,
    options: O,
    call: number,
  ): Observable<R> => {
    if (answers === undefined) return NEVER;
    if (typeof answers === 'function') return answers(options, call);
    return answers[call] ?? NEVER;
  };
  return {
    listCalls,
    watchCalls,
    list: (options) =>
      new Observable<ListPage<T>>((subscriber) => {
        const call = listCalls.length;
        listCalls.push(options);
        return pick(script.lists, options, call).subscribe(subscriber);
      }),
    watch: (options) =>
      new Observable<WatchEvent<T>>((subscriber) => {
        const call = watchCalls.length;
        watchCalls.push(options);
        return pick(script.watches, options, call).subscribe(subscriber);
      }),
  };
}

/**
 * One page of a list, for {@link fakeListWatch} scripts: the last page unless `continueToken` is given.
 *
 * @example
 * ```ts
 * cold('-(p|)', { p: listPage([pod1, pod2], '10') });
 * ```
 */
export function listPage<T>(
  items: ReadonlyArray<T>,
  resourceVersion: string,
  continueToken = '',
): ListPage<T> {
  return { items, resourceVersion, continue: continueToken };
}

/**
 * A short, stable description of a notification for assertions and marble values:
 * `add ns/a@1 initial`, `add ns/a@1`, `update ns/a@1->2`, `delete ns/a@2`, `delete ns/a@2 tombstone`.
 *
 * @example
 * ```ts
 * expectObservable(inf.events$.pipe(map(describeNotification))).toBe('-a', { a: 'add ns/a@1 initial' });
 * ```
 */
export function describeNotification<T extends KubeObjectLike>(
  n: Notification<T>,
  keyFunc: KeyFunc<T> = metaNamespaceKeyFunc,
): string {
  const rv = (o: T): string => o.metadata?.resourceVersion ?? '';
  switch (n.type) {
    case 'add':
      return `add ${keyFunc(n.object)}@${rv(n.object)}${n.isInInitialList ? ' initial' : ''}`;
    case 'update':
      return `update ${keyFunc(n.newObject)}@${rv(n.oldObject)}->${rv(n.newObject)}`;
    case 'delete':
      return n.object instanceof DeletedFinalStateUnknown
        ? `delete ${n.object.key}@${rv(n.object.obj)} tombstone`
        : `delete ${keyFunc(n.object)}@${rv(n.object)}`;
  }
}

/**
 * Applies notifications, in order, to a key -> object map: the view of the world a handler has
 * when it follows what it is told. Handy to check that a handler converges to the store.
 *
 * @example
 * ```ts
 * const view = applyNotifications(new Map(), recorder.notifications);
 * expect([...view.keys()].sort()).toEqual(informer.listKeys().slice().sort());
 * ```
 */
export function applyNotifications<T extends KubeObjectLike>(
  view: Map<string, T>,
  notifications: Iterable<Notification<T>>,
  keyFunc: KeyFunc<T> = metaNamespaceKeyFunc,
): Map<string, T> {
  for (const n of notifications) {
    if (n.type === 'add') view.set(keyFunc(n.object), n.object);
    else if (n.type === 'update') view.set(keyFunc(n.newObject), n.newObject);
    else view.delete(n.object instanceof DeletedFinalStateUnknown ? n.object.key : keyFunc(n.object));
  }
  return view;
}

/**
 * A handler that records what it is told, with the time (on `scheduler`'s clock) it was told.
 *
 * @example
 * ```ts
 * const rec = recordNotifications(inf, { resyncPeriod: 2000 });
 * // ... run ...
 * expect(rec.described()).toEqual(['add ns/a@1 initial', 'update ns/a@1->1']);
 * expect(rec.records.map((r) => r.time)).toEqual([1, 2001]);
 * ```
 */
export interface NotificationRecorder<T> {
  /** Every notification received, with the scheduler time it arrived at. */
  readonly records: ReadonlyArray<{ readonly time: number; readonly notification: Notification<T> }>;
  /** The notifications alone. */
  readonly notifications: ReadonlyArray<Notification<T>>;
  /** The registration of the recording handler. */
  readonly registration: HandlerRegistration;
  /** {@link describeNotification} of each notification. */
  described(): string[];
  /** The handler's view: the notifications applied to an empty map ({@link applyNotifications}). */
  view(): Map<string, T>;
  /** Forgets what was recorded so far. */
  clear(): void;
}

/**
 * Adds a recording handler to an informer ({@link NotificationRecorder}). `scheduler` is the clock
 * of the recorded times (default `asyncScheduler`, which `TestScheduler.run` virtualises).
 *
 * @example
 * ```ts
 * const rec = recordNotifications(inf);
 * inf.start();
 * await inf.waitForCacheSync();
 * expect(rec.described()).toContain('add default/web@12 initial');
 * ```
 */
export function recordNotifications<T extends KubeObjectLike>(
  target: Pick<Informer<T>, 'addEventHandler'>,
  options: AddEventHandlerOptions & {
    readonly scheduler?: SchedulerLike;
    readonly keyFunc?: KeyFunc<T>;
  } = {},
): NotificationRecorder<T> {
  const scheduler = options.scheduler ?? asyncScheduler;
  const keyFunc = options.keyFunc ?? metaNamespaceKeyFunc;
  let records: Array<{ time: number; notification: Notification<T> }> = [];
  const registration = target.addEventHandler(
    {
      next: (notification) => {
        records.push({ time: scheduler.now(), notification });
      },
    },
    options,
  );
  return {
    get records() {
      return records;
    },
    get notifications() {
      return records.map((r) => r.notification);
    },
    registration,
    described: () => records.map((r) => describeNotification(r.notification, keyFunc)),
    view: () =>
      applyNotifications(
        new Map<string, T>(),
        records.map((r) => r.notification),
        keyFunc,
      ),
    clear: () => {
      records = [];
    },
  };
}
