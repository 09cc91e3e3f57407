// Impersonation (AS endpoints/filters/impersonation.go): `Impersonate-User`, `Impersonate-Group`,
// `Impersonate-Uid` and `Impersonate-Extra-<key>` headers make the request act as another user,
// each one authorized first with the verb `impersonate` on users (or the ServiceAccount itself),
// groups, uids and userextras. A ServiceAccount impersonated without groups gets its own. kube then
// puts the impersonated user in `system:authenticated` (unless anonymous, or in
// `system:unauthenticated`): the same rule as for any authenticated user, so callers apply
// `withAuthenticatedGroup` to both alike.
import { badRequest } from '../status.js';
import type { ResourceAttributes } from './attributes.js';
import type { Authorizer } from './authorizer.js';
import { forbiddenError } from './forbidden.js';
import { serviceAccountGroups, splitServiceAccountUsername, type UserInfo } from './userInfo.js';

/**
 * The impersonation headers of a request (header names lower-cased, as Node gives them).
 *
 * @example
 * ```ts
 * const h: ImpersonationHeaders = { user: 'bob', groups: ['devs'], extra: { scopes: ['view'] } };
 * ```
 */
export interface ImpersonationHeaders {
  readonly user?: string;
  readonly uid?: string;
  readonly groups: ReadonlyArray<string>;
  readonly extra: { readonly [key: string]: ReadonlyArray<string> };
}

/**
 * The impersonation headers of Node's `headersDistinct`.
 *
 * @example
 * ```ts
 * impersonationHeaders(req.headersDistinct).user; // 'bob'
 * ```
 */
export function impersonationHeaders(headers: { readonly [name: string]: ReadonlyArray<string> | undefined }): ImpersonationHeaders {
  const extra: { [key: string]: string[] } = {};
  for (const [name, values] of Object.entries(headers)) {
    if (name.startsWith('impersonate-extra-') && values) extra[decodeURIComponent(name.slice('impersonate-extra-'.length))] = [...values];
  }
  return { user: headers['impersonate-user']?.[0], uid: headers['impersonate-uid']?.[0], groups: headers['impersonate-group'] ?? [], extra };
}

// Go's %v of the ObjectReferences kube builds for each part: {Kind Namespace Name UID APIVersion ResourceVersion FieldPath}.
function requestedText(h: ImpersonationHeaders): string {
  const ref = (kind: string, name: string, apiVersion = '', fieldPath = '') => `{${[kind, '', name, '', apiVersion, '', fieldPath].join(' ')}}`;
  const refs = [
    ...h.groups.map((g) => ref('Group', g)),
    ...Object.entries(h.extra).flatMap(([k, vs]) => vs.map((v) => ref('UserExtra', v, 'authentication.k8s.io/v1', k))),
    ...(h.uid !== undefined ? [ref('UID', h.uid, 'authentication.k8s.io/v1')] : []),
  ];
  return `[${refs.join(' ')}]`;
}

const asks = (h: ImpersonationHeaders): boolean => h.user !== undefined || h.uid !== undefined || h.groups.length > 0 || Object.keys(h.extra).length > 0;

/**
 * The user a request acts as: the requestor, or the one it impersonates once each part is
 * authorized (before `system:authenticated` is added, see above). Throws kube's 403 for a part the requestor may not impersonate, and a 400 for groups,
 * uid or extras without a user.
 *
 * @example
 * ```ts
 * const acting = impersonate(requestor, impersonationHeaders(req.headersDistinct), authorize);
 * ```
 */
export function impersonate(requestor: UserInfo, h: ImpersonationHeaders, authorize: Authorizer): UserInfo {
  if (!asks(h)) return requestor;
  if (!h.user) throw badRequest(`requested ${requestedText(h)} without impersonating a user`);
  const check = (resource: string, group: string, name: string, namespace = '', subresource = ''): void => {
    const a: ResourceAttributes = { kind: 'resource', user: requestor, verb: 'impersonate', group, version: '', resource, subresource, name, namespace };
    const d = authorize(a);
    if (d.decision !== 'Allow') throw forbiddenError(a, d.reason);
  };
  const sa = splitServiceAccountUsername(h.user);
  if (sa) check('serviceaccounts', '', sa.name, sa.namespace);
  else check('users', '', h.user);
  for (const g of h.groups) check('groups', '', g);
  if (h.uid !== undefined) check('uids', 'authentication.k8s.io', h.uid);
  for (const [key, values] of Object.entries(h.extra)) for (const v of values) check('userextras', 'authentication.k8s.io', v, '', key);
  const groups = [...(h.groups.length === 0 && sa ? serviceAccountGroups(sa.namespace) : h.groups)];
  return { name: h.user, ...(h.uid !== undefined && { uid: h.uid }), groups, extra: h.extra };
}
