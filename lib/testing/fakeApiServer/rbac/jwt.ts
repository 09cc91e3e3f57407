// Signed JSON Web Tokens with node:crypto alone: ES256 (ECDSA P-256, SHA-256, the signature as
// r || s), compact serialization, the key id kube derives from the public key (base64url of the
// SHA-256 of its DER SubjectPublicKeyInfo). Claims are written with sorted keys, as go-jose does.
import { createHash, generateKeyPairSync, sign, verify, type KeyObject } from 'node:crypto';

/**
 * A token signing key pair and its key id.
 *
 * @example
 * ```ts
 * const key: TokenSigningKey = generateSigningKey();
 * key.kid; // 'Jm3Xx...' (43 characters)
 * ```
 */
export interface TokenSigningKey {
  readonly privateKey: KeyObject;
  readonly publicKey: KeyObject;
  readonly kid: string;
}

const b64url = (data: Buffer | string): string => Buffer.from(data).toString('base64url');

/**
 * A fresh ES256 signing key (one per server: tokens of another server do not verify).
 *
 * @example
 * ```ts
 * const key = generateSigningKey();
 * ```
 */
export function generateSigningKey(): TokenSigningKey {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const kid = b64url(createHash('sha256').update(publicKey.export({ type: 'spki', format: 'der' })).digest());
  return { privateKey, publicKey, kid };
}

// Keys sorted at every level, as go-jose writes claims (it merges them through maps).
function sorted(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sorted);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((k) => [k, sorted((value as { [k: string]: unknown })[k])]),
  );
}

/**
 * Signs claims: `header.payload.signature`, header `{"alg":"ES256","kid":...}`.
 *
 * @example
 * ```ts
 * const token = signJwt(key, { iss: 'https://kubernetes.default.svc.cluster.local', sub: 'system:serviceaccount:shop:app' });
 * ```
 */
export function signJwt(key: TokenSigningKey, claims: object): string {
  const input = `${b64url(JSON.stringify({ alg: 'ES256', kid: key.kid }))}.${b64url(JSON.stringify(sorted(claims)))}`;
  const signature = sign('sha256', Buffer.from(input), { key: key.privateKey, dsaEncoding: 'ieee-p1363' });
  return `${input}.${b64url(signature)}`;
}

/**
 * A token's claims without checking the signature (undefined when it is no JWT): the issuer is
 * read first, to know whose token it is.
 *
 * @example
 * ```ts
 * unverifiedClaims(token)?.iss;
 * ```
 */
export function unverifiedClaims(token: string): { readonly [key: string]: unknown } | undefined {
  const parts = token.split('.');
  if (parts.length !== 3) return undefined;
  try {
    const claims: unknown = JSON.parse(Buffer.from(parts[1], 'base64url').toString('utf8'));
    return typeof claims === 'object' && claims !== null && !Array.isArray(claims) ? (claims as { [key: string]: unknown }) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether the token was signed by `key` with ES256 (its header says ES256 and the signature checks).
 *
 * @example
 * ```ts
 * verifyJwt(key, signJwt(key, { sub: 'x' })); // true
 * ```
 */
export function verifyJwt(key: TokenSigningKey, token: string): boolean {
  const parts = token.split('.');
  if (parts.length !== 3) return false;
  try {
    const header: unknown = JSON.parse(Buffer.from(parts[0], 'base64url').toString('utf8'));
    if ((header as { alg?: unknown } | null)?.alg !== 'ES256') return false;
    return verify('sha256', Buffer.from(`${parts[0]}.${parts[1]}`), { key: key.publicKey, dsaEncoding: 'ieee-p1363' }, Buffer.from(parts[2], 'base64url'));
  } catch {
    return false;
  }
}
