// ServiceAccount tokens: TokenRequest answers (defaults, validation, bound objects), the JWT's claims,
// and the token check that authenticates them (signature, issuer, audience, times, the objects).
import { describe, expect, it } from '@jest/globals';
import { generateSigningKey, signJwt, unverifiedClaims, verifyJwt } from '../../../lib/testing/fakeApiServer/rbac/jwt.js';
import { serviceAccountTokenIssuer, type TokenObject, type TokenObjectLookup } from '../../../lib/testing/fakeApiServer/rbac/serviceAccountToken.js';
import { tokenRequest, type TokenRequestContext } from '../../../lib/testing/fakeApiServer/rbac/tokenRequest.js';
import type { StatusError } from '../../../lib/testing/fakeApiServer/status.js';

const T0 = Date.parse('2026-11-28T12:00:00Z');
const key = generateSigningKey();

function setup() {
  let now = T0;
  let ids = 0;
  const objects = new Map<string, TokenObject & { spec?: object }>([
    ['serviceaccounts/shop/app', { metadata: { name: 'app', namespace: 'shop', uid: 'sa-uid' } }],
    ['pods/shop/web-0', { metadata: { name: 'web-0', namespace: 'shop', uid: 'pod-uid' }, spec: { serviceAccountName: 'app', nodeName: 'node-a' } }],
    ['pods/shop/other', { metadata: { name: 'other', namespace: 'shop', uid: 'other-uid' }, spec: { serviceAccountName: 'default' } }],
    ['secrets/shop/s', { metadata: { name: 's', namespace: 'shop', uid: 'secret-uid' } }],
    ['nodes//node-a', { metadata: { name: 'node-a', uid: 'node-uid' } }],
  ]);
  const lookup: TokenObjectLookup = (resource, namespace, name) => objects.get(`${resource}/${namespace}/${name}`);
  const issuer = serviceAccountTokenIssuer({ key, now: () => now, newId: () => `jti-${++ids}` });
  const ctx: TokenRequestContext = { namespace: 'shop', name: 'app', lookup, issuer, now: () => now };
  return { objects, lookup, issuer, ctx, advance: (ms: number) => (now += ms) };
}

const statusOf = (call: () => unknown) => {
  try {
    call();
  } catch (e) {
    return (e as StatusError).status;
  }
  throw new Error('did not throw');
};

describe('TokenRequest', () => {
  it('answers a token for the ServiceAccount with kube claims, default audiences and an hour', () => {
    const { ctx } = setup();
    const { object, warnings } = tokenRequest({ kind: 'TokenRequest', apiVersion: 'authentication.k8s.io/v1', metadata: { creationTimestamp: null }, spec: {} }, ctx);
    expect(warnings).toEqual([]);
    expect(object).toMatchObject({
      kind: 'TokenRequest',
      apiVersion: 'authentication.k8s.io/v1',
      metadata: { name: 'app', namespace: 'shop', uid: 'sa-uid', creationTimestamp: '2026-11-28T12:00:00Z' },
      spec: { audiences: ['https://kubernetes.default.svc.cluster.local'], expirationSeconds: 3600 },
      status: { expirationTimestamp: '2026-11-28T13:00:00Z' },
    });
    const token = (object.status as { token: string }).token;
    const iat = T0 / 1000;
    expect(unverifiedClaims(token)).toEqual({
      aud: ['https://kubernetes.default.svc.cluster.local'],
      exp: iat + 3600,
      iat,
      iss: 'https://kubernetes.default.svc.cluster.local',
      jti: 'jti-1',
      'kubernetes.io': { namespace: 'shop', serviceaccount: { name: 'app', uid: 'sa-uid' } },
      nbf: iat,
      sub: 'system:serviceaccount:shop:app',
    });
    expect(JSON.parse(Buffer.from(token.split('.')[0], 'base64url').toString())).toEqual({ alg: 'ES256', kid: key.kid });
  });

  it('binds to a pod (naming its node), a secret or a node, and keeps the requested audiences', () => {
    const { ctx } = setup();
    const claims = (ref: object) => unverifiedClaims((tokenRequest({ spec: { audiences: ['vault'], boundObjectRef: ref } }, ctx).object.status as { token: string }).token)!;
    expect(claims({ kind: 'Pod', apiVersion: 'v1', name: 'web-0' })).toMatchObject({
      aud: ['vault'],
      'kubernetes.io': { pod: { name: 'web-0', uid: 'pod-uid' }, node: { name: 'node-a', uid: 'node-uid' } },
    });
    expect(claims({ kind: 'Secret', apiVersion: 'v1', name: 's', uid: 'secret-uid' })['kubernetes.io']).toMatchObject({ secret: { name: 's', uid: 'secret-uid' } });
    expect(claims({ kind: 'Node', apiVersion: 'v1', name: 'node-a' })['kubernetes.io']).toMatchObject({ node: { name: 'node-a', uid: 'node-uid' } });
  });

  it.each<[string, unknown, Partial<TokenRequestContext>, number, string]>([
    ['too short', { spec: { expirationSeconds: 60 } }, {}, 422, 'TokenRequest.authentication.k8s.io "" is invalid: spec.expirationSeconds: Invalid value: 60: may not specify a duration less than 10 minutes'],
    ['too long', { spec: { expirationSeconds: 2 ** 33 } }, {}, 422, 'TokenRequest.authentication.k8s.io "" is invalid: spec.expirationSeconds: Invalid value: 8589934592: may not specify a duration larger than 2^32 seconds'],
    ['not an integer', { spec: { expirationSeconds: '600' } }, {}, 400, 'TokenRequest in version "v1" cannot be handled as a TokenRequest: json: cannot unmarshal string into Go struct field TokenRequestSpec.spec.expirationSeconds of type int64'],
    ['another name in the body', { metadata: { name: 'x' } }, {}, 422, 'TokenRequest.authentication.k8s.io "app" is invalid: metadata.name: Invalid value: "x": must match the service account name if specified'],
    ['a missing ServiceAccount', {}, { name: 'nobody' }, 404, 'serviceaccounts "nobody" not found'],
    ['a missing pod', { spec: { boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'gone' } } }, {}, 404, 'pods "gone" not found'],
    ['a pod of another ServiceAccount', { spec: { boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'other' } } }, {}, 400, 'cannot bind token for serviceaccount "app" to pod running with different serviceaccount name.'],
    ['a kind tokens cannot be bound to', { spec: { boundObjectRef: { kind: 'ConfigMap', apiVersion: 'v1', name: 'c' } } }, {}, 400, 'cannot bind token to object of type /v1, Kind=ConfigMap'],
    [
      'a bound object with another uid',
      { spec: { boundObjectRef: { kind: 'Secret', apiVersion: 'v1', name: 's', uid: 'old' } } },
      {},
      409,
      'Operation cannot be fulfilled on Secret "s": the UID in the bound object reference (old) does not match the UID in record. The object might have been deleted and then recreated',
    ],
  ])('%s: %d', (_name, body, over, code, message) => {
    const { ctx } = setup();
    expect(statusOf(() => tokenRequest(body, { ...ctx, ...over }))).toMatchObject({ code, message });
  });

  it('caps the lifetime at the server maximum, with kube warning', () => {
    const { ctx } = setup();
    const { object, warnings } = tokenRequest({ spec: { expirationSeconds: 7200 } }, { ...ctx, maxExpirationSeconds: 3600 });
    expect(warnings).toEqual(['requested expiration of 7200 seconds shortened to 3600 seconds']);
    expect(object.spec).toMatchObject({ expirationSeconds: 3600 });
  });
});

describe('ServiceAccount token authentication', () => {
  const issue = (s: ReturnType<typeof setup>, spec: object = {}) => (tokenRequest({ spec }, s.ctx).object.status as { token: string }).token;

  it('authenticates a token as its ServiceAccount, in the ServiceAccount groups', () => {
    const s = setup();
    const result = s.issuer.authenticate(issue(s, { boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'web-0' } }), s.lookup);
    expect(result).toMatchObject({
      kind: 'authenticated',
      user: {
        name: 'system:serviceaccount:shop:app',
        uid: 'sa-uid',
        groups: ['system:serviceaccounts', 'system:serviceaccounts:shop'],
        extra: {
          'authentication.kubernetes.io/pod-name': ['web-0'],
          'authentication.kubernetes.io/pod-uid': ['pod-uid'],
          'authentication.kubernetes.io/node-name': ['node-a'],
          'authentication.kubernetes.io/node-uid': ['node-uid'],
          'authentication.kubernetes.io/credential-id': ['JTI=jti-1'],
        },
      },
    });
  });

  it.each<[string, (s: ReturnType<typeof setup>, token: string) => string, string]>([
    ['expired (after a minute of leeway)', (s, t) => (s.advance(3661_000), t), 'service account token has expired'],
    ['its ServiceAccount deleted', (s, t) => (s.objects.delete('serviceaccounts/shop/app'), t), 'serviceaccounts "app" not found'],
    ['its ServiceAccount re-created (another uid)', (s, t) => (s.objects.set('serviceaccounts/shop/app', { metadata: { name: 'app', namespace: 'shop', uid: 'new' } }), t), 'service account UID (new) does not match claim (sa-uid)'],
    [
      'whose claims were changed after signing',
      (_s, t) => {
        const [header, , signature] = t.split('.');
        const forged = { ...unverifiedClaims(t), sub: 'system:serviceaccount:kube-system:admin' };
        return `${header}.${Buffer.from(JSON.stringify(forged)).toString('base64url')}.${signature}`;
      },
      'invalid signature',
    ],
    ['signed by another server', (s, t) => signJwt(generateSigningKey(), unverifiedClaims(t)!), 'invalid signature'],
  ])('refuses a token %s', (_name, spoil, reason) => {
    const s = setup();
    const token = spoil(s, issue(s));
    expect(s.issuer.authenticate(token, s.lookup)).toEqual({ kind: 'rejected', reason });
  });

  it('refuses a token whose bound pod is gone, and one for another audience', () => {
    const s = setup();
    const bound = issue(s, { boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'web-0' } });
    const vault = issue(s, { audiences: ['vault'] });
    s.objects.delete('pods/shop/web-0');
    expect(s.issuer.authenticate(bound, s.lookup)).toEqual({ kind: 'rejected', reason: 'service account token has been invalidated' });
    expect(s.issuer.authenticate(vault, s.lookup)).toEqual({
      kind: 'rejected',
      reason: 'token audiences ["vault"] is invalid for the target audiences ["https://kubernetes.default.svc.cluster.local"]',
    });
  });

  it('leaves tokens of other issuers, and non-JWTs, to the other authenticators', () => {
    const s = setup();
    expect(s.issuer.authenticate('plain-token', s.lookup)).toEqual({ kind: 'notServiceAccountToken' });
    expect(s.issuer.authenticate(signJwt(key, { iss: 'https://elsewhere' }), s.lookup)).toEqual({ kind: 'notServiceAccountToken' });
    expect(verifyJwt(key, signJwt(key, { a: 1 }))).toBe(true);
  });
});
