// Metadata-only lists, watches and informers, end to end: rxkube's fake API server on loopback
// answering `as=PartialObjectMetadata(List)` as kube does, through the client-node transport (any
// client-node version: nothing here depends on its model classes). Waits are bounded polls on state.
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { firstValueFrom, toArray, take } from 'rxjs';
import '../../lib/transport/clientNode.js';
import {
  builtInResources,
  controller,
  metadataAccept,
  metadataListWatch,
  sharedInformerFactory,
  transportFor,
  type Controller,
  type SharedInformerFactory,
  type Transport,
} from '../../lib/index.js';
import { podFixture, startFakeApiServer, type FakeApiServer } from '../../lib/testing/index.js';
import { waitFor } from '../support/waitFor.js';

let api: FakeApiServer;
let factory: SharedInformerFactory | undefined;
let ctl: Controller | undefined;

beforeEach(async () => {
  api = await startFakeApiServer({ namespaces: ['ns'], bookmarkIntervalMs: 0 });
  api.create('pods', podFixture({ namespace: 'ns', name: 'a', labels: { app: 'web' }, nodeName: 'node-1' }));
  api.create('pods', podFixture({ namespace: 'ns', name: 'b', labels: { app: 'db' }, nodeName: 'node-1' }));
});

afterEach(async () => {
  await ctl?.stop();
  ctl = undefined;
  await factory?.shutdown();
  factory = undefined;
  await api.close();
});

interface Answer {
  readonly status: number;
  json(): Promise<unknown>;
}

/** A GET through the client-node transport (TLS, the kubeconfig's credentials) with this Accept header. */
async function get(path: string, accept: string, query: Record<string, string> = {}): Promise<Answer> {
  const abort = new AbortController();
  const res = await transportFor(api.kubeConfig()).request({ method: 'GET', path, query, accept, signal: abort.signal });
  const parts: Uint8Array[] = [];
  if (query['watch'] !== 'true') for await (const chunk of res.body) parts.push(chunk);
  abort.abort();
  const text = Buffer.concat(parts).toString('utf8');
  return { status: res.status, json: async () => JSON.parse(text) as unknown };
}

/** The first `n` lines of a watch, as JSON. */
async function watchLines(path: string, accept: string, n: number): Promise<Array<{ type: string; object: Record<string, unknown> }>> {
  const abort = new AbortController();
  const res = await transportFor(api.kubeConfig()).request({ method: 'GET', path, query: { watch: 'true' }, accept, signal: abort.signal });
  expect(res.status).toBe(200);
  let text = '';
  try {
    for await (const chunk of res.body) {
      text += Buffer.from(chunk).toString('utf8');
      if (text.split('\n').length > n) break;
    }
  } finally {
    abort.abort();
  }
  return text.split('\n').slice(0, n).map((l) => JSON.parse(l) as { type: string; object: Record<string, unknown> });
}

describe('fake API server: metadata-only answers', () => {
  it('answers a list asked as=PartialObjectMetadataList with a meta.k8s.io/v1 PartialObjectMetadataList of metadata only', async () => {
    const res = await get('/api/v1/namespaces/ns/pods', metadataAccept.list);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { kind: string; apiVersion: string; metadata: { resourceVersion: string }; items: Array<Record<string, unknown>> };
    expect(body.kind).toBe('PartialObjectMetadataList');
    expect(body.apiVersion).toBe('meta.k8s.io/v1');
    expect(body.metadata.resourceVersion).toMatch(/^\d+$/);
    expect(body.items.map((i) => Object.keys(i).sort())).toEqual([
      ['apiVersion', 'kind', 'metadata'],
      ['apiVersion', 'kind', 'metadata'],
    ]);
    expect(body.items[0]).toMatchObject({ kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: { name: 'a', labels: { app: 'web' } } });
    expect((body.items[0].metadata as { uid?: string }).uid).toBeTruthy();
  });

  it('answers a watch asked as=PartialObjectMetadata with PartialObjectMetadata objects', async () => {
    const lines = await watchLines('/api/v1/namespaces/ns/pods', metadataAccept.watch, 2);
    expect(lines.map((l) => [l.type, l.object.kind, l.object.apiVersion, Object.keys(l.object).sort().join(',')])).toEqual([
      ['ADDED', 'PartialObjectMetadata', 'meta.k8s.io/v1', 'apiVersion,kind,metadata'],
      ['ADDED', 'PartialObjectMetadata', 'meta.k8s.io/v1', 'apiVersion,kind,metadata'],
    ]);
  });

  it('406 NotAcceptable for an unknown as=, for as=PartialObjectMetadata on a list, as=PartialObjectMetadataList on a watch; plain JSON after a fallback clause', async () => {
    const unknown = await get('/api/v1/namespaces/ns/pods', 'application/json;as=Nope;g=meta.k8s.io;v=v1');
    expect(unknown.status).toBe(406);
    expect(await unknown.json()).toMatchObject({ kind: 'Status', code: 406, reason: 'NotAcceptable' });
    const singleOnList = await get('/api/v1/namespaces/ns/pods', 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1');
    expect(singleOnList.status).toBe(406);
    expect(((await singleOnList.json()) as { message: string }).message).toContain('is a list');
    const listOnWatch = await get('/api/v1/namespaces/ns/pods', 'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1', { watch: 'true' });
    expect(listOnWatch.status).toBe(406);
    const protobufOnly = await get('/api/v1/namespaces/ns/pods', 'application/vnd.kubernetes.protobuf');
    expect(protobufOnly.status).toBe(406);
    const fallback = await get('/api/v1/namespaces/ns/pods', 'application/json;as=Nope;g=meta.k8s.io;v=v1,application/json');
    expect(fallback.status).toBe(200);
    expect(((await fallback.json()) as { kind: string }).kind).toBe('PodList');
  });
});

describe('metadata-only informers', () => {
  it('factory.metadata(pods) syncs, indexes and follows changes with metadata only', async () => {
    factory = sharedInformerFactory(api.kubeConfig(), { logger: false });
    const pods = factory.metadata(builtInResources.pods, { indexers: { byApp: (p) => [p.metadata?.labels?.['app'] ?? ''] } });
    expect(factory.metadata(builtInResources.pods)).toBe(pods);
    expect(factory.pods()).not.toBe(pods);
    factory.start();
    const synced = await factory.waitForCacheSync();
    expect(synced.get('metadata:pods')).toBe(true);
    const a = pods.lister().get('ns/a');
    expect(a).toMatchObject({ kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: { name: 'a', labels: { app: 'web' } } });
    expect(a && 'spec' in a).toBe(false);
    expect(pods.lister().byNamespace('ns').list('app=db').map((p) => p.metadata?.name)).toEqual(['b']);
    expect(pods.getStore().byIndex('byApp', 'web').map((p) => p.metadata?.name)).toEqual(['a']);
    api.patch('pods', 'ns', 'a', { metadata: { labels: { app: 'db' } } }, 'merge');
    api.delete('pods', 'ns', 'b');
    await waitFor(() => pods.lister().list('app=db').map((p) => p.metadata?.name).join() === 'a', 'the label change and the delete');
    expect(pods.lister().get('ns/a')?.kind).toBe('PartialObjectMetadata');
    const lists = api.requests.filter((r) => r.resource === 'pods' && r.verb === 'list');
    expect(lists.length).toBeGreaterThan(0);
  });

  it('a server (or proxy) that ignores the Accept header: full objects are cut to metadata, said once in the log', async () => {
    const inner = transportFor(api.kubeConfig());
    const dropsAccept: Transport = { request: ({ accept: _dropped, ...req }) => inner.request(req) };
    const lines: string[] = [];
    const lw = metadataListWatch(dropsAccept, builtInResources.pods, { namespace: 'ns', logger: { error: (m) => lines.push(m) } });
    const page = await firstValueFrom(lw.list({}));
    expect(page.kind).toBe('PodList');
    expect(page.items.map((i) => [i.kind, i.apiVersion, i.metadata?.name, Object.keys(i).sort().join(',')])).toEqual([
      ['PartialObjectMetadata', 'meta.k8s.io/v1', 'a', 'apiVersion,kind,metadata'],
      ['PartialObjectMetadata', 'meta.k8s.io/v1', 'b', 'apiVersion,kind,metadata'],
    ]);
    const events = await firstValueFrom(lw.watch({ resourceVersion: '0' }).pipe(take(2), toArray()));
    expect(events.map((e) => (e.type === 'ADDED' ? [e.object.kind, Object.keys(e.object).length] : e.type))).toEqual([
      ['PartialObjectMetadata', 3],
      ['PartialObjectMetadata', 3],
    ]);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('asked for metadata only, the server sent PodList');
  });

  it('an answer already metadata-only is not logged', async () => {
    const lines: string[] = [];
    const lw = metadataListWatch(api.kubeConfig(), builtInResources.pods, { logger: { error: (m) => lines.push(m) } });
    const page = await firstValueFrom(lw.list({}));
    expect(page.kind).toBe('PartialObjectMetadataList');
    await firstValueFrom(lw.watch({ resourceVersion: '0' }).pipe(take(2), toArray()));
    expect(lines).toEqual([]);
  });

  it("a controller owns a metadata-only informer: a change of an owned pod reconciles its owner", async () => {
    const owner = api.create('configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { namespace: 'ns', name: 'owner' } });
    const ownerReferences = [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid: owner.metadata.uid ?? '', controller: true }];
    api.create('pods', podFixture({ namespace: 'ns', name: 'owned', labels: { app: 'x' }, ownerReferences, nodeName: 'node-1' }));
    factory = sharedInformerFactory(api.kubeConfig(), { logger: false });
    const reconciled: string[] = [];
    ctl = controller({
      for: factory.configMaps(),
      forKind: { apiVersion: 'v1', kind: 'ConfigMap' },
      owns: [factory.metadata(builtInResources.pods)],
      reconcile: (key) => {
        reconciled.push(key);
      },
    });
    factory.start();
    ctl.start();
    await waitFor(() => reconciled.includes('ns/owner'), 'the first reconcile');
    const before = reconciled.length;
    api.patch('pods', 'ns', 'owned', { metadata: { labels: { app: 'y' } } }, 'merge');
    await waitFor(() => reconciled.length > before, 'a reconcile for the owned pod change');
    expect(reconciled.slice(before)).toContain('ns/owner');
  });
});
