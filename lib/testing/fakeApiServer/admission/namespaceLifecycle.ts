import type { JsonObject, ResourceType } from '../resources.js';
import { failure, qualifiedResource, StatusError } from '../status.js';

// Namespace lifecycle as kube-apiserver (namespace strategy, NamespaceLifecycle admission) answers
// it; the namespace controller's part (emptying a Terminating namespace) is in controllers.ts.

/** The namespace finalizer kube adds on create, removed by the namespace controller once the namespace is empty. */
export const KUBERNETES_FINALIZER = 'kubernetes';
const IMMORTAL = new Set(['default', 'kube-system', 'kube-public']);

/**
 * A created Namespace: `status.phase: Active`, `spec.finalizers` with `kubernetes` appended.
 * Mutates `obj`.
 *
 * @example
 * ```ts
 * prepareNamespaceForCreate(ns); // ns.spec.finalizers = ['kubernetes']
 * ```
 */
export function prepareNamespaceForCreate(obj: JsonObject): void {
  const spec = (obj.spec && typeof obj.spec === 'object' ? { ...(obj.spec as JsonObject) } : {}) as { finalizers?: unknown };
  const finalizers = Array.isArray(spec.finalizers) ? spec.finalizers.filter((f) => f !== KUBERNETES_FINALIZER) : [];
  spec.finalizers = [...finalizers, KUBERNETES_FINALIZER];
  obj.spec = spec;
  obj.status = { phase: 'Active' };
}

/**
 * A Namespace's first DELETE: 403 for `default`, `kube-system` and `kube-public`; otherwise
 * `status.phase: Terminating`. Mutates `obj`.
 *
 * @example
 * ```ts
 * prepareNamespaceForDelete(ns); // ns.status.phase === 'Terminating'
 * ```
 */
export function prepareNamespaceForDelete(obj: JsonObject, name: string): void {
  if (IMMORTAL.has(name)) {
    throw new StatusError(failure(403, 'Forbidden', `namespaces "${name}" is forbidden: this namespace may not be deleted`, { name, kind: 'namespaces' }));
  }
  obj.status = { ...((obj.status as JsonObject | undefined) ?? {}), phase: 'Terminating' };
}

/**
 * The NamespaceLifecycle admission's 403 for a create in a Terminating namespace.
 *
 * @example
 * ```ts
 * throw namespaceTerminating(configMapsType, 'ns1', 'x');
 * ```
 */
export function namespaceTerminating(type: ResourceType, namespace: string, name: string): StatusError {
  return new StatusError(
    failure(403, 'Forbidden', `${qualifiedResource(type)} "${name}" is forbidden: unable to create new content in namespace ${namespace} because it is being terminated`, {
      name,
      ...(type.group ? { group: type.group } : {}),
      kind: type.plural,
      causes: [{ reason: 'NamespaceTerminating', message: `namespace ${namespace} is being terminated`, field: 'metadata.namespace' }],
    }),
  );
}
