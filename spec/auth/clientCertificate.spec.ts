// Client-certificate authentication (kind, minikube, kubeadm) through the real client-node stack
// against the fake API server: inline and file certificates work; a certificate of another CA, an
// expired one or a key that does not match fail with a typed error, back off (no hot loop) and
// never show the certificate or key.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { KubeConfig } from '@kubernetes/client-node';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApiStatusError } from '../../lib/errors.js';
import { ReflectorError } from '../../lib/reflector/reflectorError.js';
import { startFakeApiServer, type ClientCertificate, type FakeApiServer } from '../../lib/testing/index.js';
import { clientNodeTransport, type ClientNodeTransport } from '../../lib/transport/clientNode.js';
import { CredentialError } from '../../lib/transport/credentialError.js';
import { expectNoCredentials, kubeConfigFor, kubeConfigObject, runInformer, waitFor, type RunningInformer } from './support.js';

const inline = (c: ClientCertificate) => ({
  'client-certificate-data': Buffer.from(c.cert).toString('base64'),
  'client-key-data': Buffer.from(c.key).toString('base64'),
});

describe('client certificates through client-node', () => {
  let api: FakeApiServer;
  let other: FakeApiServer;
  let dir: string;
  let running: RunningInformer | undefined;
  let transport: ClientNodeTransport | undefined;
  const start = (kc: KubeConfig): RunningInformer => {
    transport = clientNodeTransport(kc);
    running = runInformer(transport);
    return running;
  };

  beforeAll(async () => {
    other = await startFakeApiServer();
    dir = mkdtempSync(join(tmpdir(), 'rxkube-cert-'));
  });
  // A server per test: a stopped informer's last request may still reach the server after stop.
  beforeEach(async () => {
    api = await startFakeApiServer({ clientCertificateAuth: true });
    api.create('configmaps', { metadata: { name: 'one', namespace: 'default' } });
  });
  afterEach(async () => {
    await running?.stop();
    transport?.destroy();
    running = undefined;
    transport = undefined;
    await api.close();
  });
  afterAll(async () => {
    await other.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('client-certificate-data / client-key-data: the informer syncs as user = CN, groups = O', async () => {
    const cert = api.issueClientCertificate('alice', ['devs']);
    api.clearRequests();
    const r = start(kubeConfigFor(api, inline(cert)));
    expect(await r.inf.waitForCacheSync()).toBe(true);
    expect(r.calls).toEqual(['add one']);
    expect(api.requests[0]).toMatchObject({ verb: 'list', user: 'alice', groups: ['devs'], authenticatedBy: 'certificate' });
    expectNoCredentials([cert.cert, cert.key], r.errors, r.logLines, api.requests);
  });

  it('client-certificate / client-key as files, relative to the kubeconfig file as kubectl reads them', async () => {
    const cert = api.issueClientCertificate('bob', ['ops']);
    writeFileSync(join(dir, 'bob.crt'), cert.cert);
    writeFileSync(join(dir, 'bob.key'), cert.key, { mode: 0o600 });
    writeFileSync(join(dir, 'ca.crt'), api.caCert!);
    const file = join(dir, 'kubeconfig');
    writeFileSync(file, JSON.stringify(kubeConfigObject(api, { 'client-certificate': 'bob.crt', 'client-key': 'bob.key' }, { 'certificate-authority': 'ca.crt' })));
    const kc = new KubeConfig();
    kc.loadFromFile(file);
    api.clearRequests();
    const r = start(kc);
    expect(await r.inf.waitForCacheSync()).toBe(true);
    expect(api.requests[0]).toMatchObject({ user: 'bob', groups: ['ops'], authenticatedBy: 'certificate' });
    expectNoCredentials([cert.cert, cert.key], r.errors, r.logLines, api.requests);
  });

  it('a certificate of another CA: 401 as an ApiStatusError, retried after the backoff only (no hot loop)', async () => {
    const foreign = other.issueClientCertificate('alice', ['system:masters']);
    api.clearRequests();
    const r = start(kubeConfigFor(api, inline(foreign)));
    await waitFor(() => r.errors.length >= 3, 'three failed lists');
    const e = r.errors[0] as ReflectorError;
    expect(e).toBeInstanceOf(ReflectorError);
    expect(e.statusCode).toBe(401);
    expect(e.cause).toBeInstanceOf(ApiStatusError);
    expect(e.message).toContain('401 Unauthorized');
    // One request per failure, each after the reflector's backoff (200 ms, then 400 ms: no jitter).
    expect(api.requests.filter((q) => q.unauthorized).length).toBeLessThanOrEqual(r.errors.length + 1) // + the retry in flight;
    expect(r.errorTimes[1]! - r.errorTimes[0]!).toBeGreaterThanOrEqual(190);
    expect(r.errorTimes[2]! - r.errorTimes[1]!).toBeGreaterThanOrEqual(390);
    expect(r.inf.hasSynced()).toBe(false);
    expectNoCredentials([foreign.cert, foreign.key], r.errors, r.logLines, api.requests);
  });

  it('an expired certificate: a CredentialError that says it expired and what to do, retried after the backoff only', async () => {
    const expired = api.issueClientCertificate('alice', ['devs'], { notAfter: new Date(Date.now() - 3_600_000) });
    api.clearRequests();
    const r = start(kubeConfigFor(api, inline(expired)));
    await waitFor(() => r.errors.length >= 3, 'three failed lists');
    const cause = (r.errors[0] as ReflectorError).cause;
    expect(cause).toBeInstanceOf(CredentialError);
    expect((cause as CredentialError).user).toBe('u');
    expect((cause as CredentialError).message).toMatch(/^kubeconfig user "u": the server answered 401 Unauthorized because the client certificate expired on \d{4}-.*; renew it/);
    expect(api.requests.filter((q) => q.unauthorized).length).toBeLessThanOrEqual(r.errors.length + 1) // + the retry in flight;
    expect(r.errorTimes[2]! - r.errorTimes[1]!).toBeGreaterThanOrEqual(390);
    expectNoCredentials([expired.cert, expired.key], r.errors, r.logLines, api.requests);
  });

  it('a key that does not belong to the certificate: a CredentialError before any request is sent', async () => {
    const a = api.issueClientCertificate('alice');
    const b = api.issueClientCertificate('bob');
    api.clearRequests();
    const r = start(kubeConfigFor(api, inline({ cert: a.cert, key: b.key })));
    await waitFor(() => r.errors.length >= 2, 'two failed lists');
    const cause = (r.errors[0] as ReflectorError).cause as CredentialError;
    expect(cause).toBeInstanceOf(CredentialError);
    expect(cause.message).toContain('kubeconfig user "u": its client certificate, key or CA cannot be used');
    expect(api.requests).toHaveLength(0);
    expectNoCredentials([a.cert, a.key, b.cert, b.key], r.errors, r.logLines, api.requests);
  });
});
