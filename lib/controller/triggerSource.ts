import { DeletedFinalStateUnknown } from '../meta/deletedFinalStateUnknown.js';
import type { AddEventHandlerOptions, HandlerRegistration } from '../informer/handlerRegistration.js';
import type { Notification } from '../informer/notification.js';
import type { EventHandler } from '../informer/resourceEventHandler.js';
import { metaNamespaceKeyFunc } from '../meta/keys.js';
import type { KubeObjectLike, OwnerReference } from '../meta/kubeObject.js';
import { LOW_PRIORITY } from '../workqueue/workQueue.js';
import type { ChangePredicate } from './changePredicate.js';

/**
 * What a controller needs of an informer it is triggered by: a way to add a handler, and to start
 * it. Every rxkube {@link Informer} fits.
 *
 * @example
 * ```ts
 * const source: TriggerInformer<V1Pod> = factory.pods();
 * ```
 */
export interface TriggerInformer<T> {
  addEventHandler(handler: EventHandler<T>, options?: AddEventHandlerOptions): HandlerRegistration;
  start(): void;
}

/**
 * The kind of a controller's primary objects: what `ownerReferences` must name to enqueue it.
 *
 * @example
 * ```ts
 * const forKind: OwnerKind = { apiVersion: 'apps/v1', kind: 'Deployment' };
 * ```
 */
export interface OwnerKind {
  /** e.g. `apps/v1`; only the group part is compared, as controller-runtime does. */
  readonly apiVersion: string;
  readonly kind: string;
  /** False for a cluster-scoped kind: the key is then the owner's name alone. Default true. */
  readonly namespaced?: boolean;
}

/**
 * A source of keys for a controller besides its primary informer: built by {@link owned} or
 * {@link watch}, or written by hand.
 *
 * @example
 * ```ts
 * const sources: TriggerSource[] = [owned(pods), watch(configMaps, (cm) => [`${cm.metadata?.namespace}/web`])];
 * ```
 */
export interface TriggerSource {
  readonly informer: TriggerInformer<never>;
  /** The keys (and their priority) a change enqueues, knowing the primary kind. */
  keysOf(change: Notification<never>, forKind: OwnerKind | undefined): ReadonlyArray<string>;
  /** True if this source needs `forKind` (it follows owner references). */
  readonly needsForKind: boolean;
}

/**
 * The priority a change is queued at: low for the initial list and for resyncs (same resource
 * version), as controller-runtime's priority handler does; 0 otherwise.
 *
 * @example
 * ```ts
 * changePriority(addNotification(pod, true)); // LOW_PRIORITY
 * ```
 */
export function changePriority<T extends KubeObjectLike>(change: Notification<T>): number {
  if (change.type === 'add') return change.isInInitialList ? LOW_PRIORITY : 0;
  if (change.type === 'update') {
    const before = change.oldObject.metadata?.resourceVersion;
    return before !== undefined && before === change.newObject.metadata?.resourceVersion ? LOW_PRIORITY : 0;
  }
  return 0;
}

/** The objects of a change: both states of an update (a mapping may differ between them). */
function objectsOf<T>(change: Notification<T>): T[] {
  if (change.type === 'update') return [change.oldObject, change.newObject];
  if (change.type === 'add') return [change.object];
  return [change.object instanceof DeletedFinalStateUnknown ? change.object.obj : change.object];
}

const groupOf = (apiVersion: string) => (apiVersion.includes('/') ? apiVersion.split('/')[0] : '');

/**
 * The key of an object's controller owner of `kind` (the owner reference with `controller: true`
 * whose group and kind match), or `undefined`.
 *
 * @example
 * ```ts
 * controllerOwnerKey(pod, { apiVersion: 'apps/v1', kind: 'ReplicaSet' }); // 'default/web-7d9f'
 * ```
 */
export function controllerOwnerKey(obj: KubeObjectLike, kind: OwnerKind): string | undefined {
  const ref = (obj.metadata?.ownerReferences ?? []).find(
    (r: OwnerReference) => r.controller === true && r.kind === kind.kind && groupOf(r.apiVersion) === groupOf(kind.apiVersion),
  );
  if (ref === undefined) return undefined;
  const namespace = obj.metadata?.namespace;
  return kind.namespaced === false || !namespace ? ref.name : `${namespace}/${ref.name}`;
}

/**
 * Objects owned by the primary (controller-runtime's `Owns`, kube-rs' `owns`): a change of one
 * enqueues the primary named by its controller owner reference (`controller: true`, of the
 * controller's `forKind`); both owners of an update whose owner changed.
 *
 * @example
 * ```ts
 * controller({ for: replicaSets, forKind: { apiVersion: 'apps/v1', kind: 'ReplicaSet' }, owns: [owned(pods)], reconcile });
 * ```
 */
export function owned<O extends KubeObjectLike>(
  informer: TriggerInformer<O>,
  options: { predicate?: ChangePredicate<O> } = {},
): TriggerSource {
  return {
    informer: informer as TriggerInformer<never>,
    needsForKind: true,
    keysOf(change, forKind) {
      const c = change as Notification<O>;
      if (forKind === undefined || (options.predicate && !options.predicate(c))) return [];
      const keys = new Set<string>();
      for (const obj of objectsOf(c)) {
        const key = controllerOwnerKey(obj, forKind);
        if (key !== undefined) keys.add(key);
      }
      return [...keys];
    },
  };
}

/**
 * Any other objects, mapped to the keys they affect (controller-runtime's `Watches` with
 * `EnqueueRequestsFromMapFunc`, kube-rs' `watches`): both states of an update are mapped.
 *
 * @example
 * ```ts
 * // Every Deployment that mounts a changed ConfigMap.
 * watch(configMaps, (cm) => deployments.byIndex('byConfigMap', metaNamespaceKeyFunc(cm)).map(metaNamespaceKeyFunc));
 * ```
 */
export function watch<W>(
  informer: TriggerInformer<W>,
  map: (obj: W) => Iterable<string>,
  options: { predicate?: ChangePredicate<W> } = {},
): TriggerSource {
  return {
    informer: informer as TriggerInformer<never>,
    needsForKind: false,
    keysOf(change) {
      const c = change as Notification<W>;
      if (options.predicate && !options.predicate(c)) return [];
      const keys = new Set<string>();
      for (const obj of objectsOf(c)) for (const key of map(obj)) keys.add(key);
      return [...keys];
    },
  };
}

/**
 * The primary's own changes: the object's key (a tombstone's key for a deletion found on a relist).
 *
 * @example
 * ```ts
 * primaryKey(deleteNotification(new DeletedFinalStateUnknown('ns/a', obj))); // 'ns/a'
 * ```
 */
export function primaryKey<T extends KubeObjectLike>(change: Notification<T>): string {
  if (change.type === 'delete' && change.object instanceof DeletedFinalStateUnknown) return change.object.key;
  return metaNamespaceKeyFunc(change.type === 'update' ? change.newObject : (change.object as T));
}
