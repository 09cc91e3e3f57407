import type { Observable } from 'rxjs';
import type { Notification } from '../informer/notification.js';

/**
 * A key to reconcile, at a priority (default 0; higher first; `LOW_PRIORITY` for background work).
 *
 * @example
 * ```ts
 * const t: Trigger = { key: 'shop/web', priority: 10 };
 * ```
 */
export interface Trigger {
  readonly key: string;
  readonly priority?: number;
}

/**
 * What an informer-built source emits once the changes of its informer's initial list have all
 * been emitted: the controller starts reconciling once every such source of its own has.
 *
 * @example
 * ```ts
 * source$.pipe(filter((e) => e !== SOURCE_SYNCED));
 * ```
 */
export const SOURCE_SYNCED: { readonly synced: true } = Object.freeze({ synced: true as const });

/**
 * What an informer-built source emits instead of keys when mapping a change to keys threw (a
 * predicate, an `owns`/`watches` mapper): that change triggers nothing, the source goes on, and
 * the controller reports it on its `errors$` (a `ControllerSourceError`, reason `keysFailed`),
 * not on the informer's.
 *
 * @example
 * ```ts
 * source$.pipe(filter((e) => !isKeysFailed(e)));
 * ```
 */
export interface KeysFailed {
  readonly keysFailed: unknown;
}

/**
 * Whether a source's emission is a {@link KeysFailed}.
 *
 * @example
 * ```ts
 * if (isKeysFailed(e)) console.warn(e.keysFailed);
 * ```
 */
export const isKeysFailed = (e: unknown): e is KeysFailed => typeof e === 'object' && e !== null && 'keysFailed' in e;

/**
 * A controller's trigger: an Observable of keys (plain strings or {@link Trigger}s). `for`, `owns`
 * and `watches` are sources built from informers ({@link informerKeys}); any other Observable fits
 * too (a timer, a webhook, a message queue), given to the controller's `sources` option or to
 * `addSource` while it runs. A source that errors or completes is reported on the controller's
 * `errors$`; the controller goes on with the others.
 *
 * @example
 * ```ts
 * const nightly: KeySource = interval(86_400_000).pipe(map(() => 'shop/web'));
 * ```
 */
export type KeySource = Observable<string | Trigger | typeof SOURCE_SYNCED | KeysFailed>;

/**
 * Options of {@link informerKeys}.
 *
 * @example
 * ```ts
 * const options: InformerKeysOptions<V1Pod> = { name: 'pods' };
 * ```
 */
export interface InformerKeysOptions<T> {
  /** The handler's name (metrics, logs). */
  readonly name?: string;
  /**
   * Told of each change before its keys are emitted; the keys it answers are not emitted (the
   * controller's read-your-own-writes: keys already reconciling on this change).
   */
  readonly seen?: (change: Notification<T>) => ReadonlySet<string> | undefined;
}
