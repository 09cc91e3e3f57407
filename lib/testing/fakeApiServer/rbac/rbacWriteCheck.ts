// The escalation guard on writes of roles and bindings (KK pkg/registry/rbac/{role,clusterrole,
// rolebinding,clusterrolebinding}/policybased/storage.go, pkg/registry/rbac/escalation_check.go):
// nobody grants what they do not hold, unless they are `system:masters`, may `escalate` the role
// resource (roles, clusterroles) or `bind` the referenced role (bindings). An update that changes
// only owner references or finalizers (what the garbage collector writes) is not checked.
import type { Status } from '../../../errors.js';
import { notFound } from '../status.js';
import type { Authorizer } from './authorizer.js';
import { confirmNoEscalation } from './escalation.js';
import { forbiddenStatus } from './forbidden.js';
import type { PolicyRule, RbacBinding, RbacObjects, RbacRole } from './rbacObjects.js';
import { listOf } from './rbacObjects.js';
import { GROUPS, type UserInfo } from './userInfo.js';

const RBAC_GROUP = 'rbac.authorization.k8s.io';

/** Setting an aggregation rule takes every permission: it can gather anything. */
const FULL_AUTHORITY: ReadonlyArray<PolicyRule> = [
  { apiGroups: ['*'], resources: ['*'], verbs: ['*'] },
  { nonResourceURLs: ['*'], verbs: ['*'] },
];

/**
 * A create or update of an RBAC object, as the guard sees it.
 *
 * @example
 * ```ts
 * const w: RbacWrite = { resource: 'roles', namespace: 'shop', name: '', user, object: role };
 * ```
 */
export type RbacWrite =
  | {
      readonly resource: 'roles' | 'clusterroles';
      /** The request's namespace ('' for clusterroles). */
      readonly namespace: string;
      /** The name in the URL ('' on create). */
      readonly name: string;
      readonly user: UserInfo;
      readonly object: RbacRole;
      readonly oldObject?: RbacRole;
    }
  | {
      readonly resource: 'rolebindings' | 'clusterrolebindings';
      readonly namespace: string;
      readonly name: string;
      readonly user: UserInfo;
      readonly object: RbacBinding;
      readonly oldObject?: RbacBinding;
    };

// What is left of an object once the fields the garbage collector writes, and those the server
// keeps itself, are set aside.
function withoutGcFields(obj: object): string {
  const { metadata, ...rest } = obj as { metadata?: { [k: string]: unknown } };
  const { ownerReferences: _o, finalizers: _f, resourceVersion: _rv, managedFields: _m, ...meta } = metadata ?? {};
  return JSON.stringify({ ...rest, metadata: meta });
}

const isOnlyGcChange = (w: RbacWrite): boolean => w.oldObject !== undefined && withoutGcFields(w.object) === withoutGcFields(w.oldObject);

const objectName = (w: RbacWrite): string => w.object.metadata?.name ?? w.name;

function roleCheck(w: Extract<RbacWrite, { resource: 'roles' | 'clusterroles' }>, authorize: Authorizer, objects: RbacObjects): Status | undefined {
  const escalate = authorize({ kind: 'resource', user: w.user, verb: 'escalate', group: RBAC_GROUP, version: '*', resource: w.resource, subresource: '', name: w.name, namespace: w.namespace });
  if (escalate.decision === 'Allow' || isOnlyGcChange(w)) return undefined;
  const gr = { group: RBAC_GROUP, resource: w.resource };
  const why = confirmNoEscalation(objects, w.user, w.namespace, listOf(w.object.rules));
  if (why) return forbiddenStatus(gr, objectName(w), why);
  const aggregates = (r: RbacRole | undefined) => listOf(r?.aggregationRule?.clusterRoleSelectors).length > 0;
  if (w.resource === 'clusterroles' && (aggregates(w.object) || aggregates(w.oldObject)) && confirmNoEscalation(objects, w.user, w.namespace, FULL_AUTHORITY)) {
    return forbiddenStatus(gr, objectName(w), 'must have cluster-admin privileges to use the aggregationRule');
  }
  return undefined;
}

function bindingCheck(w: Extract<RbacWrite, { resource: 'rolebindings' | 'clusterrolebindings' }>, authorize: Authorizer, objects: RbacObjects): Status | undefined {
  if (isOnlyGcChange(w)) return undefined;
  const ref = w.object.roleRef;
  // A roleRef of another kind refers to nothing: validation refuses it (422), so no escalation.
  if (ref?.kind !== 'Role' && ref?.kind !== 'ClusterRole') return undefined;
  const refResource = ref.kind === 'Role' ? 'roles' : 'clusterroles';
  const bind = authorize({ kind: 'resource', user: w.user, verb: 'bind', group: ref.apiGroup ?? '', version: '', resource: refResource, subresource: '', name: ref.name, namespace: w.namespace });
  if (bind.decision === 'Allow') return undefined;
  const role = ref.kind === 'Role' ? objects.getRole(w.namespace, ref.name) : objects.getClusterRole(ref.name);
  if (!role) return notFound({ plural: refResource, group: RBAC_GROUP }, ref.name).status;
  const why = confirmNoEscalation(objects, w.user, w.namespace, listOf(role.rules));
  return why ? forbiddenStatus({ group: RBAC_GROUP, resource: w.resource }, objectName(w), why) : undefined;
}

/**
 * The Status refusing a role or binding write that would grant what its author does not hold (a
 * 403 in kube's words, or the 404 of a binding's missing role), or undefined when it may go on.
 *
 * @example
 * ```ts
 * const refusal = rbacWriteCheck({ resource: 'rolebindings', namespace: 'shop', name: '', user, object: binding }, authorize, objects);
 * if (refusal) throw new StatusError(refusal);
 * ```
 */
export function rbacWriteCheck(w: RbacWrite, authorize: Authorizer, objects: RbacObjects): Status | undefined {
  if (w.user.groups.includes(GROUPS.masters)) return undefined;
  switch (w.resource) {
    case 'roles':
    case 'clusterroles':
      return roleCheck(w, authorize, objects);
    default:
      return bindingCheck(w, authorize, objects);
  }
}
