// ServiceAccount tokens as kube-apiserver issues and checks them (KK pkg/serviceaccount/claims.go,
// jwt.go): a JWT with kube's claims (iss, sub `system:serviceaccount:<ns>:<name>`, aud, exp, iat,
// nbf, jti, and `kubernetes.io` naming the namespace, the ServiceAccount and the bound pod, secret
// or node); accepted while its signature, issuer, audience and times check (a minute's leeway, as
// go-jose allows) and while the ServiceAccount (and bound object) exists with the uid the token
// names. The user is the ServiceAccount, in groups `system:serviceaccounts` and
// `system:serviceaccounts:<ns>`.
import { goQuotedList } from './policyRule.js';
import { signJwt, unverifiedClaims, verifyJwt, type TokenSigningKey } from './jwt.js';
import { serviceAccountGroups, serviceAccountUsername, type UserInfo } from './userInfo.js';

const LEEWAY_S = 60;

/**
 * A name and uid in the `kubernetes.io` claim.
 *
 * @example
 * ```ts
 * const pod: ObjectRefClaim = { name: 'web-0', uid: '6a1f...' };
 * ```
 */
export interface ObjectRefClaim {
  readonly name: string;
  readonly uid?: string;
}

/**
 * The claims of a ServiceAccount token.
 *
 * @example
 * ```ts
 * claims.sub; // 'system:serviceaccount:shop:ready-pods'
 * claims['kubernetes.io'].serviceaccount.uid;
 * ```
 */
export interface ServiceAccountClaims {
  readonly iss: string;
  readonly sub: string;
  readonly aud: ReadonlyArray<string>;
  readonly exp: number;
  readonly iat: number;
  readonly nbf: number;
  readonly jti: string;
  readonly 'kubernetes.io': {
    readonly namespace: string;
    readonly serviceaccount: ObjectRefClaim;
    readonly pod?: ObjectRefClaim;
    readonly secret?: ObjectRefClaim;
    readonly node?: ObjectRefClaim;
  };
}

/**
 * The metadata a token check reads from a stored object.
 *
 * @example
 * ```ts
 * const sa: TokenObject = { metadata: { name: 'app', namespace: 'shop', uid: 'u1' } };
 * ```
 */
export interface TokenObject {
  readonly metadata?: { readonly name?: string; readonly namespace?: string; readonly uid?: string; readonly deletionTimestamp?: string };
}

/**
 * Reads the objects a token names: `serviceaccounts`, `pods` and `secrets` in a namespace,
 * `nodes` with namespace ''.
 *
 * @example
 * ```ts
 * const lookup: TokenObjectLookup = (resource, namespace, name) => api.get(resource, namespace || undefined, name);
 * ```
 */
export type TokenObjectLookup = (resource: 'serviceaccounts' | 'pods' | 'secrets' | 'nodes', namespace: string, name: string) => TokenObject | undefined;

/**
 * What a token is to the server: not one of its ServiceAccount tokens (another issuer, or no JWT),
 * refused (kube's reason: only logged, the client sees 401), or the ServiceAccount's user.
 *
 * @example
 * ```ts
 * const a: TokenAuthentication = { kind: 'rejected', reason: 'service account token has expired' };
 * ```
 */
export type TokenAuthentication =
  | { readonly kind: 'notServiceAccountToken' }
  | { readonly kind: 'rejected'; readonly reason: string }
  | { readonly kind: 'authenticated'; readonly user: UserInfo; readonly claims: ServiceAccountClaims };

/**
 * What to put in a token: its ServiceAccount, the object it is bound to, audiences and lifetime.
 *
 * @example
 * ```ts
 * const t: TokenGrant = { namespace: 'shop', serviceAccount: { name: 'app', uid: 'u1' }, audiences: ['https://kubernetes.default.svc.cluster.local'], expirationSeconds: 3600 };
 * ```
 */
export interface TokenGrant {
  readonly namespace: string;
  readonly serviceAccount: ObjectRefClaim;
  readonly pod?: ObjectRefClaim;
  readonly secret?: ObjectRefClaim;
  readonly node?: ObjectRefClaim;
  readonly audiences: ReadonlyArray<string>;
  readonly expirationSeconds: number;
}

/**
 * Issues and checks the server's ServiceAccount tokens.
 *
 * @example
 * ```ts
 * const issuer = serviceAccountTokenIssuer({ key: generateSigningKey(), now: () => Date.now(), newId: () => randomUUID() });
 * const { token } = issuer.issue(grant);
 * issuer.authenticate(token, lookup).kind; // 'authenticated'
 * ```
 */
export interface ServiceAccountTokenIssuer {
  /** The `iss` of its tokens (and the API server's audience). */
  readonly issuer: string;
  /** The audiences the API server accepts, and those a TokenRequest without audiences gets. */
  readonly apiAudiences: ReadonlyArray<string>;
  issue(grant: TokenGrant): { readonly token: string; readonly claims: ServiceAccountClaims };
  authenticate(token: string, lookup: TokenObjectLookup): TokenAuthentication;
}

/**
 * Options of {@link serviceAccountTokenIssuer}.
 *
 * @example
 * ```ts
 * const o: TokenIssuerOptions = { key, now: () => scheduler.now(), newId: () => rng.uuid() };
 * ```
 */
export interface TokenIssuerOptions {
  readonly key: TokenSigningKey;
  /** The clock, ms since the epoch (the server's scheduler). */
  readonly now: () => number;
  /** The `jti` of each token. */
  readonly newId: () => string;
  /** Default `https://kubernetes.default.svc.cluster.local`, as kind and kubeadm set `--service-account-issuer`. */
  readonly issuer?: string;
  /** Default `[issuer]` (kube-apiserver's `--api-audiences` default). */
  readonly apiAudiences?: ReadonlyArray<string>;
}

const isRef = (v: unknown): v is ObjectRefClaim => typeof v === 'object' && v !== null && typeof (v as { name?: unknown }).name === 'string';

/** The claims of a token that is ours, in their expected shapes, or the reason they are not. */
function readClaims(raw: { readonly [key: string]: unknown }): ServiceAccountClaims | string {
  const k8s = raw['kubernetes.io'] as ServiceAccountClaims['kubernetes.io'] | undefined;
  const numbers = ['exp', 'iat', 'nbf'].every((n) => raw[n] === undefined || typeof raw[n] === 'number');
  if (!numbers || typeof k8s !== 'object' || k8s === null || typeof k8s.namespace !== 'string' || !isRef(k8s.serviceaccount)) {
    return 'service account token claims could not be validated due to unexpected private claim';
  }
  const aud = typeof raw.aud === 'string' ? [raw.aud] : Array.isArray(raw.aud) ? raw.aud.filter((a): a is string => typeof a === 'string') : [];
  return { ...(raw as unknown as ServiceAccountClaims), aud };
}

// go-jose's time checks with its default leeway, in its order.
function timeProblem(c: ServiceAccountClaims, nowS: number): string | undefined {
  if (c.nbf !== undefined && nowS + LEEWAY_S < c.nbf) return 'service account token is not valid yet';
  if (c.exp !== undefined && nowS - LEEWAY_S > c.exp) return 'service account token has expired';
  if (c.iat !== undefined && nowS + LEEWAY_S < c.iat) return 'service account token is issued in the future';
  return undefined;
}

const deletedBefore = (o: TokenObject, nowS: number): boolean => {
  const at = o.metadata?.deletionTimestamp;
  return at !== undefined && Date.parse(at) / 1000 < nowS - LEEWAY_S;
};

// The objects the token names still exist, with the uids it names (kube's validator).
function objectProblem(c: ServiceAccountClaims, lookup: TokenObjectLookup, nowS: number): string | undefined {
  const { namespace, serviceaccount: sa, secret, pod, node } = c['kubernetes.io'];
  const account = lookup('serviceaccounts', namespace, sa.name);
  if (!account) return `serviceaccounts ${JSON.stringify(sa.name)} not found`;
  if (account.metadata?.uid !== sa.uid) return `service account UID (${account.metadata?.uid ?? ''}) does not match claim (${sa.uid ?? ''})`;
  if (deletedBefore(account, nowS)) return `service account ${namespace}/${sa.name} has been deleted`;
  const bound: Array<[ObjectRefClaim | undefined, 'secrets' | 'pods', string]> = [
    [secret, 'secrets', 'secret UID (%s) does not match service account secret ref claim (%s)'],
    [pod, 'pods', 'pod UID (%s) does not match service account pod ref claim (%s)'],
  ];
  for (const [ref, resource, mismatch] of bound) {
    if (!isRef(ref)) continue;
    const obj = lookup(resource, namespace, ref.name);
    if (!obj) return 'service account token has been invalidated';
    if (obj.metadata?.uid !== ref.uid) return mismatch.replace('%s', obj.metadata?.uid ?? '').replace('%s', ref.uid ?? '');
    if (deletedBefore(obj, nowS)) return 'service account token has been invalidated';
  }
  // A pod-bound token names the pod's node for information only; a node-bound one depends on it.
  if (isRef(node) && !isRef(pod)) {
    const obj = lookup('nodes', '', node.name);
    if (!obj || deletedBefore(obj, nowS)) return 'service account token has been invalidated';
    if (obj.metadata?.uid !== node.uid) return `node UID (${obj.metadata?.uid ?? ''}) does not match service account node ref claim (${node.uid ?? ''})`;
  }
  return undefined;
}

function userOf(c: ServiceAccountClaims): UserInfo {
  const { namespace, serviceaccount: sa, pod, node } = c['kubernetes.io'];
  const extra: { [key: string]: string[] } = {};
  if (isRef(pod)) Object.assign(extra, { 'authentication.kubernetes.io/pod-name': [pod.name], 'authentication.kubernetes.io/pod-uid': [pod.uid ?? ''] });
  if (isRef(node)) Object.assign(extra, { 'authentication.kubernetes.io/node-name': [node.name], 'authentication.kubernetes.io/node-uid': [node.uid ?? ''] });
  if (typeof c.jti === 'string' && c.jti) extra['authentication.kubernetes.io/credential-id'] = [`JTI=${c.jti}`];
  return { name: serviceAccountUsername(namespace, sa.name), uid: sa.uid ?? '', groups: serviceAccountGroups(namespace), extra };
}

/**
 * The token issuer of a server: signs ServiceAccount tokens with its key and authenticates them.
 *
 * @example
 * ```ts
 * const issuer = serviceAccountTokenIssuer({ key: generateSigningKey(), now: () => scheduler.now(), newId });
 * ```
 */
export function serviceAccountTokenIssuer(options: TokenIssuerOptions): ServiceAccountTokenIssuer {
  const issuer = options.issuer ?? 'https://kubernetes.default.svc.cluster.local';
  const apiAudiences = options.apiAudiences ?? [issuer];
  const nowS = () => Math.floor(options.now() / 1000);
  return {
    issuer,
    apiAudiences,
    issue: (g) => {
      const iat = nowS();
      const claims: ServiceAccountClaims = {
        iss: issuer,
        sub: serviceAccountUsername(g.namespace, g.serviceAccount.name),
        aud: [...g.audiences],
        exp: iat + g.expirationSeconds,
        iat,
        nbf: iat,
        jti: options.newId(),
        'kubernetes.io': {
          namespace: g.namespace,
          serviceaccount: g.serviceAccount,
          ...(g.pod && { pod: g.pod }),
          ...(g.secret && { secret: g.secret }),
          ...(g.node && { node: g.node }),
        },
      };
      return { token: signJwt(options.key, claims), claims };
    },
    authenticate: (token, lookup) => {
      const raw = unverifiedClaims(token);
      if (!raw || raw.iss !== issuer) return { kind: 'notServiceAccountToken' };
      if (!verifyJwt(options.key, token)) return { kind: 'rejected', reason: 'invalid signature' };
      const claims = readClaims(raw);
      if (typeof claims === 'string') return { kind: 'rejected', reason: claims };
      if (!claims.aud.some((a) => apiAudiences.includes(a))) {
        return { kind: 'rejected', reason: `token audiences ${goQuotedList(claims.aud)} is invalid for the target audiences ${goQuotedList(apiAudiences)}` };
      }
      const problem = timeProblem(claims, nowS()) ?? objectProblem(claims, lookup, nowS());
      return problem ? { kind: 'rejected', reason: problem } : { kind: 'authenticated', user: userOf(claims), claims };
    },
  };
}
