import { ConfigError } from '../configError.js';
import type { KubeObjectLike, OwnerReference } from './kubeObject.js';

/**
 * The owner reference marked `controller: true` (at most one per object, the API server
 * enforces it), or undefined: client-go's `metav1.GetControllerOf`.
 *
 * @example
 * ```ts
 * const owner = controllerOf(pod);
 * if (owner?.kind === 'ReplicaSet') console.log('owned by', owner.name);
 * ```
 */
export function controllerOf(obj: KubeObjectLike): OwnerReference | undefined {
  return obj.metadata?.ownerReferences?.find((o) => o.controller === true);
}

/**
 * An owner reference to `owner` marked as its controller, with `blockOwnerDeletion` (what
 * controller-runtime's `SetControllerReference` writes). The owner needs `apiVersion`, `kind`,
 * `metadata.name` and `metadata.uid`: objects from the API server have them; the typed models of
 * client-node lists may lack `kind`/`apiVersion`, so pass them in `type`.
 *
 * @throws {ConfigError} naming the first of `apiVersion`, `kind`, `metadata.name`, `metadata.uid`
 * that is missing.
 *
 * @example
 * ```ts
 * const pod = { metadata: { name: 'web-1', ownerReferences: [controllerReference(replicaSet)] } };
 * controllerReference(deployment, { apiVersion: 'apps/v1', kind: 'Deployment' });
 * ```
 */
export function controllerReference(
  owner: KubeObjectLike,
  type: { readonly apiVersion?: string; readonly kind?: string } = {},
): OwnerReference {
  const apiVersion = type.apiVersion ?? owner.apiVersion;
  const kind = type.kind ?? owner.kind;
  const name = owner.metadata?.name;
  const uid = owner.metadata?.uid;
  if (!apiVersion || !kind || !name || !uid) {
    const [option, value] = Object.entries({ apiVersion, kind, 'metadata.name': name, 'metadata.uid': uid }).find(([, v]) => !v) ?? ['owner', owner];
    throw new ConfigError(
      option,
      `controllerReference needs the owner's apiVersion, kind, metadata.name and metadata.uid (got ${JSON.stringify({ apiVersion, kind, name, uid })}); pass apiVersion/kind in the second argument if the object lacks them`,
      { value },
    );
  }
  return { apiVersion, kind, name, uid, controller: true, blockOwnerDeletion: true };
}
