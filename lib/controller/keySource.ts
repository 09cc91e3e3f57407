import { Observable } from 'rxjs';
import type { Notification } from '../informer/notification.js';
import type { KubeObjectLike } from '../meta/kubeObject.js';
import type { ChangePredicate } from './changePredicate.js';
import { changePriority, primaryKey, type OwnerKind, type TriggerInformer, type TriggerSource } from './triggerSource.js';

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

/**
 * The keys an informer's changes map to, as a source: subscribing adds a handler to the informer
 * (and starts it), unsubscribing removes it. Each change emits its keys as {@link Trigger}s at
 * {@link changePriority} (initial list and resyncs low); {@link SOURCE_SYNCED} follows the last
 * change of the initial list; a change whose mapping throws emits a {@link KeysFailed}.
 *
 * ```text
 * informer:  [list a b]----c'------
 * keys:      (a b S)-------c-------     (S: SOURCE_SYNCED)
 * ```
 *
 * @example
 * ```ts
 * const replicaSetsOfPods = informerKeys(pods, (n) => (n.type === 'delete' ? [] : [ownerKey(n)]));
 * ```
 */
export function informerKeys<T>(
  informer: TriggerInformer<T>,
  keysOf: (change: Notification<T>) => Iterable<string>,
  options: InformerKeysOptions<T> = {},
): Observable<Trigger | typeof SOURCE_SYNCED | KeysFailed> {
  return changeKeys(informer, keysOf, options);
}

/**
 * {@link informerKeys}, with a mapping that may answer one key as a string (no array per change:
 * the primary's own source maps each change to one key).
 */
function changeKeys<T>(
  informer: TriggerInformer<T>,
  keysOf: (change: Notification<T>) => Iterable<string> | string | undefined,
  options: InformerKeysOptions<T>,
): Observable<Trigger | typeof SOURCE_SYNCED | KeysFailed> {
  return new Observable((subscriber) => {
    const registration = informer.addEventHandler(
      {
        next: (change: Notification<T>) => {
          // The mapping is the controller's code, not the informer's: its failure goes down this
          // source to the controller's errors$. A lazy iterable is drained here, inside the try.
          let keys: ReadonlyArray<string> | string | undefined;
          try {
            const mapped = keysOf(change);
            keys = mapped === undefined || typeof mapped === 'string' || Array.isArray(mapped) ? (mapped as ReadonlyArray<string> | string | undefined) : [...mapped];
          } catch (e) {
            subscriber.next({ keysFailed: e });
            return;
          }
          // Told of every change, even one that maps to no key (it may show a write waited for).
          const skip = options.seen?.(change);
          if (keys === undefined) return;
          const priority = changePriority(change as Notification<KubeObjectLike>);
          if (typeof keys === 'string') {
            if (!skip?.has(keys)) subscriber.next({ key: keys, priority });
            return;
          }
          for (let i = 0; i < keys.length; i++) if (!skip?.has(keys[i])) subscriber.next({ key: keys[i], priority });
        },
      },
      options.name === undefined ? undefined : { name: options.name },
    );
    const synced = registration.synced$.subscribe((s) => {
      if (s) subscriber.next(SOURCE_SYNCED);
    });
    informer.start();
    return () => {
      synced.unsubscribe();
      registration.remove();
    };
  });
}

/**
 * The primary's own changes that pass every predicate (controller-runtime's `For`), as a source.
 *
 * @example
 * ```ts
 * const source = forKeys(deployments, [generationChanged]);
 * ```
 */
export function forKeys<T extends KubeObjectLike>(
  informer: TriggerInformer<T>,
  predicates: ReadonlyArray<ChangePredicate<T>> = [],
  options: InformerKeysOptions<T> = {},
): Observable<Trigger | typeof SOURCE_SYNCED | KeysFailed> {
  const passes = (n: Notification<T>): boolean => {
    for (let i = 0; i < predicates.length; i++) if (!predicates[i](n)) return false;
    return true;
  };
  return changeKeys(informer, (n) => (passes(n) ? primaryKey(n) : undefined), options);
}

/**
 * A {@link TriggerSource} (`owned(...)`, `watch(...)`) as a source of keys, for a primary of kind
 * `forKind` (needed by `owned`).
 *
 * @example
 * ```ts
 * ctl.addSource(triggerKeys(owned(pods), { apiVersion: 'apps/v1', kind: 'ReplicaSet' }));
 * ```
 */
export function triggerKeys(
  source: TriggerSource,
  forKind?: OwnerKind,
  options: InformerKeysOptions<never> = {},
): Observable<Trigger | typeof SOURCE_SYNCED | KeysFailed> {
  return informerKeys(source.informer, (n) => source.keysOf(n, forKind), options);
}

