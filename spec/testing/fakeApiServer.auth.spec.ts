import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { X509Certificate } from 'node:crypto';
import { DEFAULT_TOKEN, startFakeApiServer, type FakeApiServer } from '../../lib/testing/index.js';
import { raw } from './rawClient.js';

describe('fake API server: HTTPS, authentication, authorization, discovery (APISERVER.md §1, §4)', () => {
  let api: FakeApiServer;
  beforeEach(async () => {
    api = await startFakeApiServer({ namespaces: ['ns'],
      tokens: [
        { token: 'admin-t', user: 'admin' },
        { token: 'reader-t', user: 'reader', deny: [{ verb: ['create', 'update', 'patch', 'delete'] }, { verb: 'list', resource: 'secrets' }] },
      ],
    });
  });
  afterEach(() => api.close());

  it('HTTPS by default with a generated CA: the server certificate is signed by it and valid for 127.0.0.1', async () => {
    expect(api.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    const ca = new X509Certificate(api.caCert!);
    expect(ca.ca).toBe(true);
    const kc = JSON.parse(api.kubeConfigText());
    expect(Buffer.from(kc.clusters[0].cluster['certificate-authority-data'], 'base64').toString()).toBe(api.caCert);
    const r = await raw(api, '/api/v1/namespaces', { token: 'admin-t' });
    expect(r.status).toBe(200);
  });

  it('§4 401 Unauthorized without a token or with an unknown one', async () => {
    for (const token of [null, 'wrong']) {
      const r = await raw(api, '/api/v1/pods', { token });
      expect(r.status).toBe(401);
      expect(r.json).toEqual({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'Unauthorized', reason: 'Unauthorized', code: 401 });
    }
  });

  it('§4 403 with kube\'s wording for a denied verb/resource, namespaced and cluster-scoped', async () => {
    const create = await raw(api, '/api/v1/namespaces/ns/pods', { token: 'reader-t', method: 'POST', body: { metadata: { name: 'a' } } });
    expect(create.status).toBe(403);
    expect(create.json.message).toBe('pods is forbidden: User "reader" cannot create resource "pods" in API group "" in the namespace "ns"');
    const list = await raw(api, '/api/v1/secrets', { token: 'reader-t' });
    expect(list.json.message).toBe('secrets is forbidden: User "reader" cannot list resource "secrets" in API group "" at the cluster scope');
    const del = await raw(api, '/apis/apps/v1/namespaces/ns/deployments/d', { token: 'reader-t', method: 'DELETE' });
    expect(del.json).toMatchObject({ reason: 'Forbidden', code: 403, details: { name: 'd', group: 'apps', kind: 'deployments' } });
    expect(del.json.message).toBe('deployments.apps "d" is forbidden: User "reader" cannot delete resource "deployments" in API group "apps" in the namespace "ns"');
    const allowed = await raw(api, '/api/v1/pods', { token: 'reader-t' });
    expect(allowed.status).toBe(200);
  });

  it('the default token is in the default kubeconfig; tokens: false turns auth off (the default over HTTP)', async () => {
    const d = await startFakeApiServer({ namespaces: ['ns'] });
    const off = await startFakeApiServer({ namespaces: ['ns'], http: true });
    try {
      expect(d.token).toBe(DEFAULT_TOKEN);
      expect(JSON.parse(d.kubeConfigText()).users[0].user.token).toBe(DEFAULT_TOKEN);
      expect((await raw(off, '/api/v1/pods', { token: null })).status).toBe(200);
    } finally {
      await d.close();
      await off.close();
    }
  });

  it('§1 discovery: /api, /apis, /api/v1, /apis/apps/v1, /version, custom resources registered at run time', async () => {
    const get = async (p: string) => (await raw(api, p, { token: 'admin-t' })).json;
    expect(await get('/api')).toMatchObject({ kind: 'APIVersions', versions: ['v1'] });
    const v1 = await get('/api/v1');
    const pods = v1.resources.find((r: { name: string }) => r.name === 'pods');
    expect(pods).toEqual({ name: 'pods', singularName: 'pod', namespaced: true, kind: 'Pod', shortNames: ['po'], categories: ['all'], verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'] });
    for (const r of ['configmaps', 'secrets', 'namespaces', 'nodes', 'services']) expect(v1.resources.map((x: { name: string }) => x.name)).toContain(r);
    const apps = await get('/apis/apps/v1');
    expect(apps.resources.map((x: { name: string }) => x.name)).toEqual(expect.arrayContaining(['deployments', 'replicasets']));
    expect((await get('/version')).major).toBe('1');
    api.registerResource({ group: 'example.com', version: 'v1alpha1', plural: 'gadgets', kind: 'Gadget', namespaced: false });
    const groups = await get('/apis');
    // Every group client-node's models know (registry/builtInTypes.generated.ts), and the custom one.
    expect(groups.groups.map((g: { name: string }) => g.name)).toEqual([
      'admissionregistration.k8s.io', 'apiextensions.k8s.io', 'apiregistration.k8s.io', 'apps', 'autoscaling', 'batch', 'certificates.k8s.io',
      'coordination.k8s.io', 'discovery.k8s.io', 'events.k8s.io', 'example.com', 'flowcontrol.apiserver.k8s.io', 'internal.apiserver.k8s.io',
      'networking.k8s.io', 'node.k8s.io', 'policy', 'rbac.authorization.k8s.io', 'resource.k8s.io', 'scheduling.k8s.io', 'storage.k8s.io',
      'storagemigration.k8s.io',
    ]);
    const coordination = await get('/apis/coordination.k8s.io/v1');
    expect(coordination.resources[0]).toMatchObject({ name: 'leases', kind: 'Lease', namespaced: true, singularName: 'lease' });
    const ex = await get('/apis/example.com/v1alpha1');
    expect(ex.resources[0]).toMatchObject({ name: 'gadgets', kind: 'Gadget', namespaced: false, singularName: 'gadget' });
  });

  it('§1 unknown paths are a plain-text 404 page; unknown resources in a known group a 404 Status', async () => {
    const page = await raw(api, '/nope', { token: 'admin-t' });
    expect(page.status).toBe(404);
    expect(page.text).toBe('404 page not found\n');
    const res = await raw(api, '/api/v1/nothings', { token: 'admin-t' });
    expect(res.status).toBe(404);
    expect(res.json.kind).toBe('Status');
  });

  it('requests are logged with verb, resource, namespace, name and query', async () => {
    await raw(api, '/api/v1/namespaces/ns/pods', { token: 'admin-t', query: { limit: '500', resourceVersion: '0' } });
    expect(api.requests.filter((r) => r.verb === 'list')).toEqual([
      { method: 'GET', path: '/api/v1/namespaces/ns/pods', query: { limit: '500', resourceVersion: '0' }, verb: 'list', resource: 'pods', namespace: 'ns', name: undefined, contentType: undefined, user: 'admin', groups: [], authenticatedBy: 'token' },
    ]);
    api.clearRequests();
    expect(api.requests).toEqual([]);
  });
});
