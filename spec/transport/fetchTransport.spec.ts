import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { firstValueFrom, take, toArray, type Observable } from 'rxjs';
import { ApiStatusError } from '../../lib/errors.js';
import { listWatch } from '../../lib/listwatch/createListWatch.js';
import type { Resource } from '../../lib/listwatch/resource.js';
import type { WatchEvent } from '../../lib/listwatch/watchEvent.js';
import { fetchTransport } from '../../lib/transport/fetchTransport.js';
import { startFakeApiServer, type FakeApiServer } from '../../lib/testing/index.js';
import { eventually } from '../listwatch/listWatchSupport.js';

interface Obj {
  metadata: { name: string; namespace?: string };
}
const secrets: Resource = { group: '', version: 'v1', plural: 'secrets', kind: 'Secret', namespaced: true };
const configmaps: Resource = {
  group: '',
  version: 'v1',
  plural: 'configmaps',
  kind: 'ConfigMap',
  namespaced: true,
};
const all = <T>(o$: Observable<T>): Promise<T[]> => firstValueFrom(o$.pipe(toArray()));
const summary = (e: WatchEvent<Obj>): string =>
  e.type === 'MALFORMED' || e.type === 'ERROR' ? e.type : `${e.type} ${e.object.metadata.name}`;


describe('fetchTransport (Node global fetch, plain HTTP, as a browser through kubectl proxy)', () => {
  let api: FakeApiServer;

  beforeAll(async () => {
    // A proxy that checks a bearer token (HTTP mode has authentication off unless tokens are given).
    api = await startFakeApiServer({ namespaces: ['f'], http: true, tokens: [{ token: 'browser-token', user: 'admin' }] });
    for (let i = 0; i < 5; i++)
      api.create('configmaps', { metadata: { namespace: 'f', name: `c${i}` }, data: {} });
  });
  afterAll(async () => {
    await api.close();
  });

  const transport = () =>
    fetchTransport({ baseUrl: api.url, headers: { Authorization: `Bearer ${api.token}` } });

  it('lists in pages following continue', async () => {
    api.clearRequests();
    const pages = await all(listWatch<Obj>(transport(), configmaps, { namespace: 'f' }).list({ limit: 2 }));
    expect(pages.map((p) => p.items.length)).toEqual([2, 2, 1]);
    expect(api.requests.filter((r) => r.verb === 'list').map((r) => r.query.continue ?? '')).toEqual([
      '',
      pages[0]!.continue,
      pages[1]!.continue,
    ]);
    expect(api.requests[0]!.user).toBe('admin');
  });

  it('watches, with selectors, and decodes the web stream', async () => {
    const lw = listWatch<Obj>(transport(), configmaps, { namespace: 'f', labelSelector: 'pick=yes' });
    const before = api.openWatches();
    const events = firstValueFrom(
      lw.watch({ resourceVersion: api.resourceVersion }).pipe(take(2), toArray()),
    );
    await api.waitForWatches(before + 1);
    api.create('configmaps', { metadata: { namespace: 'f', name: 'no', labels: { pick: 'no' } } });
    api.create('configmaps', { metadata: { namespace: 'f', name: 'yes', labels: { pick: 'yes' } } });
    api.faults.malformedLine();
    expect((await events).map(summary)).toEqual(['ADDED yes', 'MALFORMED']);
    expect(api.requests.find((r) => r.verb === 'watch')!.query.labelSelector).toBe('pick=yes');
  });

  it('unsubscribing aborts the fetch: the server sees the watch close', async () => {
    const before = api.openWatches('secrets');
    const sub = listWatch<Obj>(transport(), secrets)
      .watch({ resourceVersion: api.resourceVersion })
      .subscribe();
    await api.waitForWatches(before + 1, 'secrets');
    sub.unsubscribe();
    await eventually(() => api.openWatches('secrets') === before, 'the server saw the watch close');
  });

  it('passes an ERROR event through; unsubscribing from within it is safe', async () => {
    const before = api.openWatches('secrets');
    const seen = new Promise<string>((resolve, reject) => {
      const sub = listWatch<Obj>(transport(), secrets)
        .watch({ resourceVersion: api.resourceVersion })
        .subscribe({
          next: (e) => {
            sub.unsubscribe();
            resolve(summary(e));
          },
          error: reject,
        });
    });
    await api.waitForWatches(before + 1, 'secrets');
    api.faults.sendWatchError({ code: 410, reason: 'Expired' });
    await expect(seen).resolves.toBe('ERROR');
    await eventually(() => api.openWatches('secrets') === before, 'the watch closed');
  });

  it('HTTP errors arrive as ApiStatusError (no token: 401)', async () => {
    const err = await all(listWatch<Obj>(fetchTransport({ baseUrl: api.url }), configmaps).list({})).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ApiStatusError);
    expect((err as ApiStatusError).statusCode).toBe(401);
  });

  it('takes headers from a function per request and a base URL with a trailing slash', async () => {
    let calls = 0;
    const t = fetchTransport({
      baseUrl: `${api.url}/`,
      headers: async () => {
        calls++;
        return { Authorization: `Bearer ${api.token}` };
      },
    });
    const pages = await all(listWatch<Obj>(t, configmaps, { namespace: 'f' }).list({}));
    expect(pages[0]!.items.length).toBeGreaterThanOrEqual(5);
    expect(calls).toBe(1);
  });
});
