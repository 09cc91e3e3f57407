import type { Tracing } from '../tracing/tracing.js';
import type { Observable, SchedulerLike, Subscription } from 'rxjs';
import type { LoggerOption } from '../logging/errorLogger.js';
import type { KubeObjectLike } from '../meta/kubeObject.js';
import type { ControllerSourceError } from './controllerSourceError.js';
import type { KeySource } from './keySource.js';
import type { ReconcileReport } from './reconcileReport.js';
import type { RateLimiter } from '../workqueue/rateLimiter.js';
import type { WorkQueue } from '../workqueue/workQueue.js';
import type { ChangePredicate } from './changePredicate.js';
import type { CacheSyncTimeoutError, ControllerInputError, ReconcileError } from './controllerErrors.js';
import type { OwnWritesTimeoutError } from './ownWritesTimeoutError.js';
import type { ControllerMetricEvent, ControllerStats, ControllerStatus } from './controllerMetrics.js';
import type { Reconciler } from './reconciler.js';
import type { Permission } from '../rbac/permission.js';
import type { OwnerKind, TriggerInformer, TriggerSource } from './triggerSource.js';

/**
 * What a controller needs of its primary informer: handlers, start, and reads of its store.
 *
 * @example
 * ```ts
 * const primary: ForInformer<V1Deployment> = factory.deployments();
 * ```
 */
export interface ForInformer<T> extends TriggerInformer<T> {
  getByKey(key: string): T | undefined;
  listKeys(): ReadonlyArray<string>;
}

/**
 * Options of {@link controller}. Names follow controller-runtime's builder and kube-rs' `Controller`.
 *
 * @example
 * ```ts
 * const options: ControllerOptions<V1ReplicaSet> = {
 *   for: replicaSets,
 *   forKind: { apiVersion: 'apps/v1', kind: 'ReplicaSet' },
 *   owns: [pods],
 *   reconcile: async (key, { object }) => { if (object) await scale(object); },
 *   concurrency: 4,
 * };
 * ```
 */
export interface ControllerOptions<T extends KubeObjectLike> {
  /** The primary informer: its changes enqueue their own keys; reconcile reads from its store. */
  readonly for: ForInformer<T>;
  readonly reconcile: Reconciler<T>;
  /** Used in errors, metrics labels and handler names. Default `controller`. */
  readonly name?: string;
  /** The primary's kind: needed by `owns` to follow owner references. */
  readonly forKind?: OwnerKind;
  /** Only changes of the primary that pass every predicate enqueue (`WithEventFilter` / `For(..., WithPredicates)`). */
  readonly predicates?: ReadonlyArray<ChangePredicate<T>>;
  /** Owned objects: an informer (wrapped with {@link owned}) or an `owned(informer, { predicate })`. */
  readonly owns?: ReadonlyArray<TriggerInformer<KubeObjectLike> | TriggerSource>;
  /** Other objects mapped to keys: `watch(informer, obj => keys)`. */
  readonly watches?: ReadonlyArray<TriggerSource>;
  /**
   * Any other Observables of keys (`'ns/name'` or `{ key, priority }`): subscribed from `start()`.
   * They do not hold the first reconcile back (only the informers of `for`, `owns` and `watches`
   * do). One that errors or completes is reported on `errors$` ({@link ControllerSourceError}).
   */
  readonly sources?: ReadonlyArray<KeySource>;
  /** How many reconciles run at once (`MaxConcurrentReconciles`). Default 1. */
  readonly concurrency?: number;
  /** Retry delays of failed keys. Default {@link defaultControllerRateLimiter}. */
  readonly rateLimiter?: RateLimiter<string>;
  /** A reconcile running longer (ms) is aborted and retried (`ReconciliationTimeout`). Default none. */
  readonly reconcileTimeout?: number;
  /**
   * Read-your-own-writes: a key's next reconcile waits until the controller's informers have seen
   * the writes its last reconcile recorded (`ctx.wrote`, `ctx.track`, helpers given `tracker: ctx`),
   * so that it never acts on a cache older than its own writes. Default true; false turns it off.
   */
  readonly readYourWrites?: boolean;
  /**
   * The bound (ms) of that wait: past it the key is reconciled anyway and an
   * {@link OwnWritesTimeoutError} reported. Default 5000.
   */
  readonly readYourWritesTimeout?: number;
  /** Fail (status `failed`, {@link CacheSyncTimeoutError}) if the informers are not synced by then (ms). Default 120 000. */
  readonly cacheSyncTimeout?: number;
  /** The clock of every timer. Default `asyncScheduler`. */
  readonly scheduler?: SchedulerLike;
  /**
   * Where `errors$` is logged (one subscriber of it, as for informers): unset logs to
   * `console.error`, rate-limited, unless `RXKUBE_LOG=off`; `false` logs nothing.
   */
  readonly logger?: LoggerOption;
  /**
   * Traces (`openTelemetryTracing()` from rxkube/tracing): a span per reconcile, linked to every
   * change coalesced into it, with its writes and its wait for its own writes as child spans.
   * Unset: nothing is traced, at no cost.
   */
  readonly tracing?: Tracing;
  /**
   * The keys this replica owns (sharding): each emission replaces the filter. Until the first,
   * nothing is reconciled. Keys not passing are not queued, and skipped if already queued; keys
   * that start passing are queued (low priority).
   */
  readonly keyFilter$?: Observable<(key: string) => boolean>;
  /**
   * What the reconciles do that rxkube cannot see (writes made with client-node, subresources,
   * Events...), for RBAC generation: `can.create(configMaps)`, `can.writeStatus(backups)`, an
   * `eventRecorder`, a lease lock. `permissionsOf(controller)` adds the reads of `for`, `owns` and
   * `watches`. Declared here, never inferred from running.
   */
  readonly permissions?: ReadonlyArray<Permission | ReadonlyArray<Permission> | object>;
  /**
   * Whether to reconcile now (leader election). While false, informers run and keys are queued
   * (warm), but no reconcile starts; reconciles in flight finish. Default: always true.
   */
  readonly leading$?: Observable<boolean>;
}

/**
 * A running controller: see {@link controller}.
 *
 * @example
 * ```ts
 * ctl.start();
 * ctl.errors$.subscribe((e) => console.warn(e.message));
 * process.on('SIGTERM', () => void ctl.stop());
 * ```
 */
export interface Controller {
  readonly name: string;
  /** The controller's queue: `queue.add(key)` reconciles a key on demand. */
  readonly queue: WorkQueue<string>;
  /** The current status, then every change; completes once stopped. */
  readonly status$: Observable<ControllerStatus>;
  /** Reconcile failures, a cache sync timeout, a failed `leading$` / `keyFilter$`, a wait for own writes past its bound, a source that ended. Hot; completes once stopped. */
  readonly errors$: Observable<ControllerError>;
  /** One event per reconcile (derived from `results$`) and per wait for own writes, for metrics. Hot; completes once stopped. */
  readonly metrics$: Observable<ControllerMetricEvent>;
  /**
   * The controller's run as a stream: one {@link ReconcileReport} per reconcile (key, result,
   * duration, requeue, retries, wait for own writes). `errors$` and `metrics$` derive their
   * reconcile entries from it. Hot; completes once stopped.
   */
  readonly results$: Observable<ReconcileReport>;
  status(): ControllerStatus;
  stats(): ControllerStats;
  /** Subscribes the sources (starting the informers), and the workers once every informer has synced. */
  start(): void;
  /**
   * Adds a source of keys, before or after `start()`; unsubscribe the answer to remove it. It does
   * not hold reconciles back for a sync. Errors and completion are reported on `errors$`.
   */
  addSource(source: KeySource, name?: string): Subscription;
  /**
   * Stops taking changes and keys; resolves once the reconciles in flight have finished. Idempotent.
   * A reconcile that never settles holds it: set `reconcileTimeout` to bound it.
   */
  stop(): Promise<void>;
}

/**
 * What a controller's `errors$` carries.
 *
 * @example
 * ```ts
 * ctl.errors$.subscribe((e: ControllerError) => console.warn(e.code, e.message));
 * ```
 */
export type ControllerError =
  | ReconcileError
  | CacheSyncTimeoutError
  | ControllerInputError
  | OwnWritesTimeoutError
  | ControllerSourceError;
