import type { IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';
import { impersonate, impersonationHeaders } from '../rbac/impersonation.js';
import type { TokenAuthentication } from '../rbac/serviceAccountToken.js';
import { unauthorized } from '../status.js';
import { chainAuthorizer, type Authorizer } from './authorizer.js';
import { userOf, type DenyRule, type Principal } from './principal.js';

export type { DenyRule, Principal };

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

const list = (v: string | string[] | undefined): string[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);

/**
 * Authentication as kube-apiserver's union of authenticators: a client certificate signed by the
 * server's CA (user = CN, groups = O), else a bearer token (until it expires or is revoked), else a
 * ServiceAccount token the server issued; any credential that fails, or none at all, is a 401.
 * Then the impersonation headers, each part authorized by the chain for the requestor.
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
    /** Checks a bearer token no static token matched: the server's ServiceAccount tokens. */
    private readonly serviceAccountTokens?: (token: string) => TokenAuthentication,
    /** Authenticate even without tokens or certificates (RBAC needs a user on every request). */
    required = false,
  ) {
    for (const t of tokens === false ? [] : tokens) this.addToken(t);
    this.enabled = tokens !== false || clientCertificates || required;
  }

  addToken(t: FakeToken): void {
    this.added += 1;
    this.byToken.set(t.token, { token: t, user: t.user ?? `token-user-${this.added}` });
  }

  revokeToken(token: string): boolean {
    return this.byToken.delete(token);
  }

  /** The principal of a request (after impersonation), undefined when authentication is off; throws the 401 or 403. */
  authenticate(req: IncomingMessage, chain: ReadonlyArray<Authorizer>): Principal | undefined {
    if (!this.enabled) return undefined;
    const principal = this.fromCertificate(req) ?? this.fromToken(req);
    if (!principal) throw unauthorized();
    return this.impersonate(req, principal, chain);
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
    if (!m) return undefined;
    const token = m[1].trim();
    const entry = this.byToken.get(token);
    if (entry) {
      if (entry.token.expiresAt !== undefined && this.now() >= entry.token.expiresAt) return undefined;
      return { user: entry.user, groups: entry.token.groups ?? [], deny: entry.token.deny ?? [], via: 'token' };
    }
    const sa = this.serviceAccountTokens?.(token);
    if (sa?.kind !== 'authenticated') return undefined;
    const { name, uid, groups, extra } = sa.user;
    return { user: name, groups, ...(uid && { uid }), ...(extra && { extra }), deny: this.denyOf(name), via: 'serviceAccountToken' };
  }

  private denyOf(user: string): ReadonlyArray<DenyRule> {
    for (const e of this.byToken.values()) if (e.user === user) return e.token.deny ?? [];
    return [];
  }

  /** `Impersonate-*` headers: the request acts as that user once the chain allows the requestor to impersonate each part (kube's WithImpersonation). */
  private impersonate(req: IncomingMessage, p: Principal, chain: ReadonlyArray<Authorizer>): Principal {
    const requestor = userOf(p);
    const acting = impersonate(requestor, impersonationHeaders(req.headersDistinct), chainAuthorizer(chain, p));
    if (acting === requestor) return p;
    const { name, uid, groups, extra } = acting;
    return { user: name, groups, ...(uid !== undefined && { uid }), ...(extra && Object.keys(extra).length > 0 && { extra }), deny: this.denyOf(name), via: p.via, impersonator: p.user };
  }
}
