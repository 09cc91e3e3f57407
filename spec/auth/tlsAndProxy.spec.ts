// The cluster and user fields of a kubeconfig besides the credential itself, through the real
// client-node stack: certificate-authority as a file and inline, insecure-skip-tls-verify,
// tls-server-name, impersonation (as, and the as-groups client-node drops), and proxy-url through
// a loopback HTTP CONNECT proxy. No token shows in any error or request log entry.
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import type { KubeConfig } from '@kubernetes/client-node';
import { createServer, type Server } from 'node:http';
import { connect, type Socket } from 'node:net';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { firstValueFrom, toArray } from 'rxjs';
import { builtInResources } from '../../lib/factory/builtInResources.js';
import { listWatch } from '../../lib/listwatch/createListWatch.js';
import { startFakeApiServer, type FakeApiServer } from '../../lib/testing/index.js';
import { clientNodeTransport, type ClientNodeTransport, type ClientNodeTransportOptions } from '../../lib/transport/clientNode.js';
import { TransportError } from '../../lib/transport/transportError.js';
import { expectNoCredentials, kubeConfigFor, type ConfigMap } from './support.js';

const TOKEN = 'tls-secret-token';

/** A loopback HTTP CONNECT proxy that records each tunnel's target. */
async function startConnectProxy(): Promise<{ url: string; targets: string[]; close(): Promise<void> }> {
  const targets: string[] = [];
  const sockets = new Set<Socket>();
  const track = (s: Socket): void => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
    s.on('error', () => s.destroy());
  };
  const server: Server = createServer((_, res) => res.writeHead(405).end());
  server.on('connect', (req, client: Socket, head: Buffer) => {
    track(client);
    targets.push(req.url ?? '');
    const [host, port] = (req.url ?? '').split(':');
    if (host !== '127.0.0.1') {
      client.end('HTTP/1.1 403 Forbidden\r\n\r\n'); // loopback only
      return;
    }
    const upstream = connect(Number(port), host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    track(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    targets,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

describe('CA, TLS server name, insecure-skip-tls-verify, impersonation and proxy-url through client-node', () => {
  let api: FakeApiServer;
  let other: FakeApiServer;
  let dir: string;
  const transports: ClientNodeTransport[] = [];
  const errors: unknown[] = [];

  /** One list of ConfigMaps in `default` through a fresh transport; the error if it fails. */
  const list = async (kc: KubeConfig, options?: ClientNodeTransportOptions): Promise<ReadonlyArray<ConfigMap> | Error> => {
    const transport = clientNodeTransport(kc, options);
    transports.push(transport);
    try {
      const pages = await firstValueFrom(listWatch<ConfigMap>(transport, builtInResources.configMaps, { namespace: 'default' }).list({}).pipe(toArray()));
      return pages.flatMap((p) => p.items);
    } catch (e) {
      errors.push(e);
      return e as Error;
    }
  };
  const caData = (server: FakeApiServer) => ({ 'certificate-authority-data': Buffer.from(server.caCert!).toString('base64') });

  beforeAll(async () => {
    api = await startFakeApiServer({ tokens: [{ token: TOKEN, user: 'admin' }] });
    other = await startFakeApiServer();
    api.create('configmaps', { metadata: { name: 'one', namespace: 'default' } });
    dir = mkdtempSync(join(tmpdir(), 'rxkube-tls-'));
  });
  afterEach(() => {
    for (const t of transports.splice(0)) t.destroy();
  });
  afterAll(async () => {
    expectNoCredentials([TOKEN], errors, api.requests);
    await api.close();
    await other.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('certificate-authority as a file and inline verify the server; another CA fails with a TransportError about the certificate', async () => {
    writeFileSync(join(dir, 'ca.crt'), api.caCert!);
    expect(await list(kubeConfigFor(api, { token: TOKEN }, { 'certificate-authority': join(dir, 'ca.crt') }))).toHaveLength(1);
    expect(await list(kubeConfigFor(api, { token: TOKEN }, caData(api)))).toHaveLength(1);
    const wrong = await list(kubeConfigFor(api, { token: TOKEN }, caData(other)));
    expect(wrong).toBeInstanceOf(TransportError);
    expect((wrong as TransportError).message).toMatch(/certificate/i);
  });

  it('insecure-skip-tls-verify: true connects without any CA', async () => {
    expect(await list(kubeConfigFor(api, { token: TOKEN }, { 'insecure-skip-tls-verify': true }))).toHaveLength(1);
    expect(await list(kubeConfigFor(api, { token: TOKEN }, {}))).toBeInstanceOf(TransportError);
  });

  it('tls-server-name: the certificate is checked against that name, not the address', async () => {
    // The fake server's certificate names kubernetes.default.svc (as kube-apiserver's does), not the other name.
    expect(await list(kubeConfigFor(api, { token: TOKEN }, { ...caData(api), 'tls-server-name': 'kubernetes.default.svc' }))).toHaveLength(1);
    const mismatch = await list(kubeConfigFor(api, { token: TOKEN }, { ...caData(api), 'tls-server-name': 'not-the-apiserver.example' }));
    expect(mismatch).toBeInstanceOf(TransportError);
    expect((mismatch as TransportError).message).toMatch(/not-the-apiserver\.example/);
  });

  it('as: Impersonate-User reaches the server; the request acts as that user and the log names the impersonator', async () => {
    api.clearRequests();
    expect(await list(kubeConfigFor(api, { token: TOKEN, as: 'bob' }))).toHaveLength(1);
    expect(api.requests[0]).toMatchObject({ user: 'bob', groups: [], impersonator: 'admin' });
  });

  it('as-groups: client-node drops it when it loads the kubeconfig; the transport option `impersonate.groups` sends it', async () => {
    api.clearRequests();
    const kc = kubeConfigFor(api, { token: TOKEN, as: 'bob', 'as-groups': ['viewers'] });
    expect(await list(kc)).toHaveLength(1);
    expect(api.requests[0]).toMatchObject({ user: 'bob', groups: [] });
    expect(await list(kc, { impersonate: { groups: ['viewers', 'ops'] } })).toHaveLength(1);
    expect(api.requests[1]).toMatchObject({ user: 'bob', groups: ['viewers', 'ops'], impersonator: 'admin' });
  });

  it('proxy-url: requests tunnel through the HTTP CONNECT proxy, and TLS is still verified end to end', async () => {
    const proxy = await startConnectProxy();
    try {
      api.clearRequests();
      expect(await list(kubeConfigFor(api, { token: TOKEN }, { ...caData(api), 'proxy-url': proxy.url }))).toHaveLength(1);
      expect(proxy.targets).toContain(`127.0.0.1:${api.port}`);
      expect(api.requests[0]).toMatchObject({ user: 'admin', verb: 'list' });
      const wrongCa = await list(kubeConfigFor(api, { token: TOKEN }, { ...caData(other), 'proxy-url': proxy.url }));
      expect(wrongCa).toBeInstanceOf(TransportError);
    } finally {
      await proxy.close();
    }
  });
});
