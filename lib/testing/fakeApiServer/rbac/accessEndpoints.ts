// The endpoints that store nothing and answer from the access control: the four access reviews
// (authorization.k8s.io/v1), SelfSubjectReview (authentication.k8s.io/v1) and a ServiceAccount's
// `token` subresource. Each takes a POST of its kind and answers 201; any other verb is a 405.
import { methodNotAllowed, notFound } from '../status.js';
import { localSubjectAccessReview, selfSubjectAccessReview, subjectAccessReview } from './accessReviews.js';
import type { Authorizer, RuleResolver } from './authorizer.js';
import type { RequestFacts } from './requestAttributes.js';
import type { JsonMap } from './reviewDecode.js';
import { selfSubjectRulesReview } from './rulesReview.js';
import { selfSubjectReview } from './selfSubjectReview.js';
import type { ServiceAccountTokenIssuer, TokenObjectLookup } from './serviceAccountToken.js';
import { tokenRequest } from './tokenRequest.js';
import type { UserInfo } from './userInfo.js';

/**
 * Which of these endpoints a request is for.
 *
 * @example
 * ```ts
 * const e: AccessEndpoint = 'selfsubjectaccessreviews';
 * ```
 */
export type AccessEndpoint =
  | 'selfsubjectaccessreviews'
  | 'subjectaccessreviews'
  | 'localsubjectaccessreviews'
  | 'selfsubjectrulesreviews'
  | 'selfsubjectreviews'
  | 'serviceaccounts/token';

const AUTHORIZATION: ReadonlyArray<AccessEndpoint> = ['selfsubjectaccessreviews', 'subjectaccessreviews', 'localsubjectaccessreviews', 'selfsubjectrulesreviews'];

/**
 * The endpoint a request is for, or undefined for every other request.
 *
 * @example
 * ```ts
 * accessEndpointOf({ isResourceRequest: true, verb: 'create', group: '', version: 'v1', namespace: 'shop', resource: 'serviceaccounts', name: 'app', subresource: 'token' });
 * // 'serviceaccounts/token'
 * ```
 */
export function accessEndpointOf(info: RequestFacts): AccessEndpoint | undefined {
  if (!info.isResourceRequest || info.version !== 'v1') return undefined;
  if (info.group === 'authorization.k8s.io' && (AUTHORIZATION as ReadonlyArray<string>).includes(info.resource)) return info.resource as AccessEndpoint;
  if (info.group === 'authentication.k8s.io' && info.resource === 'selfsubjectreviews') return 'selfsubjectreviews';
  if (info.group === '' && info.resource === 'serviceaccounts' && info.subresource === 'token') return 'serviceaccounts/token';
  return undefined;
}

/**
 * What an endpoint answers with: the user asking, the authorizer and rules the server uses, and
 * the token issuer with the objects it reads.
 *
 * @example
 * ```ts
 * const ctx: AccessEndpointContext = { user, authorize, authorizeSubject: authorize, rules, issuer, lookup, now: () => Date.now() };
 * ```
 */
export interface AccessEndpointContext {
  readonly user: UserInfo;
  /** The requesting user's authorizer chain (self reviews). */
  readonly authorize: Authorizer;
  /** The chain for the user a SubjectAccessReview names. */
  readonly authorizeSubject: Authorizer;
  readonly rules: RuleResolver;
  readonly issuer: ServiceAccountTokenIssuer;
  readonly lookup: TokenObjectLookup;
  readonly now: () => number;
  readonly maxTokenExpirationSeconds?: number;
}

/**
 * The answer of an endpoint: always 201 with the object, and the warnings to send.
 *
 * @example
 * ```ts
 * const { object, warnings } = answerAccessEndpoint('selfsubjectaccessreviews', info, body, ctx);
 * ```
 */
export interface AccessEndpointAnswer {
  readonly code: 201;
  readonly object: JsonMap;
  readonly warnings: ReadonlyArray<string>;
}

/**
 * Answers a request to one of these endpoints, or throws kube's error Status (405 for a verb other
 * than create, 404 for a cluster-scoped review under a namespace, the endpoint's own 400/404/409/422).
 *
 * @example
 * ```ts
 * answerAccessEndpoint('selfsubjectrulesreviews', info, { spec: { namespace: 'shop' } }, ctx).object.status;
 * ```
 */
export function answerAccessEndpoint(endpoint: AccessEndpoint, info: RequestFacts, body: unknown, ctx: AccessEndpointContext): AccessEndpointAnswer {
  const namedCreate = endpoint === 'serviceaccounts/token';
  if (info.verb !== 'create' || (namedCreate ? !info.name : info.name !== '')) throw methodNotAllowed();
  const namespaced = endpoint === 'localsubjectaccessreviews' || namedCreate;
  if (namespaced !== (info.namespace !== '')) throw notFound({ plural: endpoint.split('/')[0], group: info.group }, info.name);
  const done = (object: JsonMap, warnings: ReadonlyArray<string> = []): AccessEndpointAnswer => ({ code: 201, object, warnings });
  switch (endpoint) {
    case 'selfsubjectaccessreviews':
      return done(selfSubjectAccessReview(body, ctx.user, ctx.authorize));
    case 'subjectaccessreviews':
      return done(subjectAccessReview(body, ctx.authorizeSubject));
    case 'localsubjectaccessreviews':
      return done(localSubjectAccessReview(body, info.namespace, ctx.authorizeSubject));
    case 'selfsubjectrulesreviews':
      return done(selfSubjectRulesReview(body, ctx.user, ctx.rules));
    case 'selfsubjectreviews':
      return done(selfSubjectReview(body, ctx.user, ctx.now()));
    case 'serviceaccounts/token': {
      const answer = tokenRequest(body, {
        namespace: info.namespace,
        name: info.name,
        lookup: ctx.lookup,
        issuer: ctx.issuer,
        now: ctx.now,
        maxExpirationSeconds: ctx.maxTokenExpirationSeconds,
      });
      return done(answer.object, answer.warnings);
    }
  }
}
