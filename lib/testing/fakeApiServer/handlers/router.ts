import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Authenticator, Principal } from '../auth/authenticator.js';
import { accessEndpointOf } from '../rbac/accessEndpoints.js';
import { authorizationName, authorizationNamespace } from '../rbac/requestAttributes.js';
import { serveAccessEndpoint } from './accessHandler.js';
import { authorize, type AuthorizationAttributes } from '../auth/authorizer.js';
import type { ServerContext } from './serverContext.js';
import { handleControl } from './controlHandler.js';
import { CONTROL_PREFIX } from '../faults/faults.js';
import { discoveryDocument } from '../discovery/discovery.js';
import type { Faults } from '../faults/faults.js';
import { writeError, writeJson, writeNotFoundPage, writeStatus } from './http.js';
import type { RequestLog } from './requestLog.js';
import { requestInfo, type RequestInfo } from './requestInfo.js';
import { handleResource } from './resourceHandler.js';
import { isOpenApiPath, serveOpenApi } from './openApiHandler.js';
import { failure, StatusError } from '../status.js';

const HEALTH = new Set(['/healthz', '/livez', '/readyz']);

/** What {@link routeRequest} hands requests to. */
export interface Routes {
  readonly ctx: ServerContext;
  readonly auth: Authenticator;
  readonly faults: Faults;
  readonly log: RequestLog;
  /** `127.0.0.1:PORT`, for discovery documents (known once the server listens). */
  readonly serverAddress: () => string;
}

/**
 * The server's request handler: health checks, authentication (and impersonation), the control
 * API, partitions, injected failures, authorization, discovery, the access reviews and tokens,
 * then the resource handlers. Every error becomes a
 * Status response.
 */
export function routeRequest({ ctx, auth, faults, log, serverAddress }: Routes): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  const { types } = ctx;
  return async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const info = requestInfo(req.method ?? 'GET', url.pathname, url.searchParams);
    try {
      if (HEALTH.has(url.pathname)) {
        res.writeHead(200, { 'Content-Type': 'text/plain; charset=utf-8' });
        res.end('ok');
        return;
      }
      const control = url.pathname.startsWith(CONTROL_PREFIX);
      let principal: Principal | undefined;
      try {
        principal = url.pathname === '/version' ? undefined : auth.authenticate(req, ctx.authorizers);
      } catch (e) {
        // A rejected request (401, or a 403 on impersonation) is logged too, never its credential.
        if (!control) log.record(req, url, info, undefined, e instanceof StatusError && e.status.code === 401);
        throw e;
      }
      if (control) {
        await handleControl(faults, req, res, url.pathname);
        return;
      }
      if (faults.partitions.intercept(req, res, principal?.user)) return;
      log.record(req, url, info, principal, false);
      const injected = faults.takeFailure(info);
      if (injected) {
        writeStatus(res, injected);
        return;
      }
      if (principal) authorize(ctx.authorizers, authorizationAttributes(principal, info, url));
      if (isOpenApiPath(url.pathname)) {
        await serveOpenApi(ctx, req, res, url);
        return;
      }
      if (!info.isResourceRequest) {
        const doc = discoveryDocument(url.pathname, types.strategies(), serverAddress());
        if (doc) writeJson(res, 200, JSON.stringify(doc));
        else writeNotFoundPage(res);
        return;
      }
      const endpoint = accessEndpointOf(info);
      if (endpoint) {
        await serveAccessEndpoint(ctx, endpoint, req, res, info, principal);
        return;
      }
      const type = types.find(info.group, info.version, info.resource);
      if (!type) {
        if (types.all().some((t) => t.group === info.group && t.version === info.version)) {
          writeStatus(res, failure(404, 'NotFound', 'the server could not find the requested resource', {}));
        } else writeNotFoundPage(res);
        return;
      }
      await handleResource(ctx, req, res, info, type, url.searchParams, principal);
    } catch (e) {
      writeError(res, e);
    }
  };
}

/**
 * The attributes the authorization step decides a request on, as kube's RequestInfo gives them: a
 * list or watch by `metadata.name` is about that name, a Namespace is in itself.
 */
function authorizationAttributes(user: Principal, info: RequestInfo, url: URL): AuthorizationAttributes {
  return {
    user,
    verb: info.verb,
    isResourceRequest: info.isResourceRequest,
    path: url.pathname,
    namespace: authorizationNamespace(info),
    apiGroup: info.group,
    apiVersion: info.version,
    resource: info.resource,
    subresource: info.subresource,
    name: authorizationName(info, url.searchParams),
  };
}
