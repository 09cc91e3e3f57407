// The server's authorization as one object: the mode (AlwaysAllow, the default, or RBAC), the
// authorizer chain kube-apiserver builds for it (system:masters first), the rules SelfSubjectRulesReview
// lists, and the ServiceAccount token issuer.
import { alwaysAllowAuthorizer, alwaysAllowRuleResolver, privilegedGroupsAuthorizer, rbacAuthorizer, rbacRuleResolver, unionAuthorizer, unionRuleResolver, type Authorizer, type RuleResolver } from './authorizer.js';
import type { RbacObjects } from './rbacObjects.js';
import type { ServiceAccountTokenIssuer } from './serviceAccountToken.js';

/**
 * How the fake API server authorizes requests: `'AlwaysAllow'` (the default: everyone may do
 * everything, the access reviews still answer) or `'RBAC'` (the Roles, ClusterRoles and bindings it
 * stores decide, as `--authorization-mode=RBAC`).
 *
 * @example
 * ```ts
 * const api = await startFakeApiServer({ authorization: 'RBAC' });
 * ```
 */
export type AuthorizationMode = 'AlwaysAllow' | 'RBAC';

/**
 * The authorization of a server.
 *
 * @example
 * ```ts
 * const authorize = access.authorizer();
 * authorize(attributes).decision;
 * ```
 */
export interface AccessControl {
  readonly mode: AuthorizationMode;
  readonly objects: RbacObjects;
  readonly issuer: ServiceAccountTokenIssuer;
  /** The chain kube builds: `SystemMasters` (the group allowed everything), then the mode. */
  readonly authorizers: ReadonlyArray<{ readonly name: string; readonly authorize: Authorizer }>;
  /** That chain as one authorizer, after `first` (the requestor's deny list, if any). */
  authorizer(first?: Authorizer): Authorizer;
  readonly rules: RuleResolver;
}

/**
 * The authorization of a server in `mode` over its RBAC objects.
 *
 * @example
 * ```ts
 * const access = accessControl('RBAC', objects, issuer);
 * ```
 */
export function accessControl(mode: AuthorizationMode, objects: RbacObjects, issuer: ServiceAccountTokenIssuer): AccessControl {
  const configured = mode === 'RBAC' ? rbacAuthorizer(objects) : alwaysAllowAuthorizer;
  const base = unionAuthorizer(privilegedGroupsAuthorizer, configured);
  return {
    mode,
    objects,
    issuer,
    authorizers: [
      { name: 'SystemMasters', authorize: privilegedGroupsAuthorizer },
      { name: mode, authorize: configured },
    ],
    authorizer: (first) => (first ? unionAuthorizer(first, base) : base),
    rules: unionRuleResolver(mode === 'RBAC' ? rbacRuleResolver(objects) : alwaysAllowRuleResolver),
  };
}
