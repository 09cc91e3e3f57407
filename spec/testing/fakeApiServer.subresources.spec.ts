// Subresources the test cluster has no kubelet or network for (pods/log, exec, attach,
// portforward, proxy) and subresources nobody serves, over HTTP: kube's status for each (404,
// 400, 405, 503), never a 500 or a crash; pods/log through client-node.
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { CoreV1Api } from '@kubernetes/client-node';
import { startFakeApiServer, type FakeApiServer } from '../../lib/testing/index.js';
import { raw } from './rawClient.js';

describe('fake API server: subresources it has no kubelet for, and unknown ones', () => {
  let api: FakeApiServer;
  beforeEach(async () => {
    api = await startFakeApiServer();
    api.create('pods', { metadata: { name: 'one', namespace: 'default' }, spec: { containers: [{ name: 'app', image: 'nginx' }] } });
    api.create('pods', { metadata: { name: 'two', namespace: 'default' }, spec: { nodeName: 'node-1', containers: [{ name: 'a', image: 'x' }, { name: 'b', image: 'y' }] } });
  });
  afterEach(() => api.close());
  const path = (pod: string, sub: string) => `/api/v1/namespaces/default/pods/${pod}/${sub}`;

  it('pods/log: empty for a valid container (no kubelet keeps output); kube’s 404 and 400s otherwise', async () => {
    const core = api.kubeConfig().makeApiClient(CoreV1Api);
    expect(await core.readNamespacedPodLog({ name: 'one', namespace: 'default' })).toBe('');
    const missing = await raw(api, path('nope', 'log'));
    expect([missing.status, missing.json.message]).toEqual([404, 'pods "nope" not found']);
    const choose = await raw(api, path('two', 'log'));
    expect([choose.status, choose.json.message]).toEqual([400, 'a container name must be specified for pod two, choose one of: [a b]']);
    const wrong = await raw(api, path('two', 'log'), { query: { container: 'c' } });
    expect([wrong.status, wrong.json.message]).toEqual([400, 'container c is not valid for pod two']);
  });

  it('pods/exec, attach, portforward: kube’s 400s before the kubelet; the missing kubelet said as such', async () => {
    const unscheduled = await raw(api, path('one', 'exec'), { method: 'POST', query: { command: 'ls', container: 'app' } });
    expect([unscheduled.status, unscheduled.json.message]).toEqual([400, 'pod one does not have a host assigned']);
    const plain = await raw(api, path('two', 'exec'), { method: 'POST', query: { command: 'ls', container: 'a' } });
    expect([plain.status, plain.json.message]).toEqual([400, 'Upgrade request required']);
    const attach = await raw(api, path('two', 'attach'), { method: 'POST', query: { container: 'a' }, headers: { Connection: 'Upgrade', Upgrade: 'SPDY/3.1' } });
    expect(attach.status).toBe(400);
    expect(attach.json.message).toBe('error dialing backend: the test cluster has no kubelet on node "node-1" to attach for pod two');
    const forward = await raw(api, path('two', 'portforward'), { method: 'POST' });
    expect([forward.status, forward.json.message]).toEqual([400, 'Upgrade request required']);
  });

  it('pods/proxy is a 503; an unknown subresource a 404; a served one with another method a 405', async () => {
    const proxied = await raw(api, path('one', 'proxy'));
    expect([proxied.status, proxied.json.reason]).toEqual([503, 'ServiceUnavailable']);
    const unknown = await raw(api, path('one', 'frobnicate'));
    expect([unknown.status, unknown.json.message]).toEqual([404, 'the server could not find the requested resource']);
    const method = await raw(api, path('one', 'eviction'), { method: 'DELETE' });
    expect([method.status, method.json.reason]).toEqual([405, 'MethodNotAllowed']);
    const scaleDelete = await raw(api, '/apis/apps/v1/namespaces/default/deployments/x/scale', { method: 'DELETE' });
    expect(scaleDelete.status).toBe(405);
  });

  it('discovery lists the pods’ subresources with their verbs', async () => {
    const doc = await raw(api, '/api/v1');
    const subs = Object.fromEntries((doc.json.resources as Array<{ name: string; verbs: string[] }>).filter((r) => r.name.startsWith('pods/')).map((r) => [r.name, r.verbs]));
    expect(subs).toMatchObject({ 'pods/log': ['get'], 'pods/exec': ['create', 'get'], 'pods/eviction': ['create'], 'pods/status': ['get', 'patch', 'update'] });
  });
});
