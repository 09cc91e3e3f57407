import type { KubeObjectLike } from '../meta/kubeObject.js';

/**
 * A reference to an object, as an Event's `regarding` and `related` carry it (core/v1
 * `ObjectReference`).
 *
 * @example
 * ```ts
 * const ref: ObjectReference = { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'shop', name: 'web', uid: 'u1' };
 * ```
 */
export interface ObjectReference {
  apiVersion?: string;
  kind?: string;
  namespace?: string;
  name?: string;
  uid?: string;
  resourceVersion?: string;
  fieldPath?: string;
}

/**
 * The reference to `obj` (client-go's `reference.GetReference`). Objects in lists (what informers
 * hold) have no `kind`/`apiVersion` on real clusters: pass them in `type`.
 *
 * @example
 * ```ts
 * recorder.publish({ type: 'Normal', reason: 'Scaled', action: 'Scale', regarding: objectReference(d, { apiVersion: 'apps/v1', kind: 'Deployment' }) });
 * ```
 */
export function objectReference(obj: KubeObjectLike, type: { readonly apiVersion?: string; readonly kind?: string } = {}): ObjectReference {
  const m = obj.metadata ?? {};
  const ref: ObjectReference = {
    apiVersion: type.apiVersion ?? obj.apiVersion,
    kind: type.kind ?? obj.kind,
    namespace: m.namespace,
    name: m.name,
    uid: m.uid,
    resourceVersion: m.resourceVersion,
  };
  for (const k of Object.keys(ref) as Array<keyof ObjectReference>) if (ref[k] === undefined) delete ref[k];
  return ref;
}
