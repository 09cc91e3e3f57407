// Who a request acts as, and what its credential may not do (the fake's deny lists).

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
  readonly groups: ReadonlyArray<string>;
  readonly deny: ReadonlyArray<DenyRule>;
  readonly via: 'token' | 'certificate';
  /** The authenticated user, when the request impersonates `user`. */
  readonly impersonator?: string;
}
