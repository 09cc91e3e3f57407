import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { podFixture, startFakeApiServer, type FakeApiServer } from '../../lib/testing/index.js';
import { raw } from './rawClient.js';

const cm = (name: string, ns = 'default', labels: Record<string, string> = {}) => ({ metadata: { name, namespace: ns, labels }, data: { k: name } });

describe('fake API server: LIST (APISERVER.md §2)', () => {
  let api: FakeApiServer;
  beforeEach(async () => {
    api = await startFakeApiServer({ namespaces: ['ns1', 'ns2'], http: true, historyLimit: 50, tooLargeResourceVersionWaitMs: 50 });
  });
  afterEach(() => api.close());

  it('§2 list RV is the global revision at snapshot time, not the max item RV; items never null', async () => {
    api.create('configmaps', cm('a'));
    api.create('pods', podFixture({ name: 'p' }));
    const r = await raw(api, '/api/v1/namespaces/default/configmaps');
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toBe('application/json');
    expect(r.json.kind).toBe('ConfigMapList');
    expect(r.json.apiVersion).toBe('v1');
    expect(r.json.metadata.resourceVersion).toBe(api.resourceVersion);
    expect(Number(r.json.items[0].metadata.resourceVersion)).toBeLessThan(Number(api.resourceVersion));
    const empty = await raw(api, '/api/v1/namespaces/nowhere/configmaps');
    expect(empty.status).toBe(200);
    expect(empty.json.items).toEqual([]);
  });

  it('§2 one counter for all types: every write of any type bumps it by one', () => {
    const rv0 = Number(api.resourceVersion);
    const a = api.create('configmaps', cm('a'));
    const s = api.create('secrets', { metadata: { name: 's', namespace: 'default' } });
    expect([a, s].map((o) => Number(o.metadata.resourceVersion))).toEqual([rv0 + 1, rv0 + 2]);
  });

  it('§2 scope: a namespace path sees one namespace, the cluster path sees all', async () => {
    api.create('configmaps', cm('a', 'ns1'));
    api.create('configmaps', cm('b', 'ns2'));
    const one = await raw(api, '/api/v1/namespaces/ns1/configmaps');
    const all = await raw(api, '/api/v1/configmaps');
    expect(one.json.items.map((i: { metadata: { name: string } }) => i.metadata.name)).toEqual(['a']);
    expect(all.json.items.map((i: { metadata: { name: string } }) => i.metadata.name)).toEqual(['a', 'b']);
  });

  it('§2 paging: limit, continue only when more remain, remainingItemCount, same RV on every page', async () => {
    for (const n of ['a', 'b', 'c', 'd', 'e']) api.create('configmaps', cm(n));
    const p1 = await raw(api, '/api/v1/namespaces/default/configmaps', { query: { limit: '2' } });
    expect(p1.json.items.map((i: { metadata: { name: string } }) => i.metadata.name)).toEqual(['a', 'b']);
    expect(p1.json.metadata.remainingItemCount).toBe(3);
    api.create('configmaps', cm('aa')); // after the snapshot: not in later pages
    api.delete('configmaps', 'default', 'd'); // deleted after the snapshot: still in later pages
    const p2 = await raw(api, '/api/v1/namespaces/default/configmaps', { query: { limit: '2', continue: p1.json.metadata.continue } });
    expect(p2.json.items.map((i: { metadata: { name: string } }) => i.metadata.name)).toEqual(['c', 'd']);
    expect(p2.json.metadata.resourceVersion).toBe(p1.json.metadata.resourceVersion);
    expect(p2.json.metadata.remainingItemCount).toBe(1);
    const p3 = await raw(api, '/api/v1/namespaces/default/configmaps', { query: { limit: '2', continue: p2.json.metadata.continue } });
    expect(p3.json.items.map((i: { metadata: { name: string } }) => i.metadata.name)).toEqual(['e']);
    expect(p3.json.metadata.continue).toBeUndefined();
    expect(p3.json.metadata.remainingItemCount).toBeUndefined();
  });

  it('§2 remainingItemCount is left out when a selector is set', async () => {
    for (const n of ['a', 'b', 'c']) api.create('configmaps', cm(n, 'default', { app: 'x' }));
    const p = await raw(api, '/api/v1/namespaces/default/configmaps', { query: { limit: '1', labelSelector: 'app=x' } });
    expect(p.json.metadata.continue).toBeTruthy();
    expect(p.json.metadata.remainingItemCount).toBeUndefined();
  });

  it('§2 RV=N with a limit is an exact list at N; without a limit it is not older than N (current)', async () => {
    api.create('configmaps', cm('a'));
    const rvA = api.resourceVersion;
    api.create('configmaps', cm('b'));
    const exact = await raw(api, '/api/v1/namespaces/default/configmaps', { query: { resourceVersion: rvA, limit: '10' } });
    expect(exact.json.metadata.resourceVersion).toBe(rvA);
    expect(exact.json.items.map((i: { metadata: { name: string } }) => i.metadata.name)).toEqual(['a']);
    const exact2 = await raw(api, '/api/v1/namespaces/default/configmaps', { query: { resourceVersion: rvA, resourceVersionMatch: 'Exact' } });
    expect(exact2.json.items).toHaveLength(1);
    const notOlder = await raw(api, '/api/v1/namespaces/default/configmaps', { query: { resourceVersion: rvA } });
    expect(notOlder.json.metadata.resourceVersion).toBe(api.resourceVersion);
    expect(notOlder.json.items).toHaveLength(2);
  });

  it('§2 an exact list at a past RV rolls back later updates and deletes', async () => {
    api.create('configmaps', cm('a'));
    const rv = api.resourceVersion;
    api.patch('configmaps', 'default', 'a', { data: { k: 'changed' } });
    api.delete('configmaps', 'default', 'a');
    const r = await raw(api, '/api/v1/namespaces/default/configmaps', { query: { resourceVersion: rv, resourceVersionMatch: 'Exact' } });
    expect(r.json.items.map((i: { data: { k: string } }) => i.data.k)).toEqual(['a']);
  });

  it('§2 compacted exact RV: 410 Expired; expired continue token: 410 Expired', async () => {
    api.create('configmaps', cm('a'));
    api.create('configmaps', cm('b'));
    const rv = api.resourceVersion;
    const p1 = await raw(api, '/api/v1/namespaces/default/configmaps', { query: { limit: '1' } });
    api.create('configmaps', cm('c'));
    api.faults.compact();
    const exact = await raw(api, '/api/v1/namespaces/default/configmaps', { query: { resourceVersion: rv, resourceVersionMatch: 'Exact' } });
    expect(exact.status).toBe(410);
    expect(exact.json).toMatchObject({ kind: 'Status', reason: 'Expired', code: 410, message: 'The resourceVersion for the provided list is too old.' });
    const cont = await raw(api, '/api/v1/namespaces/default/configmaps', { query: { limit: '1', continue: p1.json.metadata.continue } });
    expect(cont.status).toBe(410);
    expect(cont.json.reason).toBe('Expired');
    expect(cont.json.message).toMatch(/^The provided continue parameter is too old/);
  });

  it('§2 history is bounded: a list older than historyLimit changes is 410', async () => {
    api.create('configmaps', cm('a'));
    const rv = api.resourceVersion;
    for (let i = 0; i < 60; i++) api.patch('configmaps', 'default', 'a', { data: { k: String(i) } });
    const r = await raw(api, '/api/v1/namespaces/default/configmaps', { query: { resourceVersion: rv, resourceVersionMatch: 'Exact' } });
    expect(r.status).toBe(410);
  });

  it('§2 the 422s of resourceVersionMatch and sendInitialEvents on a list', async () => {
    const path = '/api/v1/namespaces/default/configmaps';
    const cases: Array<[Record<string, string>, string]> = [
      [{ resourceVersionMatch: 'NotOlderThan' }, 'resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided'],
      [{ resourceVersionMatch: 'Exact', resourceVersion: '0' }, 'resourceVersionMatch: Forbidden: resourceVersionMatch "exact" is forbidden for resourceVersion "0"'],
      [{ resourceVersionMatch: 'Bogus', resourceVersion: '1' }, 'resourceVersionMatch: Unsupported value: "Bogus"'],
      [{ sendInitialEvents: 'true' }, 'sendInitialEvents: Forbidden: sendInitialEvents is forbidden for list'],
    ];
    for (const [query, msg] of cases) {
      const r = await raw(api, path, { query });
      expect(r.status).toBe(422);
      expect(r.json.reason).toBe('Invalid');
      expect(r.json.details).toMatchObject({ group: 'meta.k8s.io', kind: 'ListOptions' });
      expect(r.json.message).toContain(msg);
    }
    const withContinue = await raw(api, path, { query: { limit: '1', continue: 'x', resourceVersion: '5' } });
    expect(withContinue.status).toBe(400);
    expect(withContinue.json.message).toBe('specifying resource version is not allowed when using continue');
  });

  it('§2 a malformed continue token is 400 invalid continue token', async () => {
    const r = await raw(api, '/api/v1/namespaces/default/configmaps', { query: { limit: '1', continue: 'not-a-token' } });
    expect(r.status).toBe(400);
    expect(r.json.message).toMatch(/^invalid continue token/);
  });

  it('§2 a future RV waits, then 504 Timeout with ResourceVersionTooLarge and Retry-After: 1', async () => {
    const future = String(Number(api.resourceVersion) + 100);
    const r = await raw(api, '/api/v1/namespaces/default/configmaps', { query: { resourceVersion: future, resourceVersionMatch: 'NotOlderThan' } });
    expect(r.status).toBe(504);
    expect(r.headers['retry-after']).toBe('1');
    expect(r.json).toMatchObject({ reason: 'Timeout', details: { causes: [{ reason: 'ResourceVersionTooLarge' }], retryAfterSeconds: 1 } });
    expect(r.json.message).toBe(`Timeout: Too large resource version: ${future}, current: ${api.resourceVersion}`);
  });

  it('§2 a future RV reached while waiting is served', async () => {
    const slow = await startFakeApiServer({ namespaces: ['ns1'], http: true, tooLargeResourceVersionWaitMs: 5000 });
    try {
      const next = String(Number(slow.resourceVersion) + 1);
      const pending = raw(slow, '/api/v1/namespaces/default/configmaps', { query: { resourceVersion: next } });
      await new Promise((r) => setImmediate(r));
      slow.create('configmaps', cm('late'));
      const r = await pending;
      expect(r.status).toBe(200);
      expect(r.json.metadata.resourceVersion).toBe(next);
    } finally {
      await slow.close();
    }
  });

  it('§2 label selectors (=, !=, in, notin, exists, !exists) and field selectors', async () => {
    api.create('configmaps', cm('a', 'default', { app: 'web', tier: 'fe' }));
    api.create('configmaps', cm('b', 'default', { app: 'web' }));
    api.create('configmaps', cm('c', 'default', { app: 'db' }));
    const sel = async (q: Record<string, string>) =>
      (await raw(api, '/api/v1/namespaces/default/configmaps', { query: q })).json.items.map((i: { metadata: { name: string } }) => i.metadata.name);
    expect(await sel({ labelSelector: 'app=web' })).toEqual(['a', 'b']);
    expect(await sel({ labelSelector: 'app!=web' })).toEqual(['c']);
    expect(await sel({ labelSelector: 'app in (db,x)' })).toEqual(['c']);
    expect(await sel({ labelSelector: 'app notin (db)' })).toEqual(['a', 'b']);
    expect(await sel({ labelSelector: 'tier' })).toEqual(['a']);
    expect(await sel({ labelSelector: '!tier,app==web' })).toEqual(['b']);
    expect(await sel({ fieldSelector: 'metadata.name=b' })).toEqual(['b']);
    expect(await sel({ fieldSelector: 'metadata.name!=b,metadata.namespace=default' })).toEqual(['a', 'c']);
  });

  it('§2 pod field selectors spec.nodeName and status.phase', async () => {
    api.create('pods', podFixture({ name: 'a', nodeName: 'n1', phase: 'Running' }), { withStatus: true });
    api.create('pods', podFixture({ name: 'b', phase: 'Pending' }), { withStatus: true });
    const q = async (fs: string) => (await raw(api, '/api/v1/pods', { query: { fieldSelector: fs } })).json.items.map((i: { metadata: { name: string } }) => i.metadata.name);
    expect(await q('spec.nodeName=n1')).toEqual(['a']);
    expect(await q('spec.nodeName=')).toEqual(['b']);
    expect(await q('status.phase!=Running')).toEqual(['b']);
  });

  it('§2 bad selectors are 400; unknown fields get the real message', async () => {
    const bad = await raw(api, '/api/v1/configmaps', { query: { labelSelector: 'app in (x' } });
    expect(bad.status).toBe(400);
    const field = await raw(api, '/api/v1/configmaps', { query: { fieldSelector: 'x=y' } });
    expect(field.status).toBe(400);
    expect(field.json.message).toBe('"x" is not a known field selector: only "metadata.name", "metadata.namespace"');
  });

  it('§1 unknown query parameters (timeout, fieldManager, new ones) are ignored', async () => {
    const r = await raw(api, '/api/v1/configmaps', { query: { timeout: '32s', fieldManager: 'x', somethingNew: '1' } });
    expect(r.status).toBe(200);
  });
});
