import type { IncomingMessage } from 'node:http';
import type { Principal } from '../auth/authenticator.js';
import type { RequestInfo } from './requestInfo.js';

/**
 * One request the server received, for asserting what a client sent.
 *
 * @example
 * ```ts
 * const lists = api.requests.filter((r) => r.verb === 'list' && r.resource === 'pods');
 * expect(lists[0].query.limit).toBe('500');
 * ```
 */
export interface RecordedRequest {
  readonly method: string;
  readonly path: string;
  readonly query: { readonly [name: string]: string };
  /** Kubernetes verb for resource requests (get, list, watch, create, update, patch, delete, deletecollection), else the lower-case method. */
  readonly verb: string;
  /** `pods`, `deployments.apps`; undefined for non-resource requests. */
  readonly resource: string | undefined;
  readonly namespace: string | undefined;
  readonly name: string | undefined;
  readonly contentType: string | undefined;
  /** The user the request acts as (the impersonated one when it impersonates); undefined on a 401. */
  readonly user: string | undefined;
  /** The groups of that user (a certificate's O, a token's `groups`, `Impersonate-Group`). */
  readonly groups?: ReadonlyArray<string>;
  /** How the request authenticated. */
  readonly authenticatedBy?: 'token' | 'certificate' | 'serviceAccountToken';
  /** The authenticated user, when the request impersonated `user` (`Impersonate-User`). */
  readonly impersonator?: string;
  /** True when the request was answered 401 Unauthorized. */
  readonly unauthorized?: boolean;
}

/** The server's bounded log of {@link RecordedRequest}s (oldest dropped first). */
export interface RequestLog {
  /** Requests received so far, oldest first. */
  readonly requests: ReadonlyArray<RecordedRequest>;
  /** Logs one request: `principal` is who it acts as, `unauthorized` whether it was answered 401. */
  record(req: IncomingMessage, url: URL, info: RequestInfo, principal: Principal | undefined, unauthorized: boolean): void;
  clear(): void;
}

/** A request log keeping at most `limit` requests. */
export function requestLog(limit: number): RequestLog {
  let requests: RecordedRequest[] = [];
  return {
    get requests() {
      return requests;
    },
    record(req, url, info, principal, unauthorized) {
      requests.push({
        method: req.method ?? 'GET',
        path: url.pathname,
        query: Object.fromEntries(url.searchParams),
        verb: info.verb,
        resource: info.isResourceRequest ? (info.group ? `${info.resource}.${info.group}` : info.resource) : undefined,
        namespace: info.isResourceRequest && info.namespace ? info.namespace : undefined,
        name: info.name || undefined,
        contentType: req.headers['content-type'],
        user: principal?.user,
        ...(principal ? { groups: principal.groups, authenticatedBy: principal.via } : {}),
        ...(principal?.impersonator !== undefined ? { impersonator: principal.impersonator } : {}),
        ...(unauthorized ? { unauthorized } : {}),
      });
      if (requests.length > limit) requests = requests.slice(-limit);
    },
    clear() {
      requests = [];
    },
  };
}
