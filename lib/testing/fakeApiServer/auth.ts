import type { IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';
import type { RequestInfo } from './requestInfo.js';
import { StatusError, failure, qualifiedResource, unauthorized } from './status.js';

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
 * A bearer token the fake API server accepts, the user it authenticates as, until when, and what
 * that user may not do (everything else is allowed).
 *
 * @example
 * ```ts
 * const reader: FakeToken = { token: 'reader-token', user: 'reader', deny: [{ verb: ['create', 'update', 'patch', 'delete'] }] };
 * const shortLived: FakeToken = { token: 't1', user: 'ci', expiresAt: Date.now() + 60_000 };
 * ```
 */
export interface FakeToken {
  readonly token: string;
  /** Default `token-user-N` (N counts tokens from 1): never the token, which no message may show. */
  readonly user?: string;
  readonly groups?: ReadonlyArray<string>;
  /** Rejected with 401 from this time on (ms since the epoch, on the server's scheduler clock). */
  readonly expiresAt?: number;
  readonly deny?: ReadonlyArray<DenyRule>;
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

const has = (v: string | ReadonlyArray<string> | undefined, x: string): boolean =>
  v === undefined || (typeof v === 'string' ? v === x : v.includes(x));

const list = (v: string | string[] | undefined): string[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);

/** kube's 403 wording: `pods "a" is forbidden: User "u" cannot get resource "pods" in API group "" in the namespace "ns"`. */
function forbidden(user: string, verb: string, resource: string, group: string, name: string, namespace: string, kind = resource): StatusError {
  const qr = qualifiedResource({ plural: resource.split('/')[0], group });
  const scope = namespace ? `in the namespace "${namespace}"` : 'at the cluster scope';
  const why = `User "${user}" cannot ${verb} resource "${resource}" in API group "${group}" ${scope}`;
  const message = name ? `${qr} "${name}" is forbidden: ${why}` : `${qr} is forbidden: ${why}`;
  return new StatusError(failure(403, 'Forbidden', message, { name, ...(group ? { group } : {}), kind }));
}

const denies = (p: Principal, verb: string, resource: string, namespace: string): boolean =>
  p.deny.some((r) => has(r.verb, verb) && has(r.resource, resource) && (r.namespace === undefined || r.namespace === namespace));

/**
 * Authentication as kube-apiserver's union of authenticators: a client certificate signed by the
 * server's CA (user = CN, groups = O), else a bearer token (until it expires or is revoked); any
 * credential that fails, or none at all, is a 401. Then impersonation headers, then the deny lists.
 */
export class Authenticator {
  private readonly byToken = new Map<string, { readonly token: FakeToken; readonly user: string }>();
  private added = 0;
  /** False when the server accepts anonymous requests (`tokens: false` without client certificates). */
  readonly enabled: boolean;

  constructor(
    tokens: ReadonlyArray<FakeToken> | false,
    private readonly now: () => number,
    clientCertificates: boolean,
  ) {
    for (const t of tokens === false ? [] : tokens) this.addToken(t);
    this.enabled = tokens !== false || clientCertificates;
  }

  addToken(t: FakeToken): void {
    this.added += 1;
    this.byToken.set(t.token, { token: t, user: t.user ?? `token-user-${this.added}` });
  }

  revokeToken(token: string): boolean {
    return this.byToken.delete(token);
  }

  /** The principal of a request (after impersonation), undefined when authentication is off; throws the 401 or 403. */
  authenticate(req: IncomingMessage): Principal | undefined {
    if (!this.enabled) return undefined;
    const principal = this.fromCertificate(req) ?? this.fromToken(req);
    if (!principal) throw unauthorized();
    return this.impersonate(req, principal);
  }

  private fromCertificate(req: IncomingMessage): Principal | undefined {
    const socket = req.socket as Partial<TLSSocket>;
    if (typeof socket.getPeerCertificate !== 'function' || !socket.authorized) return undefined;
    const peer = socket.getPeerCertificate();
    const cn = list(peer.subject?.CN)[0];
    if (!cn) return undefined;
    return { user: cn, groups: list(peer.subject.O), deny: this.denyOf(cn), via: 'certificate' };
  }

  private fromToken(req: IncomingMessage): Principal | undefined {
    const m = /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? '');
    const entry = m ? this.byToken.get(m[1].trim()) : undefined;
    if (!entry || (entry.token.expiresAt !== undefined && this.now() >= entry.token.expiresAt)) return undefined;
    return { user: entry.user, groups: entry.token.groups ?? [], deny: entry.token.deny ?? [], via: 'token' };
  }

  private denyOf(user: string): ReadonlyArray<DenyRule> {
    for (const e of this.byToken.values()) if (e.user === user) return e.token.deny ?? [];
    return [];
  }

  /** `Impersonate-User` / `Impersonate-Group`, allowed unless a deny rule forbids `impersonate`. */
  private impersonate(req: IncomingMessage, p: Principal): Principal {
    const user = req.headersDistinct['impersonate-user']?.[0];
    if (user === undefined) return p;
    if (denies(p, 'impersonate', 'users', '')) throw forbidden(p.user, 'impersonate', 'users', '', user, '');
    const groups = req.headersDistinct['impersonate-group'] ?? [];
    for (const g of groups) if (denies(p, 'impersonate', 'groups', '')) throw forbidden(p.user, 'impersonate', 'groups', '', g, '');
    return { user, groups, deny: this.denyOf(user), via: p.via, impersonator: p.user };
  }

  /** Throws the 403 for a denied request. */
  authorize(p: Principal | undefined, info: RequestInfo): void {
    if (!p || !info.isResourceRequest) return;
    const qr = qualifiedResource({ plural: info.resource, group: info.group });
    if (!denies(p, info.verb, qr, info.namespace)) return;
    const res = info.subresource ? `${info.resource}/${info.subresource}` : info.resource;
    throw forbidden(p.user, info.verb, res, info.group, info.name, info.namespace, info.resource);
  }
}
