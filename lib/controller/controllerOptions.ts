import type { Observable, SchedulerLike } from 'rxjs';
import type { LoggerOption } from '../informer/errorLogger.js';
import type { KubeObjectLike } from '../meta/kubeObject.js';
import type { RateLimiter } from '../workqueue/rateLimiter.js';
import type { WorkQueue } from '../workqueue/workQueue.js';
import type { ChangePredicate } from './changePredicate.js';
import type { CacheSyncTimeoutError, ControllerInputError, ReconcileError } from './controllerErrors.js';
import type { ControllerMetricEvent, ControllerStats, ControllerStatus } from './controllerMetrics.js';
import type { Reconciler } from './reconciler.js';
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
  /** How many reconciles run at once (`MaxConcurrentReconciles`). Default 1. */
  readonly concurrency?: number;
  /** Retry delays of failed keys. Default {@link defaultControllerRateLimiter}. */
  readonly rateLimiter?: RateLimiter<string>;
  /** A reconcile running longer (ms) is aborted and retried (`ReconciliationTimeout`). Default none. */
  readonly reconcileTimeout?: number;
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
   * The keys this replica owns (sharding): each emission replaces the filter. Until the first,
   * nothing is reconciled. Keys not passing are not queued, and skipped if already queued; keys
   * that start passing are queued (low priority).
   */
  readonly keyFilter$?: Observable<(key: string) => boolean>;
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
  /** Reconcile failures, a cache sync timeout, a failed `leading$` / `keyFilter$`. Hot; completes once stopped. */
  readonly errors$: Observable<ControllerError>;
  /** One event per reconcile, for metrics. Hot; completes once stopped. */
  readonly metrics$: Observable<ControllerMetricEvent>;
  status(): ControllerStatus;
  stats(): ControllerStats;
  /** Adds the handlers, starts the informers, and the workers once every informer has synced. */
  start(): void;
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
export type ControllerError = ReconcileError | CacheSyncTimeoutError | ControllerInputError;
