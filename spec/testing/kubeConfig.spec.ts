// api.kubeConfigText / kubeConfig with both a token and a client certificate: the kubeconfig keeps
// both (a kubeconfig user may hold both; client-go and kubectl send both), and the server, as
// kube-apiserver's authenticator chain does, authenticates the certificate first.
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { CoreV1Api } from '@kubernetes/client-node';
import { startFakeApiServer, type FakeApiServer } from '../../lib/testing/index.js';

describe('the fake API server’s kubeconfigs', () => {
  let api: FakeApiServer;
  beforeEach(async () => {
    api = await startFakeApiServer({ tokens: [{ token: 'admin-t', user: 'admin' }] });
  });
  afterEach(() => api.close());

  const userOfLastRequest = async (kc: ReturnType<FakeApiServer['kubeConfig']>): Promise<string | undefined> => {
    api.clearRequests();
    await kc.makeApiClient(CoreV1Api).listNamespace();
    return api.requests.at(-1)?.user;
  };

  it('keeps both a token and a client certificate when given both', () => {
    const cert = api.issueClientCertificate('alice', ['devs']);
    const user = JSON.parse(api.kubeConfigText({ token: 'admin-t', clientCertificate: cert })).users[0].user;
    expect(user).toEqual({
      token: 'admin-t',
      'client-certificate-data': Buffer.from(cert.cert).toString('base64'),
      'client-key-data': Buffer.from(cert.key).toString('base64'),
    });
  });

  it('authenticates the certificate first, as kube-apiserver does; either alone authenticates as its user', async () => {
    const cert = api.issueClientCertificate('alice', ['devs']);
    expect(await userOfLastRequest(api.kubeConfig({ token: 'admin-t', clientCertificate: cert }))).toBe('alice');
    expect(await userOfLastRequest(api.kubeConfig({ clientCertificate: cert }))).toBe('alice');
    expect(await userOfLastRequest(api.kubeConfig({ token: 'admin-t' }))).toBe('admin');
  });
});
