import { Observable, type SchedulerLike, type Subject, type Subscriber } from 'rxjs';
import { BinaryHeap } from './binaryHeap.js';
import type { QueueItem } from './queueItem.js';
import { NotInFlightError } from './workQueueError.js';
import type { WorkQueueMetricEvent } from './workQueueMetrics.js';

// The state of a key the core knows: ready (in the ready heap: the entry is the state), held by a worker, held and dirty (queued again once done), or gone (neither
// queued nor held: see `forgetKey`). A key it does not know is gone too.
interface Ready<T> {
  readonly kind: 'ready';
  readonly key: T;
  readonly priority: number;
  readonly seq: number;
  readonly addedAt: number;
}
type Active<T> =
  | Ready<T>
  | { readonly kind: 'held'; readonly startedAt: number }
  | { readonly kind: 'heldDirty'; readonly startedAt: number; readonly priority: number; readonly addedAt: number }
  | { readonly kind: 'gone' };

const GONE: Active<never> = Object.freeze({ kind: 'gone' });
// Gone keys kept before the map is rebuilt without them (see forgetKey).
const GONE_KEPT = 1024;

/**
 * The core of a work queue (client-go's `Type` with controller-runtime's priority levels): the
 * `dirty` and `processing` sets, as one state per key, and the ready keys ordered by priority,
 * then by the time they became ready. No delays, no rate limits: those are the layers above
 * ({@link delayingQueue}, {@link rateLimitingQueue}).
 *
 * ```text
 * add(a) add(a) take->a add(a) done(a) take->a   (a queued once; re-added while held: queued on done)
 * add(foo,0) add(bar,1) add(foo,1) take->bar      (a raised key goes to the back of its new level)
 * ```
 *
 * @internal
 * @example
 * ```ts
 * const core = coreQueue<string>('pods', asyncScheduler, metrics);
 * core.add('ns/a', 0);
 * core.take(); // { key: 'ns/a', priority: 0 }
 * core.done('ns/a');
 * ```
 */
export interface CoreQueue<T> {
  /** Ready now at `priority`; merges into a queued or dirty key (the higher priority wins). */
  add(key: T, priority: number): void;
  /** The priority of a key queued to run (ready, or dirty while held), else `undefined`. */
  queuedPriority(key: T): number | undefined;
  /**
   * A ready key, held from `at` (the clock's now, if not given), or undefined. `shared`: the item
   * may be the queue's own entry (for its one internal consumer, which only reads it), not a copy.
   */
  take(at?: number, shared?: boolean): QueueItem<T> | undefined;
  get$(): Observable<QueueItem<T>>;
  done(key: T): void;
  len(): number;
  /** Stops handing out keys; waiting `get$` subscribers complete empty. */
  shutDown(): void;
  isShutDown(): boolean;
  /** Ends every drain under way now (client-go's ShutDown after ShutDownWithDrain). */
  endDrains(): void;
  /** Completes once no key is held (after shutDown). */
  drained$(): Observable<void>;
  inFlight(): number;
  /** Keys waiting for a worker (ready, or dirty while held), by priority. */
  depthByPriority(): ReadonlyMap<number, number>;
  depth(): number;
  /** Keys that became dirty since the queue was created (`workqueue_adds_total`). */
  addsTotal(): number;
  /** The summed and the longest age (seconds) of the keys held now. */
  inFlightAges(): { readonly unfinished: number; readonly longest: number };
  /**
   * Called (synchronously, from inside the pump: a `done` it makes only queues) whenever keys are
   * ready that no `get$` subscriber took; the listener pulls them with `take`.
   */
  setReadyListener(listener: (() => void) | undefined): void;
}

/**
 * Creates a {@link CoreQueue}. `metrics` receives its `add`, `get` and `done` events.
 *
 * @internal
 * @example
 * ```ts
 * const core = coreQueue<string>('pods', asyncScheduler, new Subject());
 * ```
 */
export function coreQueue<T>(name: string, scheduler: SchedulerLike, metrics: Subject<WorkQueueMetricEvent>): CoreQueue<T> {
  // Events are built only while someone listens (\`metrics.observed\`): three a key otherwise made
  // for nobody, on the controller's hottest path.
  let active = new Map<T, Active<T>>();
  const readyHeap = new BinaryHeap<Ready<T>>((a, b) => (a.priority !== b.priority ? a.priority > b.priority : a.seq < b.seq));
  const waiters: Subscriber<QueueItem<T>>[] = [];
  const drainers: Subscriber<void>[] = [];
  let seq = 0;
  let adds = 0;
  let readyCount = 0;
  let heldCount = 0;
  let goneCount = 0;
  let dirtyHeld = 0;
  let shutdown = false;
  let pumping = false;
  let readyListener: (() => void) | undefined;
  let takes = 0;
  const now = () => scheduler.now();

  // When a key was queued, for the `get` metric event's queueSeconds: read from the clock only while
  // someone listens (a clock read costs as much as the rest of an add on some machines); NaN else.
  const addedNow = () => (metrics.observed ? now() : Number.NaN);

  const makeReady = (key: T, priority: number, addedAt: number) => {
    const entry: Ready<T> = { kind: 'ready', key, priority, seq: seq++, addedAt };
    if (active.get(key) === GONE) goneCount--;
    active.set(key, entry);
    readyHeap.push(entry);
    readyCount++;
  };

  // A key done is marked gone rather than deleted: deleting from a Map of few keys, and adding
  // again, allocates a new hash table nearly every time (about 190 bytes a key on the
  // controller's path). Gone keys are dropped in one rebuild once there are many of them.
  const forgetKey = (key: T) => {
    active.set(key, GONE);
    if (++goneCount <= GONE_KEPT || goneCount <= active.size - goneCount) return;
    const live = new Map<T, Active<T>>();
    for (const [k, state] of active) if (state !== GONE) live.set(k, state);
    active = live;
    goneCount = 0;
  };

  const add = (key: T, priority: number) => {
    const state = active.get(key);
    if (state === undefined || state.kind === 'gone') {
      makeReady(key, priority, addedNow());
    } else if (state.kind === 'held') {
      active.set(key, { kind: 'heldDirty', startedAt: state.startedAt, priority, addedAt: addedNow() });
      dirtyHeld++;
    } else {
      if (state.priority >= priority) return;
      if (state.kind === 'ready') {
        // To the back of its new level (controller-runtime bumps AddedCounter); the old heap entry
        // becomes stale and is skipped when popped.
        const entry: Ready<T> = { kind: 'ready', key, priority, seq: seq++, addedAt: state.addedAt };
        active.set(key, entry);
        readyHeap.push(entry);
      } else {
        active.set(key, { ...state, priority });
      }
      return;
    }
    adds++;
    if (metrics.observed) metrics.next({ type: 'add' });
    pump();
  };

  const take = (at?: number, shared = false): QueueItem<T> | undefined => {
    if (shutdown) return undefined;
    for (let entry = readyHeap.pop(); entry !== undefined; entry = readyHeap.pop()) {
      if (active.get(entry.key) !== entry) continue; // stale: the key was raised to another level
      const t = at ?? now();
      active.set(entry.key, { kind: 'held', startedAt: t });
      readyCount--;
      heldCount++;
      takes++;
      // A key queued while nobody listened has no time of its own: its wait counts as 0.
      if (metrics.observed) metrics.next({ type: 'get', queueSeconds: Number.isNaN(entry.addedAt) ? 0 : (t - entry.addedAt) / 1000 });
      return shared ? entry : { key: entry.key, priority: entry.priority };
    }
    return undefined;
  };

  // Hands ready keys to waiting workers in a loop; a worker that takes its next key from inside
  // the callback only registers (pumping is set), so a run of synchronous workers never recurses.
  const pump = () => {
    if (pumping) return;
    pumping = true;
    try {
      while (waiters.length > 0) {
        if (shutdown) {
          for (const waiter of waiters.splice(0)) waiter.complete();
          break;
        }
        const item = take();
        if (item === undefined) break;
        const waiter = waiters.shift() as Subscriber<QueueItem<T>>;
        waiter.next(item);
        waiter.complete();
      }
      // Again while the listener takes keys: keys added meanwhile found the pump busy.
      for (let taken = -1; !shutdown && readyCount > 0 && readyListener !== undefined && taken !== takes; ) {
        taken = takes;
        readyListener();
      }
      if (shutdown && heldCount === 0) for (const drainer of drainers.splice(0)) drainer.complete();
    } finally {
      pumping = false;
    }
  };

  // A subscriber registered in `list` until it unsubscribes; pump() serves it.
  const registered = <V>(list: Subscriber<V>[]) =>
    new Observable<V>((subscriber) => {
      list.push(subscriber);
      pump();
      return () => {
        const i = list.indexOf(subscriber);
        if (i >= 0) list.splice(i, 1);
      };
    });

  return {
    add,
    queuedPriority(key) {
      const state = active.get(key);
      return state === undefined || state.kind === 'held' || state.kind === 'gone' ? undefined : state.priority;
    },
    take,
    get$: () => registered(waiters),
    done(key) {
      const state = active.get(key);
      if (state === undefined || state.kind === 'ready' || state.kind === 'gone') throw new NotInFlightError(name, key);
      heldCount--;
      forgetKey(key);
      if (metrics.observed) metrics.next({ type: 'done', workSeconds: (now() - state.startedAt) / 1000 });
      if (state.kind === 'heldDirty') {
        dirtyHeld--;
        makeReady(key, state.priority, state.addedAt);
      }
      pump();
    },
    len: () => readyCount,
    shutDown() {
      shutdown = true;
      pump();
    },
    isShutDown: () => shutdown,
    endDrains() {
      for (const drainer of drainers.splice(0)) drainer.complete();
    },
    drained$: () => registered(drainers),
    inFlight: () => heldCount,
    setReadyListener(listener) {
      readyListener = listener;
    },
    depthByPriority() {
      // Counted when asked (a scrape), not on every add and take.
      const depth = new Map<number, number>();
      for (const state of active.values()) {
        if (state.kind === 'ready' || state.kind === 'heldDirty') depth.set(state.priority, (depth.get(state.priority) ?? 0) + 1);
      }
      return depth;
    },
    depth: () => readyCount + dirtyHeld,
    addsTotal: () => adds,
    inFlightAges() {
      const t = now();
      let unfinished = 0;
      let longest = 0;
      for (const state of active.values()) {
        if (state.kind === 'ready' || state.kind === 'gone') continue;
        const age = (t - state.startedAt) / 1000;
        unfinished += age;
        longest = Math.max(longest, age);
      }
      return { unfinished, longest };
    },
  };
}
