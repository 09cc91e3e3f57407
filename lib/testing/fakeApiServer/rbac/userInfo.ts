// Who a request acts as (apiserver's user.Info), and the names kube gives ServiceAccounts and the
// built-in groups (apiserver `authentication/user`, `authentication/serviceaccount`).

/**
 * An authenticated user as the authorizer sees it.
 *
 * @example
 * ```ts
 * const alice: UserInfo = { name: 'alice', groups: ['devs', 'system:authenticated'] };
 * ```
 */
export interface UserInfo {
  readonly name: string;
  readonly uid?: string;
  readonly groups: ReadonlyArray<string>;
  readonly extra?: { readonly [key: string]: ReadonlyArray<string> };
}

/**
 * kube's built-in groups: `system:masters` (allowed everything, before any authorizer), every
 * authenticated user, anonymous requests, every ServiceAccount.
 *
 * @example
 * ```ts
 * user.groups.includes(GROUPS.masters);
 * ```
 */
export const GROUPS = Object.freeze({
  masters: 'system:masters',
  authenticated: 'system:authenticated',
  unauthenticated: 'system:unauthenticated',
  serviceAccounts: 'system:serviceaccounts',
});

const SA_PREFIX = 'system:serviceaccount:';

/**
 * The user of a request without credentials, when anonymous requests are allowed.
 *
 * @example
 * ```ts
 * const anonymous: UserInfo = { name: ANONYMOUS, groups: [GROUPS.unauthenticated] };
 * ```
 */
export const ANONYMOUS = 'system:anonymous';

/**
 * A ServiceAccount's user name: `system:serviceaccount:<namespace>:<name>`.
 *
 * @example
 * ```ts
 * serviceAccountUsername('shop', 'ready-pods'); // 'system:serviceaccount:shop:ready-pods'
 * ```
 */
export const serviceAccountUsername = (namespace: string, name: string): string => `${SA_PREFIX}${namespace}:${name}`;

/**
 * The namespace and name of a ServiceAccount user name, or undefined for any other user (kube's
 * `SplitUsername`: exactly two non-empty parts after the prefix).
 *
 * @example
 * ```ts
 * splitServiceAccountUsername('system:serviceaccount:shop:ready-pods'); // { namespace: 'shop', name: 'ready-pods' }
 * ```
 */
export function splitServiceAccountUsername(username: string): { readonly namespace: string; readonly name: string } | undefined {
  if (!username.startsWith(SA_PREFIX)) return undefined;
  const parts = username.slice(SA_PREFIX.length).split(':');
  if (parts.length !== 2 || !parts[0] || !parts[1]) return undefined;
  return { namespace: parts[0], name: parts[1] };
}

/**
 * The groups of a ServiceAccount: `system:serviceaccounts` and `system:serviceaccounts:<namespace>`.
 *
 * @example
 * ```ts
 * serviceAccountGroups('shop'); // ['system:serviceaccounts', 'system:serviceaccounts:shop']
 * ```
 */
export const serviceAccountGroups = (namespace: string): string[] => [GROUPS.serviceAccounts, `${GROUPS.serviceAccounts}:${namespace}`];

/**
 * The user with `system:authenticated` added unless it is already there or the user is anonymous
 * (apiserver's AuthenticatedGroupAdder, which every authenticated request goes through).
 *
 * @example
 * ```ts
 * withAuthenticatedGroup({ name: 'alice', groups: ['devs'] }).groups; // ['devs', 'system:authenticated']
 * ```
 */
export function withAuthenticatedGroup(user: UserInfo): UserInfo {
  if (user.name === ANONYMOUS || user.groups.includes(GROUPS.authenticated) || user.groups.includes(GROUPS.unauthenticated)) return user;
  return { ...user, groups: [...user.groups, GROUPS.authenticated] };
}
