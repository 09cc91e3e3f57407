import type { IncomingMessage } from 'node:http';
import type { RequestInfo } from './requestInfo.js';
import { StatusError, failure, qualifiedResource, unauthorized } from './status.js';

/**
 * One rule of a token's deny list; an unset field matches anything.
 *
 * @example
 * ```ts
 * const noSecrets: DenyRule = { verb: ['get', 'list', 'watch'], resource: 'secrets' };
 * ```
 */
export interface DenyRule {
  /** Kubernetes verb(s): get, list, watch, create, update, patch, delete, deletecollection. */
  readonly verb?: string | ReadonlyArray<string>;
  /** Resource(s) as `pods` or `deployments.apps`. */
  readonly resource?: string | ReadonlyArray<string>;
  readonly namespace?: string;
}

/**
 * A bearer token the fake API server accepts, the user it authenticates as, and what that user
 * may not do (everything else is allowed).
 *
 * @example
 * ```ts
 * const reader: FakeToken = { token: 'reader-token', user: 'reader', deny: [{ verb: ['create', 'update', 'patch', 'delete'] }] };
 * ```
 */
export interface FakeToken {
  readonly token: string;
  /** Defaults to the token. */
  readonly user?: string;
  readonly deny?: ReadonlyArray<DenyRule>;
}

const has = (v: string | ReadonlyArray<string> | undefined, x: string): boolean =>
  v === undefined || (typeof v === 'string' ? v === x : v.includes(x));

/** Bearer-token authentication and the per-token deny list (401 and 403 as kube words them). */
export class Authenticator {
  private readonly byToken: Map<string, FakeToken>;

  constructor(tokens: ReadonlyArray<FakeToken> | false) {
    this.byToken = new Map(tokens === false ? [] : tokens.map((t) => [t.token, t]));
    this.enabled = tokens !== false;
  }

  readonly enabled: boolean;

  /** The authenticated token, or a 401. Undefined when authentication is off. */
  authenticate(req: IncomingMessage): FakeToken | undefined {
    if (!this.enabled) return undefined;
    const m = /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? '');
    const t = m ? this.byToken.get(m[1].trim()) : undefined;
    if (!t) throw unauthorized();
    return t;
  }

  /** Throws the 403 for a denied request. */
  authorize(token: FakeToken | undefined, info: RequestInfo): void {
    if (!token?.deny || !info.isResourceRequest) return;
    const qr = qualifiedResource({ plural: info.resource, group: info.group });
    const denied = token.deny.some((r) => has(r.verb, info.verb) && has(r.resource, qr) && (r.namespace === undefined || r.namespace === info.namespace));
    if (!denied) return;
    const user = token.user ?? token.token;
    const res = info.subresource ? `${info.resource}/${info.subresource}` : info.resource;
    const scope = info.namespace ? `in the namespace "${info.namespace}"` : 'at the cluster scope';
    const why = `User "${user}" cannot ${info.verb} resource "${res}" in API group "${info.group}" ${scope}`;
    const message = info.name ? `${qr} "${info.name}" is forbidden: ${why}` : `${qr} is forbidden: ${why}`;
    throw new StatusError(failure(403, 'Forbidden', message, { name: info.name, ...(info.group ? { group: info.group } : {}), kind: info.resource }));
  }
}
