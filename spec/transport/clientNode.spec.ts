import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { KubeConfig } from '@kubernetes/client-node';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { firstValueFrom, toArray, type Observable } from 'rxjs';
import { ApiStatusError } from '../../lib/errors.js';
import { listWatch } from '../../lib/listwatch/createListWatch.js';
import type { Resource } from '../../lib/listwatch/resource.js';
import { clientNodeTransport, type ClientNodeTransport } from '../../lib/transport/clientNode.js';
import { TransportError } from '../../lib/transport/transportError.js';
import { startFakeApiServer, type FakeApiServer } from '../../lib/testing/index.js';

const configmaps: Resource = {
  group: '',
  version: 'v1',
  plural: 'configmaps',
  kind: 'ConfigMap',
  namespaced: true,
};
const all = <T>(o$: Observable<T>): Promise<T[]> => firstValueFrom(o$.pipe(toArray()));

interface UserSpec {
  token?: string;
  exec?: { apiVersion: string; command: string; args: string[]; interactiveMode?: string };
}

/** A kubeconfig for the fake server with the given user and cluster TLS settings. */
function kubeConfig(
  api: FakeApiServer,
  user: UserSpec,
  cluster: { ca?: boolean; skipTLSVerify?: boolean } = { ca: true },
): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromString(
    JSON.stringify({
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [
        {
          name: 'c',
          cluster: {
            server: api.url,
            ...(cluster.ca
              ? { 'certificate-authority-data': Buffer.from(api.caCert!).toString('base64') }
              : {}),
            ...(cluster.skipTLSVerify ? { 'insecure-skip-tls-verify': true } : {}),
          },
        },
      ],
      users: [{ name: 'u', user }],
      contexts: [{ name: 'x', context: { cluster: 'c', user: 'u' } }],
      'current-context': 'x',
    }),
  );
  return kc;
}

describe('clientNodeTransport: authentication and TLS from the kubeconfig', () => {
  let api: FakeApiServer;
  let dir: string;
  const transports: ClientNodeTransport[] = [];
  const transport = (kc: KubeConfig): ClientNodeTransport => {
    const t = clientNodeTransport(kc);
    transports.push(t);
    return t;
  };

  beforeAll(async () => {
    api = await startFakeApiServer();
    api.create('configmaps', { metadata: { namespace: 'default', name: 'one' }, data: {} });
    dir = mkdtempSync(join(tmpdir(), 'rxkube-auth-'));
  });
  afterAll(async () => {
    for (const t of transports) t.destroy();
    await api.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('authenticates with the bearer token and verifies the server with the CA of the kubeconfig', async () => {
    api.clearRequests();
    const pages = await all(
      listWatch(transport(kubeConfig(api, { token: api.token! })), configmaps, { namespace: 'default' }).list(
        {},
      ),
    );
    expect(pages[0]!.items).toHaveLength(1);
    expect(api.requests[0]!.user).toBe('admin');
  });

  it('a wrong token gets the 401 Status as an ApiStatusError', async () => {
    const err = await all(
      listWatch(transport(kubeConfig(api, { token: 'wrong' })), configmaps).list({}),
    ).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiStatusError);
    expect((err as ApiStatusError).statusCode).toBe(401);
  });

  it('verifies the server certificate: without the CA the request fails with a TransportError', async () => {
    const err = await all(
      listWatch(transport(kubeConfig(api, { token: api.token! }, {})), configmaps).list({}),
    ).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TransportError);
    expect(String((err as TransportError).message)).toMatch(/certificate/i);
  });

  it('skips verification only when the kubeconfig says insecure-skip-tls-verify', async () => {
    const pages = await all(
      listWatch(transport(kubeConfig(api, { token: api.token! }, { skipTLSVerify: true })), configmaps, {
        namespace: 'default',
      }).list({}),
    );
    expect(pages[0]!.items).toHaveLength(1);
  });

  it('runs an exec credential plugin, and again on each request once its token expired (token refresh)', async () => {
    const counter = join(dir, 'exec-count');
    writeFileSync(counter, '0');
    const script = join(dir, 'exec.cjs');
    // Counts its runs and hands out the server's token, already expired, so client-node must re-run it.
    writeFileSync(
      script,
      `const fs = require('fs'); const f = ${JSON.stringify(counter)};
       fs.writeFileSync(f, String(Number(fs.readFileSync(f, 'utf8')) + 1));
       process.stdout.write(JSON.stringify({ apiVersion: 'client.authentication.k8s.io/v1', kind: 'ExecCredential',
         status: { token: ${JSON.stringify(api.token)}, expirationTimestamp: '2000-01-01T00:00:00Z' } }));`,
    );
    const kc = kubeConfig(api, {
      exec: {
        apiVersion: 'client.authentication.k8s.io/v1',
        command: process.execPath,
        args: [script],
        interactiveMode: 'Never',
      },
    });
    const lw = listWatch(transport(kc), configmaps, { namespace: 'default' });
    api.clearRequests();
    const runs = (): number => Number(readFileSync(counter, 'utf8'));
    await all(lw.list({}));
    const afterFirst = runs();
    await all(lw.list({}));
    expect(api.requests.map((r) => r.user)).toEqual(['admin', 'admin']);
    expect(afterFirst).toBeGreaterThanOrEqual(1);
    expect(runs()).toBeGreaterThan(afterFirst);
  });
});
