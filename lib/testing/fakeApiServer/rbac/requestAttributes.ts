// A request as the authorizer sees it (AS endpoints/request/requestinfo.go, filters/authorization.go):
// the verb, group, resource, subresource, name and namespace of a resource request, or the path of
// any other. Two of kube's rules differ from how the server addresses storage: a list or watch with
// `fieldSelector=metadata.name=x` is authorized for the name x, and a request about a Namespace is
// in that namespace (a RoleBinding there may allow reading it).
import type { AuthorizationAttributes } from './attributes.js';
import type { UserInfo } from './userInfo.js';

/**
 * The parts of the server's request info the authorizer reads.
 *
 * @example
 * ```ts
 * const info: RequestFacts = { isResourceRequest: true, verb: 'list', group: '', version: 'v1', namespace: 'shop', resource: 'pods', name: '', subresource: '' };
 * ```
 */
export interface RequestFacts {
  readonly isResourceRequest: boolean;
  /** Kubernetes verb: get, list, watch, create, update, patch, delete, deletecollection (or the lower-case method). */
  readonly verb: string;
  readonly group: string;
  readonly version: string;
  readonly namespace: string;
  readonly resource: string;
  readonly name: string;
  readonly subresource: string;
  /** `metadata.name=x` from an old `/watch/.../{name}` path. */
  readonly nameFieldSelector?: string;
}

/** The value `metadata.name` must equal in a field selector, if it requires one. */
function exactName(selector: string | null | undefined): string | undefined {
  for (const term of (selector ?? '').split(',')) {
    const m = /^\s*metadata\.name\s*==?\s*(.*?)\s*$/.exec(term);
    if (m) return m[1];
  }
  return undefined;
}

/**
 * The name a request is authorized for: its own, or, for a list or watch, the one its field
 * selector requires (`metadata.name=x`).
 *
 * @example
 * ```ts
 * authorizationName({ ...info, verb: 'list', name: '' }, new URLSearchParams('fieldSelector=metadata.name=a')); // 'a'
 * ```
 */
export function authorizationName(info: RequestFacts, query: URLSearchParams): string {
  if (info.name || (info.verb !== 'list' && info.verb !== 'watch')) return info.name;
  return exactName(query.get('fieldSelector')) ?? exactName(info.nameFieldSelector) ?? '';
}

/**
 * The namespace a request is authorized in: its own, or, for a Namespace, that namespace.
 *
 * @example
 * ```ts
 * authorizationNamespace({ ...info, resource: 'namespaces', namespace: '', name: 'shop' }); // 'shop'
 * ```
 */
export const authorizationNamespace = (info: RequestFacts): string => (info.resource === 'namespaces' && !info.namespace ? info.name : info.namespace);

/**
 * The authorizer's attributes of a request by `user`.
 *
 * @example
 * ```ts
 * requestAttributes(info, '/api/v1/namespaces/shop/pods', new URLSearchParams('fieldSelector=metadata.name=a'), user).name; // 'a'
 * ```
 */
export function requestAttributes(info: RequestFacts, path: string, query: URLSearchParams, user: UserInfo): AuthorizationAttributes {
  if (!info.isResourceRequest) return { kind: 'nonResource', user, verb: info.verb, path };
  const { verb, group, version, resource, subresource } = info;
  return { kind: 'resource', user, verb, group, version, resource, subresource, name: authorizationName(info, query), namespace: authorizationNamespace(info) };
}
