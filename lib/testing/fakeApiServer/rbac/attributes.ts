import type { UserInfo } from './userInfo.js';

/**
 * What a request asks to do (apiserver's `authorizer.Attributes`): a resource request or a
 * non-resource one (a path such as `/healthz`).
 *
 * @example
 * ```ts
 * const listPods: AuthorizationAttributes = {
 *   kind: 'resource', user: { name: 'alice', groups: [] },
 *   verb: 'list', group: '', version: 'v1', resource: 'pods', subresource: '', name: '', namespace: 'shop',
 * };
 * const health: AuthorizationAttributes = { kind: 'nonResource', user: { name: 'alice', groups: [] }, verb: 'get', path: '/healthz' };
 * ```
 */
export type AuthorizationAttributes = ResourceAttributes | NonResourceAttributes;

/**
 * A request about an API resource.
 *
 * @example
 * ```ts
 * const a: ResourceAttributes = { kind: 'resource', user, verb: 'get', group: 'apps', version: 'v1', resource: 'deployments', subresource: 'scale', name: 'web', namespace: 'shop' };
 * ```
 */
export interface ResourceAttributes {
  readonly kind: 'resource';
  readonly user: UserInfo;
  /** get, list, watch, create, update, patch, delete, deletecollection, or a custom verb (bind, escalate, impersonate, use...). */
  readonly verb: string;
  readonly group: string;
  readonly version: string;
  readonly resource: string;
  readonly subresource: string;
  readonly name: string;
  readonly namespace: string;
}

/**
 * A request about a path outside the API resources.
 *
 * @example
 * ```ts
 * const a: NonResourceAttributes = { kind: 'nonResource', user, verb: 'get', path: '/version' };
 * ```
 */
export interface NonResourceAttributes {
  readonly kind: 'nonResource';
  readonly user: UserInfo;
  /** The lower-cased HTTP method (get, post, put, ...). */
  readonly verb: string;
  readonly path: string;
}
