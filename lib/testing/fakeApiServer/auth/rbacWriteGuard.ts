import type { AdmissionPlugin } from '../admission/attributes.js';
import type { AccessControl } from '../rbac/accessControl.js';
import { rbacWriteCheck, type RbacWrite } from '../rbac/rbacWriteCheck.js';
import { StatusError } from '../status.js';

// kube's policy-based storage of the RBAC types: a Role, ClusterRole or binding goes through the
// escalation check (rbac/rbacWriteCheck.ts) before it is stored. Here it is a built-in validating
// step of the one write path, so every verb (create, update, the patches, apply) takes it.

const RBAC_RESOURCES: { readonly [resource: string]: RbacWrite['resource'] } = {
  roles: 'roles',
  clusterroles: 'clusterroles',
  rolebindings: 'rolebindings',
  clusterrolebindings: 'clusterrolebindings',
};

/**
 * The escalation check of role and binding writes: a role or binding may not grant what its author
 * does not hold, in either mode (in AlwaysAllow everyone may escalate, so it always passes). The
 * server's own writes are made as a system:masters user, which may.
 *
 * @example
 * ```ts
 * const admission = new AdmissionChain([rbacEscalation(access)]);
 * ```
 */
export function rbacEscalation(access: AccessControl): AdmissionPlugin {
  return {
    name: 'RBACEscalation',
    operations: ['CREATE', 'UPDATE'],
    handles: (a) => a.resource.group === 'rbac.authorization.k8s.io' && RBAC_RESOURCES[a.resource.resource] !== undefined && a.subResource === '',
    validate: (a) => {
      const { username, groups, uid, extra } = a.userInfo;
      const user = { name: username, groups, ...(uid !== undefined && { uid }), ...(extra && { extra }) };
      const name = a.operation === 'CREATE' ? '' : a.name;
      const write = { resource: RBAC_RESOURCES[a.resource.resource], namespace: a.namespace, name, user, object: a.object, ...(a.oldObject && { oldObject: a.oldObject }) } as RbacWrite;
      const refusal = rbacWriteCheck(write, access.authorizer(), access.objects);
      if (refusal) throw new StatusError(refusal);
    },
  };
}
