// Who a request acts as, and what its credential may not do (the fake's deny lists).
import { withAuthenticatedGroup, type UserInfo } from '../rbac/userInfo.js';

/**
 * One rule of a token's deny list; an unset field matches anything.
 *
 * @example
 * ```ts
 * const noSecrets: DenyRule = { verb: ['get', 'list', 'watch'], resource: 'secrets' };
 * const noImpersonation: DenyRule = { verb: 'impersonate' };
 * ```
 */
export interface DenyRule {
  /** Kubernetes verb(s): get, list, watch, create, update, patch, delete, deletecollection, impersonate. */
  readonly verb?: string | ReadonlyArray<string>;
  /** Resource(s) as `pods` or `deployments.apps` (`users` and `groups` for impersonate). */
  readonly resource?: string | ReadonlyArray<string>;
  readonly namespace?: string;
}

/**
 * Who a request acts as, and how it authenticated.
 *
 * @example
 * ```ts
 * const p: Principal = { user: 'alice', groups: ['devs'], deny: [], via: 'certificate' };
 * ```
 */
export interface Principal {
  readonly user: string;
  /** The groups of the credential (authorization also counts `system:authenticated`, see {@link userOf}). */
  readonly groups: ReadonlyArray<string>;
  readonly uid?: string;
  readonly extra?: { readonly [key: string]: ReadonlyArray<string> };
  readonly deny: ReadonlyArray<DenyRule>;
  readonly via: 'token' | 'certificate' | 'serviceAccountToken';
  /** The authenticated user, when the request impersonates `user`. */
  readonly impersonator?: string;
}

/**
 * The user the authorizers see for a principal: its name, uid, extra and groups, with
 * `system:authenticated` as kube adds it to every authenticated (or impersonated) user.
 *
 * @example
 * ```ts
 * userOf({ user: 'alice', groups: ['devs'], deny: [], via: 'token' }).groups; // ['devs', 'system:authenticated']
 * ```
 */
export const userOf = (p: Principal): UserInfo =>
  withAuthenticatedGroup({ name: p.user, groups: p.groups, ...(p.uid !== undefined && { uid: p.uid }), ...(p.extra && { extra: p.extra }) });
