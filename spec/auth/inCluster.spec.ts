// In-cluster configuration (KUBERNETES_SERVICE_HOST/PORT, the service-account token and CA files)
// pointed at the fake API server through client-node's loadFromCluster(pathPrefix), and the
// projected token file rotated on disk while an informer runs: after the old token is refused, the
// file is read again and the request retried, with no outage the informer could notice.
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { KubeConfig } from '@kubernetes/client-node';
import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ReflectorError } from '../../lib/reflector/reflectorError.js';
import { startFakeApiServer, type FakeApiServer } from '../../lib/testing/index.js';
import { clientNodeTransport, type ClientNodeTransport } from '../../lib/transport/clientNode.js';
import { CredentialError } from '../../lib/transport/credentialError.js';
import { expectNoCredentials, kubeConfigFor, runInformer, waitFor, type RunningInformer } from './support.js';

const SA = 'var/run/secrets/kubernetes.io/serviceaccount';

describe('in-cluster config and a rotated service-account token file', () => {
  let api: FakeApiServer;
  let root: string;
  let running: RunningInformer | undefined;
  let transport: ClientNodeTransport | undefined;
  const env = { host: process.env.KUBERNETES_SERVICE_HOST, port: process.env.KUBERNETES_SERVICE_PORT };

  /** Writes the token as kubelet does: a new file, then an atomic rename over the old one. */
  const writeToken = (token: string): void => {
    writeFileSync(join(root, SA, 'token.tmp'), token);
    renameSync(join(root, SA, 'token.tmp'), join(root, SA, 'token'));
  };
  const inCluster = (): KubeConfig => {
    process.env.KUBERNETES_SERVICE_HOST = '127.0.0.1';
    process.env.KUBERNETES_SERVICE_PORT = String(api.port);
    const kc = new KubeConfig();
    kc.loadFromCluster(root); // client-node reads `${pathPrefix}/var/run/secrets/...`
    return kc;
  };

  beforeEach(async () => {
    api = await startFakeApiServer({ tokens: [{ token: 'sa-secret-token-1', user: 'system:serviceaccount:default:app-1' }] });
    api.create('configmaps', { metadata: { name: 'one', namespace: 'default' } });
    root = mkdtempSync(join(tmpdir(), 'rxkube-incluster-'));
    mkdirSync(join(root, SA), { recursive: true });
    writeFileSync(join(root, SA, 'ca.crt'), api.caCert!);
    writeFileSync(join(root, SA, 'namespace'), 'default');
    writeToken('sa-secret-token-1');
  });
  afterEach(async () => {
    await running?.stop();
    transport?.destroy();
    running = undefined;
    transport = undefined;
    await api.close();
    rmSync(root, { recursive: true, force: true });
    for (const [k, v] of [['KUBERNETES_SERVICE_HOST', env.host], ['KUBERNETES_SERVICE_PORT', env.port]] as const) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  });

  it('loadFromCluster(pathPrefix): https://KUBERNETES_SERVICE_HOST:PORT, verified with ca.crt, as the token file says', async () => {
    const kc = inCluster();
    expect(kc.getCurrentCluster()?.server).toBe(`https://127.0.0.1:${api.port}`);
    transport = clientNodeTransport(kc);
    running = runInformer(transport);
    expect(await running.inf.waitForCacheSync()).toBe(true);
    expect(running.calls).toEqual(['add one']);
    expect(api.requests[0]).toMatchObject({ verb: 'list', user: 'system:serviceaccount:default:app-1', authenticatedBy: 'token' });
    expectNoCredentials(['sa-secret-token-1'], running.errors, running.logLines, api.requests);
  });

  it('the token file is rotated and the old token revoked while the informer runs: one 401, re-read, retried, nothing lost', async () => {
    transport = clientNodeTransport(inCluster());
    const r = (running = runInformer(transport));
    expect(await r.inf.waitForCacheSync()).toBe(true);
    await waitFor(() => api.openWatches('configmaps') === 1, 'the watch');
    // Rotation: the new token is valid first, then the file changes, then the old one is revoked.
    api.addToken({ token: 'sa-secret-token-2', user: 'system:serviceaccount:default:app-2' });
    writeToken('sa-secret-token-2');
    api.revokeToken('sa-secret-token-1');
    api.faults.dropWatches();
    api.create('configmaps', { metadata: { name: 'two', namespace: 'default' } });
    await waitFor(() => r.inf.getByKey('default/two') !== undefined, 'the object created after the rotation');
    const users = api.requests.map((q) => q.user ?? 'unauthorized');
    const firstRefused = users.indexOf('unauthorized');
    expect(users.slice(0, firstRefused)).toEqual(['system:serviceaccount:default:app-1', 'system:serviceaccount:default:app-1']);
    expect(users.slice(firstRefused + 1)).toEqual(users.slice(firstRefused + 1).map(() => 'system:serviceaccount:default:app-2'));
    expect(users.filter((u) => u === 'unauthorized')).toHaveLength(1);
    expect(r.calls.filter((c) => c.startsWith('add '))).toEqual(['add one', 'add two']);
    expect(r.errors.filter((e) => (e as ReflectorError).statusCode === 401 || e.cause instanceof CredentialError)).toEqual([]);
    expectNoCredentials(['sa-secret-token-1', 'sa-secret-token-2'], r.errors, r.logLines, api.requests);
  });

  it('a missing token file: a CredentialError that names the file', async () => {
    rmSync(join(root, SA, 'token'));
    transport = clientNodeTransport(inCluster());
    const r = (running = runInformer(transport));
    await waitFor(() => r.errors.length >= 1, 'a failed list');
    const e = r.errors[0]!.cause as CredentialError;
    expect(e).toBeInstanceOf(CredentialError);
    expect(e.message).toContain('kubeconfig user "inClusterUser": a credential file could not be read');
    expect(e.message).toContain(join(root, SA, 'token'));
    expect(api.requests).toHaveLength(0);
  });

  it('limitation: a kubeconfig `token-file` is read once, when client-node loads the kubeconfig, so a rotated file is not seen', async () => {
    const kc = kubeConfigFor(api, { 'token-file': join(root, SA, 'token') });
    api.addToken({ token: 'sa-secret-token-2', user: 'system:serviceaccount:default:app-2' });
    writeToken('sa-secret-token-2');
    api.revokeToken('sa-secret-token-1');
    transport = clientNodeTransport(kc);
    const r = (running = runInformer(transport));
    await waitFor(() => r.errors.length >= 1, 'a failed list');
    expect((r.errors[0] as ReflectorError).statusCode).toBe(401);
    expectNoCredentials(['sa-secret-token-1', 'sa-secret-token-2'], r.errors, r.logLines, api.requests);
  });
});
