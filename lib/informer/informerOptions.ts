import type { SchedulerLike } from 'rxjs';
import type { FifoMode } from '../fifo/fifoQueue.js';
import type { KeyFunc } from '../meta/keys.js';
import type { ReflectorOptions } from '../reflector/reflector.js';
import type { Indexers } from '../store/indexers.js';
import type { LoggerOption } from '../logging/errorLogger.js';

/**
 * Options of {@link informer}. All optional.
 *
 * @example
 * ```ts
 * const options: InformerOptions<V1Pod> = {
 *   resyncPeriod: 30_000,
 *   indexers: { byNode: (p) => (p.spec?.nodeName ? [p.spec.nodeName] : []) },
 *   transform: stripManagedFields,
 * };
 * ```
 */
export interface InformerOptions<T> {
  /**
   * The default handler resync period and the resync check period (ms), as the `resync` argument of
   * client-go's `NewSharedIndexInformer`. 0 (default): no resync. See `addEventHandler`.
   */
  readonly resyncPeriod?: number;
  /** Named index functions, on top of the `namespace` index. More can be added later. */
  readonly indexers?: Indexers<T>;
  /** The store key. Default `namespace/name`. */
  readonly keyFunc?: KeyFunc<T>;
  /**
   * Runs once on each object from the server before it is stored or handed to anyone (client-go's
   * `SetTransform`), e.g. {@link stripManagedFields}. Set here or with `setTransform` before start.
   */
  readonly transform?: (obj: T) => T;
  /** The delta FIFO's mode: `coalescing` (client-go's DeltaFIFO, default) or `ordered` (RealFIFO). */
  readonly fifoMode?: FifoMode;
  /** Start each list with a streaming list (watch-list), falling back to list + watch. Default false. */
  readonly watchList?: boolean;
  /** The page size of lists (see the reflector's `pageSize`). */
  readonly pageSize?: number;
  /**
   * The clock of every timer (resync check, reflector backoff, watch timeouts) and of lag figures.
   * Default `asyncScheduler`; a `TestScheduler` runs the whole informer on virtual time.
   */
  readonly scheduler?: SchedulerLike;
  /**
   * The resource's name in error messages (`pods`, `deployments.apps`, `widgets.example.com`); the
   * factory sets it. Default: the reflector's `expectedTypeName`, else `<unspecified>`.
   */
  readonly name?: string;
  /** Other reflector options (backoff, timeouts, type name in messages, ...). */
  readonly reflector?: Omit<
    ReflectorOptions,
    'scheduler' | 'useWatchList' | 'pageSize'
  >;
  /**
   * Deep-freeze every object on its way into the store: opt-in mutation detection (client-go's cache
   * mutation detector). A handler that mutates an object it was given then throws a `TypeError`
   * instead of corrupting the cache. Default false (speed); recommended in tests.
   */
  readonly freeze?: boolean;
  /**
   * Where the errors the informer recovers from are logged, explained (see `explainError`) and
   * rate-limited: unset, `console.error`; `false`, nowhere; or your own `Logger` (`{ error(message, error) }`).
   */
  readonly logger?: LoggerOption;
}
