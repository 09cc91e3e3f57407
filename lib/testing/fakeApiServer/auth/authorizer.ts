import { StatusError, failure, qualifiedResource } from '../status.js';
import type { DenyRule, Principal } from './principal.js';

// The one authorization step of the request pipeline (kube-apiserver's WithAuthorization filter):
// every request's attributes go through a chain of authorizers; the first that allows or denies
// decides, none deciding is a denial. The fake's default chain is the tokens' deny lists, which
// allow everything else (a cluster-admin, as envtest's default user). RBAC plugs in as another
// Authorizer.

/**
 * What a request asks to do, as kube's `authorizer.Attributes` names it.
 *
 * @example
 * ```ts
 * const a: AuthorizationAttributes = { user, verb: 'get', isResourceRequest: true, path: '/api/v1/namespaces/ns/pods/a',
 *   namespace: 'ns', apiGroup: '', apiVersion: 'v1', resource: 'pods', subresource: '', name: 'a' };
 * ```
 */
export interface AuthorizationAttributes {
  readonly user: Principal;
  /** Kubernetes verb (get, list, watch, create, update, patch, delete, deletecollection, impersonate, ...), or the lower-case HTTP method of a non-resource request. */
  readonly verb: string;
  readonly isResourceRequest: boolean;
  readonly path: string;
  readonly namespace: string;
  readonly apiGroup: string;
  readonly apiVersion: string;
  readonly resource: string;
  readonly subresource: string;
  readonly name: string;
}

/**
 * An authorizer's answer (kube's `authorizer.Decision` with its reason).
 *
 * @example
 * ```ts
 * const d: AuthorizationDecision = { decision: 'NoOpinion' };
 * ```
 */
export type AuthorizationDecision =
  | { readonly decision: 'Allow'; readonly reason?: string }
  | { readonly decision: 'Deny'; readonly reason?: string }
  | { readonly decision: 'NoOpinion'; readonly reason?: string };

/**
 * One authorizer of the chain (kube's `authorizer.Authorizer`).
 *
 * @example
 * ```ts
 * const readOnly: Authorizer = { name: 'read-only', authorize: (a) => ({ decision: ['get', 'list', 'watch'].includes(a.verb) ? 'Allow' : 'Deny' }) };
 * ```
 */
export interface Authorizer {
  readonly name: string;
  authorize(attributes: AuthorizationAttributes): AuthorizationDecision;
}

const has = (v: string | ReadonlyArray<string> | undefined, x: string): boolean => v === undefined || (typeof v === 'string' ? v === x : v.includes(x));

/** Whether one of `rules` matches a verb on a resource (`pods`, `deployments.apps`) in a namespace. */
export const denies = (rules: ReadonlyArray<DenyRule>, verb: string, resource: string, namespace: string): boolean =>
  rules.some((r) => has(r.verb, verb) && has(r.resource, resource) && (r.namespace === undefined || r.namespace === namespace));

/**
 * The fake's default authorizer: a request its credential's deny list matches is denied, every
 * other is allowed.
 *
 * @example
 * ```ts
 * denyListAuthorizer.authorize({ ...attributes, user: { ...user, deny: [{ verb: 'delete' }] }, verb: 'delete' }).decision; // 'Deny'
 * ```
 */
export const denyListAuthorizer: Authorizer = {
  name: 'DenyList',
  authorize: (a) => {
    if (!a.isResourceRequest && a.verb !== 'impersonate') return { decision: 'Allow' };
    const qr = qualifiedResource({ plural: a.resource, group: a.apiGroup });
    return denies(a.user.deny, a.verb, qr, a.namespace) ? { decision: 'Deny' } : { decision: 'Allow' };
  },
};

/**
 * kube's 403 wording (`responsewriters.forbiddenMessage`): `pods "a" is forbidden: User "u" cannot
 * get resource "pods" in API group "" in the namespace "ns"`; a reason is appended after `: `.
 *
 * @example
 * ```ts
 * throw forbidden(attributes);
 * ```
 */
export function forbidden(a: AuthorizationAttributes, reason?: string): StatusError {
  const user = a.user.user;
  if (!a.isResourceRequest) {
    const message = `forbidden: User "${user}" cannot ${a.verb} path "${a.path}"${reason ? `: ${reason}` : ''}`;
    return new StatusError(failure(403, 'Forbidden', message, {}));
  }
  const res = a.subresource ? `${a.resource}/${a.subresource}` : a.resource;
  const qr = qualifiedResource({ plural: a.resource, group: a.apiGroup });
  const scope = a.namespace ? `in the namespace "${a.namespace}"` : 'at the cluster scope';
  const why = `User "${user}" cannot ${a.verb} resource "${res}" in API group "${a.apiGroup}" ${scope}${reason ? `: ${reason}` : ''}`;
  const message = a.name ? `${qr} "${a.name}" is forbidden: ${why}` : `${qr} is forbidden: ${why}`;
  return new StatusError(failure(403, 'Forbidden', message, { name: a.name, ...(a.apiGroup ? { group: a.apiGroup } : {}), kind: a.resource }));
}

/**
 * The authorization step: the first authorizer that allows or denies decides; a denial, or no
 * decision at all, is kube's 403.
 *
 * @example
 * ```ts
 * authorize([denyListAuthorizer], attributes); // throws the 403 when denied
 * ```
 */
export function authorize(chain: ReadonlyArray<Authorizer>, a: AuthorizationAttributes): void {
  let reason: string | undefined;
  for (const authorizer of chain) {
    const d = authorizer.authorize(a);
    if (d.decision === 'Allow') return;
    if (d.decision === 'Deny') throw forbidden(a, d.reason);
    reason ??= d.reason;
  }
  throw forbidden(a, reason);
}
