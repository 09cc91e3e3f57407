import type { Indexers, IndexFunc } from '../store/indexers.js';
import type { KubeObjectLike } from './kubeObject.js';

/**
 * The name of the controller-owner index of {@link controllerOwnerIndexers}.
 *
 * @example
 * ```ts
 * pods.byIndex(ControllerOwnerIndex, replicaSet.metadata!.uid!); // the ReplicaSet's pods
 * ```
 */
export const ControllerOwnerIndex = 'controllerOwner';

/**
 * client-go's usual owner index function: an object is indexed under the uid of its controlling
 * owner (the owner reference with `controller: true`); objects without one are not indexed.
 *
 * @example
 * ```ts
 * const pods = factory.pods({ indexers: { byOwner: byControllerUid } });
 * pods.byIndex('byOwner', rs.metadata!.uid!);
 * ```
 */
export const byControllerUid: IndexFunc<KubeObjectLike> = (obj) =>
  (obj.metadata?.ownerReferences ?? []).filter((o) => o.controller === true).map((o) => o.uid);

/**
 * An `indexers` entry for informers: {@link ControllerOwnerIndex} -> {@link byControllerUid}.
 * With it, "the Pods this ReplicaSet controls" is one index lookup, not a scan.
 *
 * @example
 * ```ts
 * const pods = factory.pods({ indexers: controllerOwnerIndexers });
 * const owned = pods.byIndex(ControllerOwnerIndex, rs.metadata!.uid!);
 * ```
 */
export const controllerOwnerIndexers: Indexers<KubeObjectLike> = Object.freeze({ [ControllerOwnerIndex]: byControllerUid });
