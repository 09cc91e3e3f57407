import type { AccessControl } from '../rbac/accessControl.js';
import type { AuthorizationAttributes as RbacAttributes, ResourceAttributes } from '../rbac/attributes.js';
import type { Authorizer as RbacAuthorizer, AuthorizationDecision as RbacDecision } from '../rbac/authorizer.js';
import { forbiddenError, forbiddenStatus } from '../rbac/forbidden.js';
import { StatusError, qualifiedResource } from '../status.js';
import { userOf, type DenyRule, type Principal } from './principal.js';

// The one authorization step of the request pipeline (kube-apiserver's WithAuthorization filter):
// every request's attributes go through a chain of authorizers; the first that allows or denies
// decides, none deciding is a denial (kube's 403 with the reasons given). The fake's chain is the
// tokens' deny lists, then the server's authorization (rbac/accessControl.ts): `system:masters`,
// then AlwaysAllow (the default: a cluster-admin for everyone, as envtest's default user) or RBAC.

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
 * The tokens' deny lists, first in the chain: a request its credential's deny list matches is
 * denied; every other is left to the next authorizers.
 *
 * @example
 * ```ts
 * denyListAuthorizer.authorize({ ...attributes, user: { ...user, deny: [{ verb: 'delete' }] }, verb: 'delete' }).decision; // 'Deny'
 * ```
 */
export const denyListAuthorizer: Authorizer = {
  name: 'DenyList',
  authorize: (a) => {
    if (!a.isResourceRequest) return { decision: 'NoOpinion' };
    const qr = qualifiedResource({ plural: a.resource, group: a.apiGroup });
    return denies(a.user.deny, a.verb, qr, a.namespace) ? { decision: 'Deny' } : { decision: 'NoOpinion' };
  },
};

/**
 * The attributes as the rbac/ authorizers take them: the principal's user with
 * `system:authenticated`.
 *
 * @example
 * ```ts
 * rbacAttributes(attributes).user.groups; // [..., 'system:authenticated']
 * ```
 */
export function rbacAttributes(a: AuthorizationAttributes): RbacAttributes {
  const user = userOf(a.user);
  if (!a.isResourceRequest) return { kind: 'nonResource', user, verb: a.verb, path: a.path };
  return { kind: 'resource', user, verb: a.verb, group: a.apiGroup, version: a.apiVersion, resource: a.resource, subresource: a.subresource, name: a.name, namespace: a.namespace };
}

/**
 * The server's authorization (`system:masters`, then the mode) as authorizers of the chain.
 *
 * @example
 * ```ts
 * const chain: Authorizer[] = [denyListAuthorizer, ...accessAuthorizers(access)];
 * ```
 */
export const accessAuthorizers = (access: AccessControl): Authorizer[] =>
  access.authorizers.map(({ name, authorize }) => ({ name, authorize: (a: AuthorizationAttributes) => authorize(rbacAttributes(a)) }));

/**
 * The chain's decision (kube's union authorizer): the first Allow or Deny, or NoOpinion with the
 * reasons given, one per line.
 *
 * @example
 * ```ts
 * decide(ctx.authorizers, attributes).decision; // 'Allow'
 * ```
 */
export function decide(chain: ReadonlyArray<Authorizer>, a: AuthorizationAttributes): RbacDecision {
  const reasons: string[] = [];
  for (const authorizer of chain) {
    const d = authorizer.authorize(a);
    if (d.decision !== 'NoOpinion') return { decision: d.decision, reason: d.reason ?? '' };
    if (d.reason) reasons.push(d.reason);
  }
  return { decision: 'NoOpinion', reason: reasons.join('\n') };
}

/**
 * The chain as the rbac/ modules take an authorizer, for requests by `principal` (impersonation,
 * the self reviews).
 *
 * @example
 * ```ts
 * impersonate(userOf(p), headers, chainAuthorizer(ctx.authorizers, p));
 * ```
 */
export function chainAuthorizer(chain: ReadonlyArray<Authorizer>, principal: Principal): RbacAuthorizer {
  return (ra) => decide(chain, chainAttributes(ra, principal));
}

function chainAttributes(ra: RbacAttributes, user: Principal): AuthorizationAttributes {
  if (ra.kind === 'nonResource') return { user, verb: ra.verb, isResourceRequest: false, path: ra.path, namespace: '', apiGroup: '', apiVersion: '', resource: '', subresource: '', name: '' };
  const r: ResourceAttributes = ra;
  return { user, verb: r.verb, isResourceRequest: true, path: '', namespace: r.namespace, apiGroup: r.group, apiVersion: r.version, resource: r.resource, subresource: r.subresource, name: r.name };
}

/**
 * kube's 403 wording (`responsewriters.forbiddenMessage`, rbac/forbidden.ts): `pods "a" is
 * forbidden: User "u" cannot get resource "pods" in API group "" in the namespace "ns"`; a reason
 * is appended after `: `.
 *
 * @example
 * ```ts
 * throw forbidden(attributes);
 * ```
 */
export const forbidden = (a: AuthorizationAttributes, reason?: string): StatusError => forbiddenError(rbacAttributes(a), reason ?? '');

/**
 * The authorization step: the first authorizer that allows or denies decides; a denial, or no
 * decision at all, is kube's 403.
 *
 * @example
 * ```ts
 * authorize(ctx.authorizers, attributes); // throws the 403 when denied
 * ```
 */
export function authorize(chain: ReadonlyArray<Authorizer>, a: AuthorizationAttributes): void {
  const d = decide(chain, a);
  if (d.decision !== 'Allow') throw forbidden(a, d.reason);
}

/**
 * kube's create-on-update authorization (endpoints/handlers `withAuthorization`): a PATCH that
 * creates its object (a server-side apply to a missing one) was authorized as `patch`, and needs
 * `create` too. The check is made only when the write turns out to create (after the type's
 * validation, before validating admission); a refusal is apimachinery's `NewForbidden` with the
 * authorizers' reason, which RBAC leaves empty: `configmaps "x" is forbidden: `.
 *
 * @example
 * ```ts
 * const options = { authorizeCreate: createOnUpdateCheck(ctx.authorizers, attributes) };
 * ```
 */
export function createOnUpdateCheck(chain: ReadonlyArray<Authorizer>, a: AuthorizationAttributes): () => void {
  return () => {
    const d = decide(chain, { ...a, verb: 'create' });
    if (d.decision !== 'Allow') throw new StatusError(forbiddenStatus({ group: a.apiGroup, resource: a.resource }, a.name, d.reason));
  };
}
