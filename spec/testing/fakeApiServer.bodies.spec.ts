import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { startFakeApiServer, type FakeApiServer } from '../../lib/testing/index.js';
import { raw } from './rawClient.js';

const CMS = '/api/v1/namespaces/default/configmaps';

describe('fake API server: what a write body may be (kind, apiVersion, YAML, dryRun)', () => {
  let api: FakeApiServer;
  beforeEach(async () => {
    api = await startFakeApiServer({ http: true });
  });
  afterEach(() => api.close());

  it('a body of another kind or apiVersion than the resource is a 400, and nothing is stored (it was stored as sent)', async () => {
    const rv = api.resourceVersion;
    const secret = await raw(api, CMS, { method: 'POST', body: { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'wk' } } });
    expect(secret.status).toBe(400);
    expect(secret.json.message).toMatch(/^Secret in version "v1" cannot be handled as a ConfigMap/);
    const apps = await raw(api, CMS, { method: 'POST', body: { apiVersion: 'apps/v1', kind: 'ConfigMap', metadata: { name: 'wk' } } });
    expect(apps.status).toBe(400);
    expect(apps.json.message).toMatch(/API version in the data \(apps\/v1\) does not match the expected API version \(v1\)/);
    await raw(api, CMS, { method: 'POST', body: { metadata: { name: 'ok' } } });
    const put = await raw(api, `${CMS}/ok`, { method: 'PUT', body: { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'ok' } } });
    expect(put.status).toBe(400);
    expect((await raw(api, `${CMS}/wk`)).status).toBe(404);
    expect(Number(api.resourceVersion)).toBe(Number(rv) + 1); // only "ok" was written
  });

  it('server-side apply with a YAML body (the format it declares) creates, then another manager merges; a YAML POST is read too', async () => {
    const yaml = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ap1\ndata:\n  a: "1"\n';
    const created = await raw(api, `${CMS}/ap1`, { method: 'PATCH', query: { fieldManager: 'me' }, body: yaml, contentType: 'application/apply-patch+yaml' });
    expect(created.status).toBe(201);
    expect(created.json.data).toEqual({ a: '1' });
    // Another manager's apply merges (the same manager's would drop the "a" it no longer applies).
    const merged = await raw(api, `${CMS}/ap1`, { method: 'PATCH', query: { fieldManager: 'other' }, body: 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ap1\ndata:\n  b: "2"\n', contentType: 'application/apply-patch+yaml' });
    expect(merged.status).toBe(200);
    expect(merged.json.data).toEqual({ a: '1', b: '2' });
    const posted = await raw(api, CMS, { method: 'POST', body: 'metadata:\n  name: y\n', contentType: 'application/yaml' });
    expect(posted.status).toBe(201);
    const bad = await raw(api, CMS, { method: 'POST', body: 'metadata: [\n', contentType: 'application/yaml' });
    expect(bad.status).toBe(400);
    expect(bad.json.message).toMatch(/yaml parse error/);
  });

  it('dryRun=All answers as the write would and changes nothing (fakeApiServer.dryRun.spec.ts has every verb)', async () => {
    await raw(api, CMS, { method: 'POST', body: { metadata: { name: 'keep' } } });
    const rv = api.resourceVersion;
    const del = await raw(api, `${CMS}/keep`, { method: 'DELETE', query: { dryRun: 'All' } });
    expect(del.status).toBe(200);
    const post = await raw(api, CMS, { method: 'POST', query: { dryRun: 'All' }, body: { metadata: { name: 'dry' } } });
    expect(post.status).toBe(201);
    expect(post.json.metadata.resourceVersion).toBeUndefined();
    expect((await raw(api, `${CMS}/keep`)).status).toBe(200);
    expect((await raw(api, `${CMS}/dry`)).status).toBe(404);
    expect(api.resourceVersion).toBe(rv);
  });
});
