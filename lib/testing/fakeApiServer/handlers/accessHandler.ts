import type { IncomingMessage, ServerResponse } from 'node:http';
import { chainAuthorizer } from '../auth/authorizer.js';
import { userOf, type Principal } from '../auth/principal.js';
import { answerAccessEndpoint, type AccessEndpoint } from '../rbac/accessEndpoints.js';
import type { RequestFacts } from '../rbac/requestAttributes.js';
import { ANONYMOUS, GROUPS } from '../rbac/userInfo.js';
import { readBuiltInBody } from '../wire/protobuf/protobufBody.js';
import { writeJson } from './http.js';
import type { ServerContext } from './serverContext.js';

// The endpoints that answer from the server's authorization (rbac/accessEndpoints.ts): the access
// reviews, SelfSubjectReview and a ServiceAccount's `token`, 201 with the answer.

/**
 * Serves an access review, SelfSubjectReview or TokenRequest. A self review is decided by the
 * whole chain for the requestor (its deny list included); a SubjectAccessReview by the server's
 * authorization for the user it names.
 *
 * @example
 * ```ts
 * const endpoint = accessEndpointOf(info);
 * if (endpoint) await serveAccessEndpoint(ctx, endpoint, req, res, info, principal);
 * ```
 */
export async function serveAccessEndpoint(ctx: ServerContext, endpoint: AccessEndpoint, req: IncomingMessage, res: ServerResponse, info: RequestFacts, principal: Principal | undefined): Promise<void> {
  const body = await readBuiltInBody(req, req.headers['content-type']);
  const { access } = ctx;
  const answer = answerAccessEndpoint(endpoint, info, body, {
    user: principal ? userOf(principal) : { name: ANONYMOUS, groups: [GROUPS.unauthenticated] },
    authorize: principal ? chainAuthorizer(ctx.authorizers, principal) : access.authorizer(),
    authorizeSubject: access.authorizer(),
    rules: access.rules,
    issuer: access.issuer,
    lookup: ctx.tokenObjects,
    now: () => ctx.scheduler.now(),
  });
  const headers: { [h: string]: string[] } = answer.warnings.length > 0 ? { Warning: answer.warnings.map((w) => `299 - ${JSON.stringify(w)}`) } : {};
  writeJson(res, answer.code, JSON.stringify(answer.object), headers);
}
