// SelfSubjectReview (authentication.k8s.io/v1; KK pkg/registry/authentication/selfsubjectreview):
// who the request authenticated as, as `kubectl auth whoami` shows it.
import { reviewDecoder, type JsonMap } from './reviewDecode.js';
import type { UserInfo } from './userInfo.js';

/**
 * Answers a SelfSubjectReview for the requesting user (201).
 *
 * @example
 * ```ts
 * selfSubjectReview({}, user, Date.now()).status; // { userInfo: { username: 'alice', groups: ['system:authenticated'] } }
 * ```
 */
export function selfSubjectReview(body: unknown, user: UserInfo, nowMs: number): JsonMap {
  reviewDecoder('SelfSubjectReview', 'authentication.k8s.io/v1').body(body);
  const extra = user.extra && Object.keys(user.extra).length > 0 ? { extra: user.extra } : {};
  return {
    kind: 'SelfSubjectReview',
    apiVersion: 'authentication.k8s.io/v1',
    metadata: { creationTimestamp: new Date(Math.floor(nowMs / 1000) * 1000).toISOString().replace('.000Z', 'Z') },
    status: { userInfo: { username: user.name, ...(user.uid && { uid: user.uid }), groups: [...user.groups], ...extra } },
  };
}
