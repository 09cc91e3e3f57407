// The 403 of a request no authorizer allowed, in kube's words (AS endpoints/handlers/responsewriters
// errors.go `forbiddenMessage` and `Forbidden`, apimachinery `NewForbidden`):
//   pods "a" is forbidden: User "u" cannot get resource "pods" in API group "" in the namespace "ns"
//   deployments.apps is forbidden: User "u" cannot list resource "deployments" in API group "apps" at the cluster scope
//   forbidden: User "u" cannot get path "/metrics"
// with the authorizers' reason after a colon when there is one.
import type { Status } from '../../../errors.js';
import { failure, StatusError } from '../status.js';
import type { AuthorizationAttributes } from './attributes.js';

// kube escapes these in the part of the message it builds from the request.
const sanitize = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * What the user may not do, as kube says it after `is forbidden: `.
 *
 * @example
 * ```ts
 * forbiddenMessage(attributes); // 'User "alice" cannot delete resource "pods" in API group "" in the namespace "shop"'
 * ```
 */
export function forbiddenMessage(a: AuthorizationAttributes): string {
  const user = JSON.stringify(a.user.name);
  if (a.kind === 'nonResource') return `User ${user} cannot ${a.verb} path ${JSON.stringify(a.path)}`;
  const resource = a.subresource ? `${a.resource}/${a.subresource}` : a.resource;
  const scope = a.namespace ? `in the namespace ${JSON.stringify(a.namespace)}` : 'at the cluster scope';
  return `User ${user} cannot ${a.verb} resource ${JSON.stringify(resource)} in API group ${JSON.stringify(a.group)} ${scope}`;
}

/**
 * apimachinery's `NewForbidden` for a group/resource and name: `<resource>[.<group>] ["<name>"] is
 * forbidden: <why>` (`forbidden: <why>` without a resource), reason Forbidden, details
 * `{ name, group, kind: <resource> }`.
 *
 * @example
 * ```ts
 * forbiddenStatus({ group: 'rbac.authorization.k8s.io', resource: 'roles' }, 'x', 'user "u" (groups=[]) is attempting to grant RBAC permissions not currently held: ...');
 * ```
 */
export function forbiddenStatus(gr: { readonly group: string; readonly resource: string }, name: string, why: string): Status {
  const qualified = gr.resource ? (gr.group ? `${gr.resource}.${gr.group}` : gr.resource) : '';
  const message = !qualified ? `forbidden: ${why}` : name ? `${qualified} ${JSON.stringify(name)} is forbidden: ${why}` : `${qualified} is forbidden: ${why}`;
  return failure(403, 'Forbidden', message, { ...(name ? { name } : {}), ...(gr.group ? { group: gr.group } : {}), ...(gr.resource ? { kind: gr.resource } : {}) });
}

/**
 * The 403 for a request the authorizers did not allow, with their reason appended.
 *
 * @example
 * ```ts
 * throw forbiddenError(attributes, decision.reason);
 * ```
 */
export function forbiddenError(a: AuthorizationAttributes, reason: string): StatusError {
  const why = sanitize(forbiddenMessage(a)) + (reason ? `: ${reason}` : '');
  const gr = a.kind === 'resource' ? { group: a.group, resource: a.resource } : { group: '', resource: '' };
  return new StatusError(forbiddenStatus(gr, a.kind === 'resource' ? a.name : '', why));
}
