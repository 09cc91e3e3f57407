import { Subject, asyncScheduler, defer, type Observable, type SchedulerLike } from 'rxjs';
import { coreQueue } from './coreQueue.js';
import { registerQueueCore } from './queueConsumer.js';
import { defaultControllerRateLimiter } from './defaultControllerRateLimiter.js';
import { delayingQueue } from './delayingQueue.js';
import type { RateLimiter } from './rateLimiter.js';
import { checkRateLimiter } from './rateLimiterOptions.js';
import { rateLimitingQueue } from './rateLimitingQueue.js';
import type { AddOptions, QueueItem } from './queueItem.js';
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

/**
 * Creates a {@link WorkQueue}: client-go's layers, each in its own file: the core queue
 * ({@link coreQueue}: dirty and processing sets, priority levels), the delaying layer
 * ({@link delayingQueue}) and the rate-limiting layer ({@link rateLimitingQueue}).
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
  const core = coreQueue<T>(name, scheduler, metrics);
  const delaying = delayingQueue(core, scheduler);
  const limited = rateLimitingQueue(name, core, delaying, limiter, scheduler, metrics);

  // Shuts down; ending the drains under way is shutDown()'s alone (shutDownWithDrain waits).
  const stop = () => {
    if (core.isShutDown()) return;
    delaying.shutDown();
    core.shutDown();
  };

  const queue: WorkQueue<T> = {
    name,
    metrics$: metrics.asObservable(),
    add: (key, addOptions) => limited.add(key, addOptions?.after ?? 0, addOptions?.rateLimited, addOptions?.priority),
    addAfter: (key, ms, addOptions) => limited.add(key, ms, false, addOptions?.priority),
    addRateLimited: (key, addOptions) => limited.add(key, 0, true, addOptions?.priority),
    forget: limited.forget,
    numRequeues: limited.numRequeues,
    get$: core.get$,
    tryGet: () => core.take(),
    done: core.done,
    len: core.len,
    shutDown() {
      stop();
      // client-go's ShutDown sets drain=false: a drain under way ends now, keys still in flight.
      core.endDrains();
    },
    shutDownWithDrain: () =>
      defer(() => {
        stop();
        return core.drained$();
      }),
    shuttingDown: core.isShutDown,
    stats() {
      const { unfinished, longest } = core.inFlightAges();
      return {
        depth: core.depth(),
        depthByPriority: new Map(core.depthByPriority()),
        ready: core.len(),
        waiting: delaying.waiting(),
        inFlight: core.inFlight(),
        addsTotal: core.addsTotal(),
        retriesTotal: limited.retriesTotal(),
        unfinishedWorkSeconds: unfinished,
        longestRunningProcessorSeconds: longest,
      };
    },
  };
  registerQueueCore(queue, core);
  return queue;
}
