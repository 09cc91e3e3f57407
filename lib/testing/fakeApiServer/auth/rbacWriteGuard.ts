import type { AccessControl } from '../rbac/accessControl.js';
import { rbacWriteCheck, type RbacWrite } from '../rbac/rbacWriteCheck.js';
import type { WriteGuard } from '../registry/store.js';
import { StatusError } from '../status.js';

// kube's policy-based storage of the RBAC types: a Role, ClusterRole or binding written over HTTP
// goes through the escalation check (rbac/rbacWriteCheck.ts) before it is stored.

const RBAC_RESOURCES: { readonly [typeId: string]: RbacWrite['resource'] } = {
  'roles.rbac.authorization.k8s.io': 'roles',
  'clusterroles.rbac.authorization.k8s.io': 'clusterroles',
  'rolebindings.rbac.authorization.k8s.io': 'rolebindings',
  'clusterrolebindings.rbac.authorization.k8s.io': 'clusterrolebindings',
};

/**
 * The registry's write guard: a role or binding written over HTTP may not grant what its author
 * does not hold, in either mode (in AlwaysAllow everyone may escalate, so it always passes).
 *
 * @example
 * ```ts
 * registry.writeGuard = rbacWriteGuard(access);
 * ```
 */
export function rbacWriteGuard(access: AccessControl): WriteGuard {
  return ({ type, namespace, name, object, old, user }) => {
    const resource = RBAC_RESOURCES[type.id];
    if (!resource) return;
    const write = { resource, namespace, name, user, object, ...(old && { oldObject: old }) } as RbacWrite;
    const refusal = rbacWriteCheck(write, access.authorizer(), access.objects);
    if (refusal) throw new StatusError(refusal);
  };
}
