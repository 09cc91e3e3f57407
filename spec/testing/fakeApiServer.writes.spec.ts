import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { ApiStatusError } from '../../lib/errors.js';
import { deploymentFixture, startFakeApiServer, type FakeApiServer } from '../../lib/testing/index.js';
import { raw } from './rawClient.js';

const PODS = '/api/v1/namespaces/default/pods';
const pod = (name: string, extra: object = {}) => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: { containers: [{ name: 'c', image: 'nginx' }] }, ...extra });

describe('fake API server: writes (APISERVER.md §5) and errors (§4)', () => {
  let api: FakeApiServer;
  beforeEach(async () => {
    api = await startFakeApiServer({ http: true });
  });
  afterEach(() => api.close());

  it('§5 POST: 201, uid, creationTimestamp (whole seconds), RV, namespace from the URL; generation 1 for workloads', async () => {
    const r = await raw(api, PODS, { method: 'POST', body: pod('a') });
    expect(r.status).toBe(201);
    expect(r.json.metadata).toMatchObject({ name: 'a', namespace: 'default', resourceVersion: api.resourceVersion });
    expect(r.json.metadata.uid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(r.json.metadata.creationTimestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    const d = await raw(api, '/apis/apps/v1/namespaces/default/deployments', { method: 'POST', body: deploymentFixture({ name: 'd' }) });
    expect(d.status).toBe(201);
    expect(d.json).toMatchObject({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { generation: 1 } });
  });

  it('§5 POST generateName: base[:58] + 5 chars of kube\'s alphabet; the same names for the same seed', async () => {
    const base = 'x'.repeat(70);
    const r = await raw(api, PODS, { method: 'POST', body: { metadata: { generateName: base }, spec: pod('').spec } });
    expect(r.json.metadata.name).toMatch(/^x{58}[bcdfghjklmnpqrstvwxz2456789]{5}$/);
    const again = await startFakeApiServer({ http: true });
    try {
      const r2 = await raw(again, PODS, { method: 'POST', body: { metadata: { generateName: base }, spec: pod('').spec } });
      expect(r2.json.metadata.name).toBe(r.json.metadata.name);
      expect(r2.json.metadata.uid).toBe(r.json.metadata.uid);
    } finally {
      await again.close();
    }
  });

  it('§5 POST errors: 409 AlreadyExists, 400 namespace mismatch, 500 RV set, 422 no name', async () => {
    await raw(api, PODS, { method: 'POST', body: pod('a') });
    const dup = await raw(api, PODS, { method: 'POST', body: pod('a') });
    expect(dup.status).toBe(409);
    expect(dup.json).toMatchObject({ kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'AlreadyExists', message: 'pods "a" already exists', details: { name: 'a', kind: 'pods' }, code: 409 });
    const ns = await raw(api, PODS, { method: 'POST', body: { metadata: { name: 'b', namespace: 'other' } } });
    expect(ns.status).toBe(400);
    expect(ns.json.message).toBe('the namespace of the provided object does not match the namespace sent on the request');
    const rv = await raw(api, PODS, { method: 'POST', body: { metadata: { name: 'c', resourceVersion: '5' } } });
    expect(rv.status).toBe(500);
    expect(rv.json.message).toBe('Internal error occurred: resourceVersion should not be set on objects to be created');
    const noName = await raw(api, PODS, { method: 'POST', body: { metadata: {} } });
    expect(noName.status).toBe(422);
    expect(noName.json.reason).toBe('Invalid');
  });

  it('§5 POST into a missing namespace is 404 when autoCreateNamespaces is off', async () => {
    const strict = await startFakeApiServer({ http: true, autoCreateNamespaces: false });
    try {
      const r = await raw(strict, '/api/v1/namespaces/nope/pods', { method: 'POST', body: pod('a') });
      expect(r.status).toBe(404);
      expect(r.json.message).toBe('namespaces "nope" not found');
    } finally {
      await strict.close();
    }
  });

  it('§5 PUT: optimistic concurrency (409 Conflict), kept uid/creationTimestamp, generation bumped on spec change', async () => {
    const d = api.create('deployments.apps', deploymentFixture({ name: 'd' }));
    const path = '/apis/apps/v1/namespaces/default/deployments/d';
    // A uid in the body is a precondition (409 when it is not the object's); a forged creationTimestamp is kept from storage.
    const forged = await raw(api, path, { method: 'PUT', body: { ...d, metadata: { ...d.metadata, uid: 'forged' }, spec: { ...d.spec, replicas: 2 } } });
    expect(forged.status).toBe(409);
    const ok = await raw(api, path, { method: 'PUT', body: { ...d, metadata: { ...d.metadata, creationTimestamp: '2000-01-01T00:00:00Z' }, spec: { ...d.spec, replicas: 2 } } });
    expect(ok.status).toBe(200);
    expect(ok.json.metadata).toMatchObject({ uid: d.metadata.uid, creationTimestamp: (d.metadata as { creationTimestamp: string }).creationTimestamp, generation: 2 });
    const stale = await raw(api, path, { method: 'PUT', body: { ...d, spec: { ...d.spec, replicas: 3 } } });
    expect(stale.status).toBe(409);
    expect(stale.json).toMatchObject({
      reason: 'Conflict',
      message: 'Operation cannot be fulfilled on deployments.apps "d": the object has been modified; please apply your changes to the latest version and try again',
      details: { name: 'd', group: 'apps', kind: 'deployments' },
    });
  });

  it('§5 PUT: empty RV overwrites built-ins, 422 for custom resources; missing object 404', async () => {
    api.create('configmaps', { metadata: { name: 'c', namespace: 'default' }, data: { a: '1' } });
    const ok = await raw(api, '/api/v1/namespaces/default/configmaps/c', { method: 'PUT', body: { metadata: { name: 'c' }, data: { a: '2' } } });
    expect(ok.status).toBe(200);
    api.registerResource({ group: 'example.com', version: 'v1', plural: 'widgets', kind: 'Widget', namespaced: true });
    api.create('widgets.example.com', { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w', namespace: 'default' }, spec: {} });
    const cr = await raw(api, '/apis/example.com/v1/namespaces/default/widgets/w', { method: 'PUT', body: { metadata: { name: 'w' }, spec: { x: 1 } } });
    expect(cr.status).toBe(422);
    expect(cr.json.message).toBe('Widget.example.com "w" is invalid: metadata.resourceVersion: Invalid value: 0x0: must be specified for an update');
    const missing = await raw(api, '/api/v1/namespaces/default/configmaps/zz', { method: 'PUT', body: { metadata: { name: 'zz' } } });
    expect(missing.status).toBe(404);
    expect(missing.json.message).toBe('configmaps "zz" not found');
  });

  it('§5 PUT that changes nothing is a no-op (same RV) whatever it omits or reorders: no resourceVersion, keys in another order, no managedFields', () => {
    const a = api.create('configmaps', { metadata: { name: 'n', namespace: 'default', labels: { x: '1', y: '2' } }, data: { k: 'v', l: 'w' } });
    const rv = a.metadata.resourceVersion;
    const { resourceVersion: _rv, managedFields: _mf, ...meta } = a.metadata as { resourceVersion?: string; managedFields?: unknown; labels?: Record<string, string> };
    const reordered = { data: { l: 'w', k: 'v' }, metadata: { ...meta, labels: { y: '2', x: '1' } } };
    expect(api.update('configmaps', reordered).metadata.resourceVersion).toBe(rv);
    expect(api.resourceVersion).toBe(rv);
    // The same request with one value changed is a write.
    expect(api.update('configmaps', { ...reordered, data: { l: 'changed', k: 'v' } }).metadata.resourceVersion).not.toBe(rv);
  });

  it('§5 PATCH: json-patch, merge-patch (null deletes), strategic merge by name, apply creates (201); 415 otherwise', async () => {
    api.create('pods', { metadata: { name: 'p', namespace: 'default', labels: { a: '1', b: '2' } }, spec: { containers: [{ name: 'c', image: 'v1' }, { name: 'd', image: 'v1' }] } });
    const path = `${PODS}/p`;
    const jp = await raw(api, path, { method: 'PATCH', contentType: 'application/json-patch+json', body: [{ op: 'replace', path: '/metadata/labels/a', value: 'x' }] });
    expect(jp.json.metadata.labels).toEqual({ a: 'x', b: '2' });
    const mp = await raw(api, path, { method: 'PATCH', contentType: 'application/merge-patch+json', body: { metadata: { labels: { b: null } } } });
    expect(mp.json.metadata.labels).toEqual({ a: 'x' });
    const sp = await raw(api, path, { method: 'PATCH', contentType: 'application/strategic-merge-patch+json', body: { spec: { containers: [{ name: 'd', image: 'v2' }], $setElementOrder: [] } } });
    // Merged by name; each container carries kube's defaults (an image without a tag pulls Always).
    const defaulted = { imagePullPolicy: 'Always', terminationMessagePath: '/dev/termination-log', terminationMessagePolicy: 'File' };
    expect(sp.json.spec.containers).toEqual([{ name: 'c', image: 'v1', ...defaulted }, { name: 'd', image: 'v2', ...defaulted }]);
    const apply = await raw(api, `${PODS}/q`, { method: 'PATCH', contentType: 'application/apply-patch+yaml', query: { fieldManager: 'me' }, body: pod('q') });
    expect(apply.status).toBe(201);
    const bad = await raw(api, path, { method: 'PATCH', contentType: 'text/plain', body: '{}' });
    expect(bad.status).toBe(415);
    expect(bad.json.reason).toBe('UnsupportedMediaType');
    // A built-in type takes strategic merge too, and kube says so.
    expect(bad.json.message).toBe(
      'the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/strategic-merge-patch+json, application/apply-patch+yaml',
    );
  });

  it('§4 bodies a real API server refuses: 400 for metadata of the wrong JSON type, 422 for malformed names and labels, 400 for a bad JSON patch op; nothing is stored', async () => {
    const CMS = '/api/v1/namespaces/default/configmaps';
    const post = (metadata: unknown) => raw(api, CMS, { method: 'POST', body: { metadata } });
    const decode = [{ name: 123 }, 'x', { name: 'a', labels: 'x' }, { name: 'a', labels: { k: 1 } }, { name: 'a', annotations: [1] }, { name: 'a', finalizers: 'x' }, { generateName: 5 }];
    for (const metadata of decode) {
      const r = await post(metadata);
      expect([r.status, r.json.reason]).toEqual([400, 'BadRequest']);
      expect(r.json.message).toMatch(/^ConfigMap in version "v1" cannot be handled as a ConfigMap: json: cannot unmarshal \w+ into Go struct field /);
    }
    const upper = await post({ name: 'Web' });
    expect([upper.status, upper.json.reason]).toEqual([422, 'Invalid']);
    expect(upper.json.message).toMatch(/^ConfigMap "Web" is invalid: metadata.name: Invalid value: "Web": a lowercase RFC 1123 subdomain must consist of/);
    expect((await post({ name: 'a/b' })).status).toBe(422);
    expect((await post({ name: 'x'.repeat(254) })).json.message).toContain('must be no more than 253 characters');
    expect((await post({ generateName: 'Web-' })).json.message).toMatch(/metadata.generateName: Invalid value: "Web-"/);
    const labels = await post({ name: 'l', labels: { 'bad key': 'v', ok: 'has space', 'example.com/fine': 'x'.repeat(64) } });
    expect(labels.status).toBe(422);
    expect(labels.json.details.causes.map((c: { field: string }) => c.field)).toEqual(['metadata.labels', 'metadata.labels', 'metadata.labels']);
    const ns = await raw(api, '/api/v1/namespaces', { method: 'POST', body: { metadata: { name: 'a.b' } } });
    expect(ns.status).toBe(422); // a namespace name is an RFC 1123 label: no dots
    expect((await raw(api, CMS, { method: 'GET' })).json.items).toEqual([]);

    api.create('configmaps', { metadata: { name: 'c', namespace: 'default' } });
    const patch = (body: unknown) => raw(api, `${CMS}/c`, { method: 'PATCH', contentType: 'application/json-patch+json', body });
    for (const ops of [[{ op: 'bogus', path: '/data' }], [{ op: 'add', value: 1 }], [{ op: 'move', path: '/data' }], [null]]) {
      expect((await patch(ops)).status).toBe(400);
    }
    expect((await patch([{ op: 'add', path: '/metadata/labels', value: { 'a b': 'c' } }])).status).toBe(422);
    const proto = await raw(api, `${CMS}/c`, { method: 'PATCH', contentType: 'application/merge-patch+json', body: JSON.parse('{"data":{"__proto__":"y"}}') });
    expect(proto.status).toBe(200); // a key like any other, as in Go's map
    expect(JSON.stringify(proto.json.data)).toBe('{"__proto__":"y"}');
    const stored = (await raw(api, `${CMS}/c`, { method: 'GET' })).json;
    expect(stored.metadata.labels).toBeUndefined();
  });

  it('§5 PATCH carrying a different metadata.resourceVersion is 409 (kubectl\'s precondition); strategic merge on a CR is 415', async () => {
    const c = api.create('configmaps', { metadata: { name: 'c', namespace: 'default' } });
    const r = await raw(api, '/api/v1/namespaces/default/configmaps/c', { method: 'PATCH', contentType: 'application/merge-patch+json', body: { metadata: { resourceVersion: '1' }, data: { a: 'b' } } });
    expect(r.status).toBe(409);
    expect(c.metadata.resourceVersion).not.toBe('1');
    api.registerResource({ group: 'example.com', version: 'v1', plural: 'widgets', kind: 'Widget', namespaced: true });
    api.create('widgets.example.com', { metadata: { name: 'w', namespace: 'default' } });
    const smp = await raw(api, '/apis/example.com/v1/namespaces/default/widgets/w', { method: 'PATCH', contentType: 'application/strategic-merge-patch+json', body: {} });
    expect(smp.status).toBe(415);
    expect(smp.json.message).not.toMatch(/strategic/);
  });

  it('§5 DELETE: pods return the object at the delete RV; configmaps a Success Status; preconditions 409', async () => {
    api.create('pods', pod('p', { metadata: { name: 'p', namespace: 'default' } }));
    const del = await raw(api, `${PODS}/p`, { method: 'DELETE', body: { kind: 'DeleteOptions', apiVersion: 'v1', propagationPolicy: 'Background' } });
    expect(del.status).toBe(200);
    expect(del.json.kind).toBe('Pod');
    expect(del.json.metadata.resourceVersion).toBe(api.resourceVersion);
    const c = api.create('configmaps', { metadata: { name: 'c', namespace: 'default' } });
    const pre = await raw(api, '/api/v1/namespaces/default/configmaps/c', { method: 'DELETE', body: { preconditions: { uid: 'other' } } });
    expect(pre.status).toBe(409);
    expect(pre.json.message).toBe(
      `Operation cannot be fulfilled on configmaps "c": StorageError: invalid object, Code: 4, Key: /registry/configmaps/default/c, ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: UID in precondition: other, UID in object meta: ${c.metadata.uid}`,
    );
    const ok = await raw(api, '/api/v1/namespaces/default/configmaps/c', { method: 'DELETE' });
    expect(ok.json).toEqual({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', details: { name: 'c', kind: 'configmaps', uid: c.metadata.uid } });
    const gone = await raw(api, '/api/v1/namespaces/default/configmaps/c', { method: 'DELETE' });
    expect(gone.status).toBe(404);
  });

  it('§5 DELETE with finalizers sets deletionTimestamp (MODIFIED); removing the last finalizer deletes', async () => {
    api.create('configmaps', { metadata: { name: 'f', namespace: 'default', finalizers: ['x/y'] } });
    const marked = api.delete('configmaps', 'default', 'f');
    expect((marked.metadata as { deletionTimestamp?: string }).deletionTimestamp).toBeDefined();
    expect(api.get('configmaps', 'default', 'f')).toBeDefined();
    api.patch('configmaps', 'default', 'f', { metadata: { finalizers: null } });
    expect(api.get('configmaps', 'default', 'f')).toBeUndefined();
  });

  it('§5 deletecollection deletes what the selector matches', async () => {
    api.create('configmaps', { metadata: { name: 'a', namespace: 'default', labels: { x: '1' } } });
    api.create('configmaps', { metadata: { name: 'b', namespace: 'default' } });
    const r = await raw(api, '/api/v1/namespaces/default/configmaps', { method: 'DELETE', query: { labelSelector: 'x=1' } });
    expect(r.status).toBe(200);
    expect(api.list('configmaps', 'default').items.map((i) => (i.metadata as { name: string }).name)).toEqual(['b']);
  });

  it('data-plane helpers throw ApiStatusError with the HTTP Status, and return frozen copies', () => {
    const c = api.create('configmaps', { metadata: { name: 'a', namespace: 'default' } });
    expect(Object.isFrozen(c.metadata)).toBe(true);
    let err: unknown;
    try {
      api.create('configmaps', { metadata: { name: 'a', namespace: 'default' } });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ApiStatusError);
    expect((err as ApiStatusError).statusCode).toBe(409);
    expect((err as ApiStatusError).reason).toBe('AlreadyExists');
  });

  it('data-plane helpers leave the caller\'s object untouched', () => {
    const input = { metadata: { name: 'a', namespace: 'default', labels: { x: '1' } }, data: { k: 'v' } };
    const snapshot = JSON.stringify(input);
    const created = api.create('configmaps', input);
    api.update('configmaps', { ...input, data: { k: 'w' } });
    expect(JSON.stringify(input)).toBe(snapshot);
    expect(Object.isFrozen(input.metadata)).toBe(false);
    expect(created.metadata.labels).toEqual({ x: '1' });
  });

  it('data-plane helpers take a Resource object as well as a plural or plural.group', () => {
    api.create({ group: 'apps', version: 'v1', plural: 'deployments', namespaced: true }, deploymentFixture({ name: 'd' }));
    expect(api.list('deployments.apps').items).toHaveLength(1);
  });
});
