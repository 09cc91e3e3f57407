import { describe, expect, it } from '@jest/globals';
import { RxkubeError } from '../../lib/errors.js';
import { listWatch } from '../../lib/listwatch/createListWatch.js';
import type { ListPage } from '../../lib/listwatch/listWatch.js';
import { deploymentFixture, podFixture } from '../../lib/testing/index.js';
import { api, transport, useServer } from './listWatchServer.js';
import {
  all,
  cm,
  configmaps,
  deployments,
  eventSummary,
  names,
  nodes,
  type Obj,
  pods,
  watchEvents,
  widgets,
} from './listWatchSupport.js';

// Lists and watches against a real server: pages, selectors, paths, grouped and custom resources.
// Streams: listWatchStreams.spec.ts; errors: listWatchErrors.spec.ts.
describe('listWatch over the client-node transport (HTTPS, token and CA from the kubeconfig)', () => {
  useServer(['paging', 'sel', 'other', 'ns-a', 'ns-b', 'apps-ns', 'w']);

  it('lists in pages following continue; continue pages send only limit and continue; every page has the list RV', async () => {
    for (let i = 0; i < 7; i++) api.create('configmaps', cm('paging', `c${i}`));
    api.clearRequests();
    const pages: ListPage<Obj>[] = await all(
      listWatch<Obj>(transport, configmaps, { namespace: 'paging' }).list({ resourceVersion: '0', limit: 3 }),
    );
    expect(pages.map((p) => p.items.length)).toEqual([3, 3, 1]);
    expect(names(pages.flatMap((p) => p.items))).toEqual([
      'paging/c0',
      'paging/c1',
      'paging/c2',
      'paging/c3',
      'paging/c4',
      'paging/c5',
      'paging/c6',
    ]);
    expect(new Set(pages.map((p) => p.resourceVersion)).size).toBe(1);
    expect(pages[0]!.continue).not.toBe('');
    expect(pages[2]!.continue).toBe('');
    const lists = api.requests.filter((r) => r.verb === 'list');
    expect(lists.map((r) => r.path)).toEqual(Array(3).fill('/api/v1/namespaces/paging/configmaps'));
    expect(lists[0]!.query).toEqual({ resourceVersion: '0', limit: '3' });
    expect(lists[1]!.query).toEqual({ limit: '3', continue: pages[0]!.continue });
    expect(lists[2]!.query).toEqual({ limit: '3', continue: pages[1]!.continue });
  });

  it('lists unpaged when no limit is given (no limit parameter sent)', async () => {
    api.clearRequests();
    const pages = await all(listWatch<Obj>(transport, configmaps, { namespace: 'paging' }).list({}));
    expect(pages).toHaveLength(1);
    expect(pages[0]!.items).toHaveLength(7);
    expect(api.requests.find((r) => r.verb === 'list')!.query).toEqual({});
  });

  it('L3: sends the label and field selectors on list and watch alike, and the server filters both', async () => {
    api.create('configmaps', cm('sel', 'web-1', { app: 'web' }));
    api.create('configmaps', cm('sel', 'db-1', { app: 'db' }));
    api.create('configmaps', cm('other', 'web-2', { app: 'web' }));
    const lw = listWatch<Obj>(transport, configmaps, {
      labelSelector: 'app=web',
      fieldSelector: 'metadata.namespace=sel',
    });
    api.clearRequests();
    const [page] = await all(lw.list({}));
    expect(names(page!.items)).toEqual(['sel/web-1']);
    const { events, open } = watchEvents(api, lw.watch({ resourceVersion: page!.resourceVersion }), 1);
    await open;
    api.create('configmaps', cm('sel', 'db-2', { app: 'db' }));
    api.create('configmaps', cm('other', 'web-3', { app: 'web' }));
    api.create('configmaps', cm('sel', 'web-4', { app: 'web' }));
    expect((await events).map(eventSummary)).toEqual(['ADDED web-4']);
    const [list, watch] = [
      api.requests.find((r) => r.verb === 'list')!,
      api.requests.find((r) => r.verb === 'watch')!,
    ];
    expect(list.query.labelSelector).toBe('app=web');
    expect(watch.query.labelSelector).toBe('app=web');
    expect(list.query.fieldSelector).toBe('metadata.namespace=sel');
    expect(watch.query.fieldSelector).toBe('metadata.namespace=sel');
  });

  it('lists one namespace, all namespaces, and a cluster-scoped resource at their paths', async () => {
    api.create('pods', podFixture({ namespace: 'ns-a', name: 'p1' }));
    api.create('pods', podFixture({ namespace: 'ns-b', name: 'p2' }));
    api.create('nodes', { metadata: { name: 'node-1' } });
    api.clearRequests();
    const one = (await all(listWatch<Obj>(transport, pods, { namespace: 'ns-a' }).list({}))).flatMap(
      (p) => p.items,
    );
    const every = (await all(listWatch<Obj>(transport, pods).list({}))).flatMap((p) => p.items);
    const cluster = (await all(listWatch<Obj>(transport, nodes).list({}))).flatMap((p) => p.items);
    expect(names(one)).toEqual(['ns-a/p1']);
    expect(names(every)).toEqual(expect.arrayContaining(['ns-a/p1', 'ns-b/p2']));
    expect(names(cluster)).toEqual(['/node-1']);
    expect(api.requests.filter((r) => r.verb === 'list').map((r) => r.path)).toEqual([
      '/api/v1/namespaces/ns-a/pods',
      '/api/v1/pods',
      '/api/v1/nodes',
    ]);
    expect(() => listWatch<Obj>(transport, nodes, { namespace: 'ns-a' })).toThrow(RxkubeError);
  });

  it('watches a cluster-scoped resource', async () => {
    const lw = listWatch<Obj>(transport, nodes);
    const { events, open } = watchEvents(api, lw.watch({ resourceVersion: api.resourceVersion }), 2);
    await open;
    api.create('nodes', { metadata: { name: 'node-2' } });
    api.delete('nodes', undefined, 'node-2');
    expect((await events).map(eventSummary)).toEqual(['ADDED node-2', 'DELETED node-2']);
  });

  it('lists and watches a grouped built-in (apps/v1 deployments)', async () => {
    const lw = listWatch<Obj>(transport, deployments, { namespace: 'apps-ns' });
    api.create('deployments.apps', deploymentFixture({ namespace: 'apps-ns', name: 'd1', replicas: 1 }));
    const [page] = await all(lw.list({}));
    expect(names(page!.items)).toEqual(['apps-ns/d1']);
    const { events, open } = watchEvents(api, lw.watch({ resourceVersion: page!.resourceVersion }), 1);
    await open;
    api.patch('deployments.apps', 'apps-ns', 'd1', { spec: { replicas: 2 } }, 'merge');
    expect((await events).map(eventSummary)).toEqual(['MODIFIED d1']);
    expect(
      api.requests.filter((r) => r.resource === 'deployments.apps' && r.verb !== 'patch').map((r) => r.path),
    ).toEqual(expect.arrayContaining(['/apis/apps/v1/namespaces/apps-ns/deployments']));
  });

  it('lists and watches a custom resource', async () => {
    const lw = listWatch<Obj>(transport, widgets);
    api.create('widgets.example.com', {
      apiVersion: 'example.com/v1alpha1',
      kind: 'Widget',
      metadata: { namespace: 'w', name: 'w1' },
    });
    const [page] = await all(lw.list({ limit: 10 }));
    expect(names(page!.items)).toEqual(['w/w1']);
    const { events, open } = watchEvents(api, lw.watch({ resourceVersion: page!.resourceVersion }), 1);
    await open;
    api.delete('widgets.example.com', 'w', 'w1');
    const [deleted] = await events;
    expect(eventSummary(deleted!)).toBe('DELETED w1');
    expect(deleted!.type !== 'MALFORMED' && deleted!.object.kind).toBe('Widget');
  });

  it('accepts the KubeConfig itself (the client-node transport registers itself)', async () => {
    const pages = await all(listWatch<Obj>(api.kubeConfig(), configmaps, { namespace: 'paging' }).list({}));
    expect(pages[0]!.items).toHaveLength(7);
  });
});
