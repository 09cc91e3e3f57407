// An index of objects by the uid of their controlling owner: pods by ReplicaSet, ReplicaSets by
// Deployment. With it, "the pods of this ReplicaSet" is one index lookup, not a scan.
import type { IndexFunc, KubeObject } from '../../lib/index.js';

/** The index's name. */
export const ByOwner = 'byOwner';

/** client-go's usual owner index: the uid of the owner reference marked `controller: true`. */
export const byControllerUid: IndexFunc<KubeObject> = (obj) =>
  (obj.metadata?.ownerReferences ?? []).filter((o) => o.controller === true).map((o) => o.uid);

/** The controlling owner reference of an object, if any. */
export function controllerOf(obj: KubeObject): { kind: string; name: string; uid: string } | undefined {
  return obj.metadata?.ownerReferences?.find((o) => o.controller === true);
}
