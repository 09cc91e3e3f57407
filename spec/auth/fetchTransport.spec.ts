// What the fetch transport (browsers, through a proxy) can and cannot do for authentication:
// bearer tokens and impersonation as headers, renewed by a headers function; no kubeconfig at all
// (a typed error says so); no 401 retry of its own (the 401 surfaces, typed).
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { firstValueFrom, toArray } from 'rxjs';
import { ApiStatusError } from '../../lib/errors.js';
import { builtInResources } from '../../lib/factory/builtInResources.js';
import { listWatch } from '../../lib/listwatch/createListWatch.js';
import { startFakeApiServer, type FakeApiServer } from '../../lib/testing/index.js';
import { fetchTransport, FetchTransportUnsupportedError } from '../../lib/transport/fetchTransport.js';
import type { Transport } from '../../lib/transport/transport.js';
import { expectNoCredentials, type ConfigMap } from './support.js';

describe('fetchTransport and authentication', () => {
  let api: FakeApiServer;
  const seen: unknown[] = [];
  const list = async (transport: Transport): Promise<number | unknown> => {
    try {
      const pages = await firstValueFrom(listWatch<ConfigMap>(transport, builtInResources.configMaps, { namespace: 'default' }).list({}).pipe(toArray()));
      return pages.flatMap((p) => p.items).length;
    } catch (e) {
      seen.push(e);
      return e;
    }
  };

  beforeAll(async () => {
    // Plain HTTP: Node's fetch, as a browser's, trusts only the system's CAs; the proxy is the one authenticating.
    api = await startFakeApiServer({ http: true, tokens: [{ token: 'fetch-secret-1', user: 'web-1' }] });
    api.create('configmaps', { metadata: { name: 'one', namespace: 'default' } });
  });
  afterAll(async () => {
    expectNoCredentials(['fetch-secret-1', 'fetch-secret-2'], seen, api.requests);
    await api.close();
  });

  it('a kubeconfig (or no baseUrl) is refused at once with an error that lists what fetch cannot do', async () => {
    const { KubeConfig } = await import('@kubernetes/client-node');
    const kc = api.kubeConfig();
    expect(kc).toBeInstanceOf(KubeConfig);
    expect(() => fetchTransport(kc as never)).toThrow(FetchTransportUnsupportedError);
    expect(() => fetchTransport({} as never)).toThrow(
      /not a kubeconfig: fetch cannot use client certificates, exec plugins, token files, a CA, tls-server-name, insecure-skip-tls-verify or proxy-url/,
    );
  });

  it('a headers function renews the token: the app rotates it, the next request carries the new one', async () => {
    let token = 'fetch-secret-1';
    const transport = fetchTransport({ baseUrl: api.url, headers: () => ({ Authorization: `Bearer ${token}` }) });
    api.clearRequests();
    expect(await list(transport)).toBe(1);
    api.addToken({ token: 'fetch-secret-2', user: 'web-2' });
    token = 'fetch-secret-2';
    api.revokeToken('fetch-secret-1');
    expect(await list(transport)).toBe(1);
    expect(api.requests.map((q) => q.user)).toEqual(['web-1', 'web-2']);
  });

  it('no retry of its own: a refused token is a 401 ApiStatusError, sent once', async () => {
    api.clearRequests();
    const e = await list(fetchTransport({ baseUrl: api.url, headers: { Authorization: 'Bearer fetch-secret-1' } }));
    expect(e).toBeInstanceOf(ApiStatusError);
    expect((e as ApiStatusError).statusCode).toBe(401);
    expect(api.requests.filter((q) => q.unauthorized)).toHaveLength(1);
  });

  it('impersonation as headers reaches the server', async () => {
    api.clearRequests();
    const transport = fetchTransport({
      baseUrl: api.url,
      headers: { Authorization: 'Bearer fetch-secret-2', 'Impersonate-User': 'bob', 'Impersonate-Group': 'viewers' },
    });
    expect(await list(transport)).toBe(1);
    expect(api.requests[0]).toMatchObject({ user: 'bob', groups: ['viewers'], impersonator: 'web-2' });
  });
});
