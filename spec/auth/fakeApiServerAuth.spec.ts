// The fake API server's authentication, at the protocol level (raw HTTPS on loopback): client
// certificates signed by its CA, tokens that expire or are revoked, impersonation, kube's 401 and
// 403 wording, and a request log that records rejected requests but never a credential.
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { X509Certificate } from 'node:crypto';
import { remoteFaults, startFakeApiServer, type FakeApiServer } from '../../lib/testing/index.js';
import { rawWatch } from '../testing/rawClient.js';
import { expectNoCredentials, get } from './support.js';

const UNAUTHORIZED = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'Unauthorized', reason: 'Unauthorized', code: 401 };

describe('fake API server: client certificates, expiring tokens, impersonation', () => {
  let api: FakeApiServer;
  let other: FakeApiServer | undefined;
  beforeEach(async () => {
    api = await startFakeApiServer({
      tokens: [
        { token: 'admin-secret-token', user: 'admin' },
        { token: 'nameless-secret-token', deny: [{ verb: 'list', resource: 'secrets' }] },
        { token: 'reader-secret-token', user: 'reader', deny: [{ verb: 'impersonate' }] },
      ],
    });
  });
  afterEach(async () => {
    await api.close();
    await other?.close();
    other = undefined;
  });

  it('a client certificate signed by its CA authenticates as user = CN, groups = O, and is logged so', async () => {
    const { cert, key } = api.issueClientCertificate('alice', ['devs', 'system:masters']);
    const x = new X509Certificate(cert);
    expect(x.subject).toBe('O=devs\nO=system:masters\nCN=alice');
    expect(x.verify(new X509Certificate(api.caCert!).publicKey)).toBe(true);
    const r = await get(api, '/api/v1/namespaces/default/pods', { cert, key });
    expect(r.status).toBe(200);
    expect(api.requests.at(-1)).toMatchObject({ verb: 'list', user: 'alice', groups: ['devs', 'system:masters'], authenticatedBy: 'certificate' });
    expectNoCredentials([cert, key], api.requests);
  });

  it('a certificate of another CA, or an expired one, is a 401 worded as kube words it, and is in the request log', async () => {
    other = await startFakeApiServer();
    const foreign = other.issueClientCertificate('alice', ['system:masters']);
    const expired = api.issueClientCertificate('alice', [], { notAfter: new Date(Date.now() - 60_000) });
    api.clearRequests();
    for (const c of [foreign, expired]) {
      const r = await get(api, '/api/v1/pods', c);
      expect(r.status).toBe(401);
      expect(r.json).toEqual(UNAUTHORIZED);
    }
    expect(api.requests).toHaveLength(2);
    expect(api.requests.every((r) => r.unauthorized === true && r.user === undefined && r.verb === 'list')).toBe(true);
    expectNoCredentials([foreign.cert, foreign.key, expired.cert, expired.key], api.requests);
  });

  it('a token is accepted until it expires or is revoked; the 401s are logged; the token is in no response or log entry', async () => {
    api.addToken({ token: 'expired-secret-token', user: 'ci', expiresAt: Date.now() - 1 });
    api.addToken({ token: 'fresh-secret-token', user: 'ci', groups: ['builders'], expiresAt: Date.now() + 3_600_000 });
    api.clearRequests();
    expect((await get(api, '/api/v1/pods', { token: 'expired-secret-token' })).json).toEqual(UNAUTHORIZED);
    const fresh = await get(api, '/api/v1/pods', { token: 'fresh-secret-token' });
    expect(fresh.status).toBe(200);
    expect(api.revokeToken('fresh-secret-token')).toBe(true);
    expect((await get(api, '/api/v1/pods', { token: 'fresh-secret-token' })).status).toBe(401);
    expect(api.requests.map((r) => [r.user, r.unauthorized ?? false])).toEqual([
      [undefined, true],
      ['ci', false],
      [undefined, true],
    ]);
    expect(api.requests[1]).toMatchObject({ groups: ['builders'], authenticatedBy: 'token' });
    expectNoCredentials(['expired-secret-token', 'fresh-secret-token'], api.requests, fresh.json);
  });

  it('revoking a token does not end a watch opened with it (kube authenticates a request once, at its start)', async () => {
    api.addToken({ token: 'watch-secret-token', user: 'watcher' });
    const w = await rawWatch(api, '/api/v1/namespaces/default/configmaps', { token: 'watch-secret-token' });
    try {
      api.revokeToken('watch-secret-token');
      api.create('configmaps', { metadata: { name: 'after-revoke', namespace: 'default' } });
      await w.until((events) => events.some((e) => e.object?.metadata?.name === 'after-revoke'));
      expect((await get(api, '/api/v1/namespaces/default/configmaps', { token: 'watch-secret-token' })).status).toBe(401);
    } finally {
      w.close();
    }
  });

  it('a token without a user name is forbidden as "token-user-N", never as the token itself', async () => {
    const r = await get(api, '/api/v1/secrets', { token: 'nameless-secret-token' });
    expect(r.status).toBe(403);
    expect(r.json.message).toBe('secrets is forbidden: User "token-user-2" cannot list resource "secrets" in API group "" at the cluster scope');
    expectNoCredentials(['nameless-secret-token'], r.json, api.requests);
  });

  it('Impersonate-User and Impersonate-Group: the request acts as that user, the log names the impersonator', async () => {
    const r = await get(api, '/api/v1/namespaces/default/pods', {
      token: 'admin-secret-token',
      headers: { 'Impersonate-User': 'bob', 'Impersonate-Group': 'viewers' },
    });
    expect(r.status).toBe(200);
    expect(api.requests.at(-1)).toMatchObject({ user: 'bob', groups: ['viewers'], impersonator: 'admin', authenticatedBy: 'token' });
  });

  it('impersonation denied to a user is the 403 kube words for it', async () => {
    const r = await get(api, '/api/v1/pods', { token: 'reader-secret-token', headers: { 'Impersonate-User': 'bob' } });
    expect(r.status).toBe(403);
    expect(r.json).toMatchObject({
      reason: 'Forbidden',
      message: 'users "bob" is forbidden: User "reader" cannot impersonate resource "users" in API group "" at the cluster scope',
    });
  });

  it('clientCertificateAuth: the default kubeconfig carries a certificate for admin / system:masters and no token is accepted', async () => {
    other = await startFakeApiServer({ clientCertificateAuth: true });
    const user = JSON.parse(other.kubeConfigText()).users[0].user;
    expect(Object.keys(user).sort()).toEqual(['client-certificate-data', 'client-key-data']);
    expect(other.token).toBeUndefined();
    const cert = Buffer.from(user['client-certificate-data'], 'base64').toString();
    const key = Buffer.from(user['client-key-data'], 'base64').toString();
    expect(new X509Certificate(cert).subject).toBe('O=system:masters\nCN=admin');
    expect((await get(other, '/api/v1/pods', { cert, key })).status).toBe(200);
    expect((await get(other, '/api/v1/pods', { token: 'rxkube-fake-admin-token' })).status).toBe(401);
    expect((await get(other, '/api/v1/pods')).status).toBe(401);
    // The fault control API authenticates the same way: remoteFaults with the certificate.
    await expect(remoteFaults(other.url, { ca: other.caCert }).failNext(1, { code: 503 })).rejects.toThrow('401');
    expect(await remoteFaults(other.url, { ca: other.caCert, cert, key }).dropWatches()).toBe(0);
  });
});

describe('the credential check of these specs', () => {
  it('finds a token, a PEM certificate or key, and their base64 kubeconfig form, in errors and nested objects', async () => {
    const api = await startFakeApiServer();
    try {
      const { cert, key } = api.issueClientCertificate('alice');
      const kubeconfig = JSON.parse(api.kubeConfigText({ clientCertificate: { cert, key } }));
      expect(() => expectNoCredentials([cert], kubeconfig)).toThrow();
      expect(() => expectNoCredentials([key], new Error('x', { cause: new Error(key) }))).toThrow();
      expect(() => expectNoCredentials(['tok-123'], [{ deep: { er: 'Bearer tok-123' } }])).toThrow();
      expect(() => expectNoCredentials([cert, key, 'tok-123'], api.requests, new Error('fine'))).not.toThrow();
    } finally {
      await api.close();
    }
  });
});
