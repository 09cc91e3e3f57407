import { Observable, Subject, asyncScheduler, type SchedulerLike, type Subscriber, type Subscription } from 'rxjs';
import { maxTimerDelayMs } from '../operators/longTimer.js';
import { BinaryHeap } from './binaryHeap.js';
import { defaultControllerRateLimiter } from './defaultControllerRateLimiter.js';
import type { RateLimiter } from './rateLimiter.js';
import { checkRateLimiter } from './rateLimiterOptions.js';
import type { AddOptions, QueueItem } from './queueItem.js';
import { checkDelay, checkPriority } from './workQueueArgs.js';
import { NotInFlightError, QueueShutDownError } from './workQueueError.js';
import type { WorkQueueMetricEvent, WorkQueueStats } from './workQueueMetrics.js';

export { LOW_PRIORITY, type AddOptions, type QueueItem } from './queueItem.js';

/**
 * Options of {@link workQueue}.
 *
 * @example
 * ```ts
 * const options: WorkQueueOptions<string> = { name: 'deployments', scheduler: asyncScheduler };
 * ```
 */
export interface WorkQueueOptions<T> {
  /** Used in error messages and as the `name` label of metrics. Default `workqueue`. */
  readonly name?: string;
  /** Default {@link defaultControllerRateLimiter}. */
  readonly rateLimiter?: RateLimiter<T>;
  /** The clock of every timer and duration. Default `asyncScheduler`. */
  readonly scheduler?: SchedulerLike;
}

/**
 * A rate-limited, delaying priority work queue (client-go's `TypedRateLimitingInterface` with
 * controller-runtime's priority queue ordering). Guarantees, as client-go's:
 * - a key is queued at most once: adding a queued key only merges (higher priority, earliest time);
 * - a key added while a worker holds it is marked dirty and queued again when that worker calls
 *   `done`: no key is ever held by two workers at once;
 * - among ready keys the highest priority goes first, then the first added.
 *
 * Workers take keys with `get$()` (one key, then completes; completes empty once shut down) or
 * `tryGet()`, and must call `done(key)` once for each. After `shutDown()` nothing more is handed
 * out, keys waiting for a delay are dropped and `add` throws {@link QueueShutDownError};
 * `shutDownWithDrain()` also waits until the keys in flight are done. A delay that is not a number
 * of milliseconds is an {@link InvalidDelayError}, a priority that is not a finite number an
 * {@link InvalidPriorityError}; either way nothing is added. `null` options are the defaults.
 *
 * @example
 * ```ts
 * const queue = workQueue<string>({ name: 'pods' });
 * queue.add('default/a');
 * queue.get$().subscribe(({ key }) => {
 *   try { reconcile(key); queue.forget(key); } catch { queue.addRateLimited(key); }
 *   queue.done(key);
 * });
 * ```
 */
export interface WorkQueue<T> {
  readonly name: string;
  /** Adds a key now, later (`after`), rate-limited, and/or with a priority. Throws once shut down. */
  add(key: T, options?: AddOptions | null): void;
  /** `add(key, { after: ms })`: client-go's `AddAfter`. `ms` is required (none: InvalidDelayError). */
  addAfter(key: T, ms: number, options?: { priority?: number } | null): void;
  /**
   * `add(key, { rateLimited: true })`: client-go's `AddRateLimited`. A bad priority is refused
   * before the limiter is asked; a bad delay from the limiter is refused after it counted the retry.
   */
  addRateLimited(key: T, options?: { priority?: number } | null): void;
  /** Resets the rate limiter's memory of a key (call it when the key succeeded). */
  forget(key: T): void;
  /** How many times the key has been retried since the last `forget`. */
  numRequeues(key: T): number;
  /** One ready key (waits for one), then completes; completes without a key once shut down. */
  get$(): Observable<QueueItem<T>>;
  /** A ready key now, or `undefined`. */
  tryGet(): QueueItem<T> | undefined;
  /** A worker is finished with a key. Throws {@link NotInFlightError} for a key no worker holds. */
  done(key: T): void;
  /** The number of ready keys. */
  len(): number;
  /** Stops handing out keys, drops delayed ones; idempotent. Ends a drain under way at once (client-go). */
  shutDown(): void;
  /** `shutDown()`, then completes once every key in flight is done. */
  shutDownWithDrain(): Observable<void>;
  shuttingDown(): boolean;
  stats(): WorkQueueStats;
  /** Every add, retry, get and done, for metrics. Hot. */
  readonly metrics$: Observable<WorkQueueMetricEvent>;
}

// The state of a key that is queued or held: ready (in the ready heap), held by a worker, or held
// and dirty (queued again once done). A key may also have a pending delayed add (`waiting`).
type Active =
  | { readonly kind: 'ready'; readonly priority: number; readonly seq: number; readonly addedAt: number }
  | { readonly kind: 'held'; readonly startedAt: number }
  | { readonly kind: 'heldDirty'; readonly startedAt: number; readonly priority: number; readonly addedAt: number };

interface ReadyEntry<T> {
  readonly key: T;
  readonly priority: number;
  readonly seq: number;
}
interface WaitingEntry<T> {
  readonly key: T;
  readonly readyAt: number;
  readonly priority: number;
  readonly seq: number;
}

/**
 * Creates a {@link WorkQueue}.
 *
 * ```text
 * add(a) add(a) get->a add(a) done(a) get->a     (a queued once; re-added while held: queued on done)
 * addAfter(b, 50) addAfter(b, 20)               (b ready at 20: the earliest wins)
 * ```
 *
 * @example
 * ```ts
 * const queue = workQueue<string>({ name: 'deployments', rateLimiter: defaultControllerRateLimiter() });
 * ```
 */
export function workQueue<T>(options?: WorkQueueOptions<T> | null): WorkQueue<T> {
  const name = options?.name ?? 'workqueue';
  const limiter = options?.rateLimiter ?? defaultControllerRateLimiter<T>();
  checkRateLimiter('workQueue', 'rateLimiter', limiter);
  const scheduler = options?.scheduler ?? asyncScheduler;
  const metrics = new Subject<WorkQueueMetricEvent>();
  const active = new Map<T, Active>();
  const waiting = new Map<T, WaitingEntry<T>>();
  const readyHeap = new BinaryHeap<ReadyEntry<T>>((a, b) =>
    a.priority !== b.priority ? a.priority > b.priority : a.seq < b.seq,
  );
  const waitingHeap = new BinaryHeap<WaitingEntry<T>>((a, b) =>
    a.readyAt !== b.readyAt ? a.readyAt < b.readyAt : a.seq < b.seq,
  );
  const waiters: Subscriber<QueueItem<T>>[] = [];
  const drainers: Subscriber<void>[] = [];
  let seq = 0;
  let readyCount = 0;
  let dirtyHeld = 0;
  let addsTotal = 0;
  let retriesTotal = 0;
  let shutdown = false;
  let pumping = false;
  let timer: { subscription: Subscription; at: number; exact: boolean } | undefined;

  const now = () => scheduler.now();

  const makeReady = (key: T, priority: number, addedAt: number) => {
    const entry = { key, priority, seq: seq++ };
    active.set(key, { kind: 'ready', priority, seq: entry.seq, addedAt });
    readyHeap.push(entry);
    readyCount++;
  };

  // Adds a key that is ready now (client-go's Add): merges into a queued or dirty key.
  const addNow = (key: T, rawPriority: number) => {
    const state = active.get(key);
    // Ready now is the earliest time: a pending delayed add is moot, but its priority is not (the
    // higher one wins, as controller-runtime merges both into one item).
    const pending = waiting.get(key);
    const priority = pending !== undefined && pending.priority > rawPriority ? pending.priority : rawPriority;
    waiting.delete(key);
    if (state === undefined) {
      makeReady(key, priority, now());
    } else if (state.kind === 'held') {
      active.set(key, { kind: 'heldDirty', startedAt: state.startedAt, priority, addedAt: now() });
      dirtyHeld++;
    } else if (state.priority < priority) {
      if (state.kind === 'ready') {
        // To the back of its new level (controller-runtime bumps AddedCounter): the old heap entry
        // becomes stale.
        const entry = { key, priority, seq: seq++ };
        active.set(key, { ...state, priority, seq: entry.seq });
        readyHeap.push(entry);
      } else {
        active.set(key, { ...state, priority });
      }
      return;
    } else {
      return;
    }
    addsTotal++;
    metrics.next({ type: 'add' });
    pump();
  };

  const addLater = (key: T, delay: number, priority: number) => {
    const state = active.get(key);
    if (state !== undefined && state.kind !== 'held') {
      // Already queued to run sooner: keep the higher priority only.
      if (state.priority < priority) addNow(key, priority);
      return;
    }
    const readyAt = now() + delay;
    const current = waiting.get(key);
    if (current !== undefined && current.readyAt <= readyAt) {
      if (current.priority < priority) waiting.set(key, { ...current, priority });
      return;
    }
    const entry = { key, readyAt, priority: Math.max(priority, current?.priority ?? priority), seq: seq++ };
    waiting.set(key, entry);
    waitingHeap.push(entry);
    armTimer();
  };

  // One timer, at the earliest ready time (client-go re-checks every 10 s as well; a scheduler
  // timer is exact, so there is no heartbeat).
  const armTimer = () => {
    let head = waitingHeap.peek();
    while (head !== undefined && waiting.get(head.key)?.seq !== head.seq) {
      waitingHeap.pop();
      head = waitingHeap.peek();
    }
    // A key ready at Infinity never needs a timer (one would keep the process alive for ever): it
    // leaves by shutDown or by being added again sooner. The heap puts every such key last.
    if (head === undefined || head.readyAt === Infinity || shutdown) {
      timer?.subscription.unsubscribe();
      timer = undefined;
      return;
    }
    if (timer !== undefined && timer.at <= head.readyAt) return;
    timer?.subscription.unsubscribe();
    const at = head.readyAt;
    const delay = Math.max(0, at - now());
    // At most the timer limit ahead (a longer timer would fire after 1 ms, again and again): such
    // a timer is not `exact`, and fireTimer() finds nothing due yet and re-arms.
    const exact = delay <= maxTimerDelayMs;
    timer = { at, exact, subscription: scheduler.schedule(fireTimer, exact ? delay : maxTimerDelayMs) };
  };

  const fireTimer = () => {
    // The time an exact timer was armed for has come, even when now() says a hair less (fractional
    // virtual time): else nothing would be due and the timer would re-arm at once, for ever.
    const armedFor = timer?.exact ? timer.at : -Infinity;
    timer = undefined;
    const t = Math.max(now(), armedFor);
    for (let head = waitingHeap.peek(); head !== undefined && head.readyAt <= t; head = waitingHeap.peek()) {
      waitingHeap.pop();
      const current = waiting.get(head.key);
      if (current?.seq !== head.seq) continue;
      waiting.delete(head.key);
      addNow(head.key, current.priority);
    }
    armTimer();
  };

  const take = (): QueueItem<T> | undefined => {
    if (shutdown) return undefined;
    for (let entry = readyHeap.pop(); entry !== undefined; entry = readyHeap.pop()) {
      const state = active.get(entry.key);
      if (state?.kind !== 'ready' || state.seq !== entry.seq || state.priority !== entry.priority) continue;
      const t = now();
      active.set(entry.key, { kind: 'held', startedAt: t });
      readyCount--;
      metrics.next({ type: 'get', queueSeconds: (t - state.addedAt) / 1000 });
      return { key: entry.key, priority: entry.priority };
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
      if (shutdown && heldCount() === 0) for (const drainer of drainers.splice(0)) drainer.complete();
    } finally {
      pumping = false;
    }
  };

  const heldCount = () => active.size - readyCount;

  // Every add comes here (no options object is made per add). Everything that can be refused is
  // checked before the rate limiter is asked, as it counts a retry that cannot be taken back.
  const addKey = (key: T, after: unknown, rateLimited: unknown, rawPriority: unknown) => {
    if (shutdown) throw new QueueShutDownError(name, key);
    const priority = checkPriority(name, key, rawPriority);
    let delay = checkDelay(name, key, after, 'addAfter');
    if (rateLimited) {
      // The shorter of `after` and the limiter's delay (controller-runtime's AddWithOpts).
      const limited = checkDelay(name, key, limiter.when(key, now()), 'its rate limiter');
      delay = delay > 0 && delay < limited ? delay : limited;
      retriesTotal++;
      metrics.next({ type: 'retry' });
    }
    if (delay > 0) addLater(key, delay, priority);
    else addNow(key, priority);
  };

  // Shuts down; ending the drains under way is shutDown()'s alone (shutDownWithDrain waits).
  const stop = () => {
    if (shutdown) return;
    shutdown = true;
    waiting.clear();
    waitingHeap.clear();
    armTimer();
    pump();
  };

  const queue: WorkQueue<T> = {
    name,
    metrics$: metrics.asObservable(),
    add: (key, addOptions) => addKey(key, addOptions?.after ?? 0, addOptions?.rateLimited, addOptions?.priority),
    addAfter: (key, ms, addOptions) => addKey(key, ms, false, addOptions?.priority),
    addRateLimited: (key, addOptions) => addKey(key, 0, true, addOptions?.priority),
    forget: (key) => limiter.forget(key),
    numRequeues: (key) => limiter.numRequeues(key),
    get$: () =>
      new Observable<QueueItem<T>>((subscriber) => {
        waiters.push(subscriber);
        pump();
        return () => {
          const i = waiters.indexOf(subscriber);
          if (i >= 0) waiters.splice(i, 1);
        };
      }),
    tryGet: take,
    done(key) {
      const state = active.get(key);
      if (state === undefined || state.kind === 'ready') throw new NotInFlightError(name, key);
      active.delete(key);
      metrics.next({ type: 'done', workSeconds: (now() - state.startedAt) / 1000 });
      if (state.kind === 'heldDirty') {
        dirtyHeld--;
        makeReady(key, state.priority, state.addedAt);
      }
      pump();
    },
    len: () => readyCount,
    shutDown() {
      stop();
      // client-go's ShutDown sets drain=false: a drain under way ends now, keys still in flight.
      for (const drainer of drainers.splice(0)) drainer.complete();
    },
    shutDownWithDrain: () =>
      new Observable<void>((subscriber) => {
        stop();
        drainers.push(subscriber);
        pump();
        return () => {
          const i = drainers.indexOf(subscriber);
          if (i >= 0) drainers.splice(i, 1);
        };
      }),
    shuttingDown: () => shutdown,
    stats() {
      const t = now();
      let unfinished = 0;
      let longest = 0;
      for (const state of active.values()) {
        if (state.kind === 'ready') continue;
        const age = (t - state.startedAt) / 1000;
        unfinished += age;
        longest = Math.max(longest, age);
      }
      return {
        depth: readyCount + dirtyHeld,
        ready: readyCount,
        waiting: waiting.size,
        inFlight: heldCount(),
        addsTotal,
        retriesTotal,
        unfinishedWorkSeconds: unfinished,
        longestRunningProcessorSeconds: longest,
      };
    },
  };
  return queue;
}
