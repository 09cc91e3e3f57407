// Proof that @kubernetes/client-node's real stack (HTTPS, bearer token, typed clients, Watch) accepts
// the fake API server. Runs with client-node 1.4 (Node 20 leg) and 2.0 (Node 24 leg).
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { AppsV1Api, CoreV1Api, CustomObjectsApi, PatchStrategy, Watch, setHeaderOptions, type KubeConfig, type V1Pod } from '@kubernetes/client-node';
import { podFixture, startFakeApiServer, type FakeApiServer } from '../../lib/testing/index.js';

interface Seen {
  type: string;
  name: string | undefined;
  rv: string | undefined;
  code?: number;
  reason?: string;
}

/** Runs client-node's Watch until `count` events arrived or it ends; returns what it saw and how it ended. */
function watchEvents(kc: KubeConfig, path: string, query: Record<string, string | boolean | number>, onOpen: () => void, count: number): Promise<{ events: Seen[]; err: unknown }> {
  return new Promise((resolve, reject) => {
    const events: Seen[] = [];
    let controller: AbortController | undefined;
    let finished = false;
    const finish = (err: unknown) => {
      if (finished) return;
      finished = true;
      controller?.abort();
      resolve({ events, err });
    };
    new Watch(kc)
      .watch(
        path,
        query,
        (type, obj: { metadata?: { name?: string; resourceVersion?: string }; code?: number; reason?: string }) => {
          events.push({ type, name: obj.metadata?.name, rv: obj.metadata?.resourceVersion, ...(type === 'ERROR' ? { code: obj.code, reason: obj.reason } : {}) });
          if (events.length >= count) finish(null);
        },
        (err) => finish(err),
      )
      .then((c) => {
        controller = c;
        if (finished) c.abort();
        else onOpen();
      }, reject);
  });
}

describe('@kubernetes/client-node against the fake API server', () => {
  let api: FakeApiServer;
  let kc: KubeConfig;
  beforeEach(async () => {
    api = await startFakeApiServer({ bookmarkIntervalMs: 0 });
    kc = api.kubeConfig();
  });
  afterEach(() => api.close());

  const pod = (name: string): V1Pod => ({ metadata: { name, labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } });

  it('CoreV1Api over HTTPS with the generated CA and token: create, get, list with paging, replace with conflict, patch, delete', async () => {
    const core = kc.makeApiClient(CoreV1Api);
    const created = await core.createNamespacedPod({ namespace: 'default', body: pod('a') });
    expect(created.metadata?.uid).toBeTruthy();
    for (const n of ['b', 'c', 'd']) await core.createNamespacedPod({ namespace: 'default', body: pod(n) });
    const got = await core.readNamespacedPod({ namespace: 'default', name: 'a' });
    expect(got.metadata?.resourceVersion).toBe(created.metadata?.resourceVersion);

    const names: string[] = [];
    let cont: string | undefined;
    let pages = 0;
    const listRvs = new Set<string>();
    do {
      const page = await core.listNamespacedPod({ namespace: 'default', limit: 3, _continue: cont });
      pages++;
      names.push(...page.items.map((p) => p.metadata!.name!));
      listRvs.add(page.metadata!.resourceVersion!);
      cont = page.metadata?._continue || undefined;
      if (cont) expect(page.metadata?.remainingItemCount).toBe(1);
    } while (cont && pages < 10);
    expect([pages, names, listRvs.size]).toEqual([2, ['a', 'b', 'c', 'd'], 1]);

    const replaced = await core.replaceNamespacedPod({ namespace: 'default', name: 'a', body: { ...got, metadata: { ...got.metadata, labels: { app: 'v2' } } } });
    expect(replaced.metadata?.labels).toEqual({ app: 'v2' });
    await expect(core.replaceNamespacedPod({ namespace: 'default', name: 'a', body: got })).rejects.toMatchObject({ code: 409 });

    const jsonPatched = await core.patchNamespacedPod({ namespace: 'default', name: 'a', body: [{ op: 'add', path: '/metadata/labels/x', value: 'y' }] });
    expect(jsonPatched.metadata?.labels).toEqual({ app: 'v2', x: 'y' });
    const merged = await core.patchNamespacedPod(
      { namespace: 'default', name: 'a', body: { metadata: { labels: { x: null } } } },
      setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
    );
    expect(merged.metadata?.labels).toEqual({ app: 'v2' });

    const deleted = await core.deleteNamespacedPod({ namespace: 'default', name: 'a' });
    expect(deleted.metadata?.name).toBe('a');
    await expect(core.readNamespacedPod({ namespace: 'default', name: 'a' })).rejects.toMatchObject({ code: 404 });
    const cms = await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'cm' }, data: { a: '1' } } });
    const status = await core.deleteNamespacedConfigMap({ namespace: 'default', name: 'cm' });
    expect(status).toMatchObject({ status: 'Success', details: { name: 'cm', kind: 'configmaps', uid: cms.metadata?.uid } });
  });

  it('AppsV1Api: deployments create (generation 1), replace bumps generation, conflict, list, delete', async () => {
    const apps = kc.makeApiClient(AppsV1Api);
    const body = { metadata: { name: 'd' }, spec: { replicas: 1, selector: { matchLabels: { app: 'd' } }, template: { metadata: { labels: { app: 'd' } }, spec: { containers: [{ name: 'c', image: 'i' }] } } } };
    const d = await apps.createNamespacedDeployment({ namespace: 'default', body });
    expect(d.metadata?.generation).toBe(1);
    const r = await apps.replaceNamespacedDeployment({ namespace: 'default', name: 'd', body: { ...d, spec: { ...d.spec!, replicas: 3 } } });
    expect([r.metadata?.generation, r.spec?.replicas]).toEqual([2, 3]);
    await expect(apps.replaceNamespacedDeployment({ namespace: 'default', name: 'd', body: d })).rejects.toMatchObject({ code: 409 });
    const list = await apps.listDeploymentForAllNamespaces();
    expect(list.items.map((x) => x.metadata?.name)).toEqual(['d']);
    await apps.deleteNamespacedDeployment({ namespace: 'default', name: 'd' });
    expect(api.get('deployments.apps', 'default', 'd')).toBeUndefined();
  });

  it('CustomObjectsApi on a resource registered at run time (namespaced and cluster-scoped)', async () => {
    api.registerResource({ group: 'example.com', version: 'v1', plural: 'widgets', kind: 'Widget', namespaced: true });
    api.registerResource({ group: 'example.com', version: 'v1', plural: 'clusterwidgets', kind: 'ClusterWidget', namespaced: false });
    const custom = kc.makeApiClient(CustomObjectsApi);
    const g = { group: 'example.com', version: 'v1' };
    const w = (await custom.createNamespacedCustomObject({ ...g, namespace: 'default', plural: 'widgets', body: { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' }, spec: { size: 1 } } })) as { metadata: { resourceVersion: string; generation: number } };
    expect(w.metadata.generation).toBe(1);
    await custom.createClusterCustomObject({ ...g, plural: 'clusterwidgets', body: { apiVersion: 'example.com/v1', kind: 'ClusterWidget', metadata: { name: 'cw' } } });
    const got = (await custom.getNamespacedCustomObject({ ...g, namespace: 'default', plural: 'widgets', name: 'w' })) as { metadata: { resourceVersion: string } };
    expect(got.metadata.resourceVersion).toBe(w.metadata.resourceVersion);
    const patched = (await custom.patchNamespacedCustomObject(
      { ...g, namespace: 'default', plural: 'widgets', name: 'w', body: { spec: { size: 2 } } },
      setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
    )) as { spec: { size: number } };
    expect(patched.spec.size).toBe(2);
    await expect(
      custom.replaceNamespacedCustomObject({ ...g, namespace: 'default', plural: 'widgets', name: 'w', body: { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w', resourceVersion: w.metadata.resourceVersion } } }),
    ).rejects.toMatchObject({ code: 409 });
    const list = (await custom.listClusterCustomObject({ ...g, plural: 'clusterwidgets' })) as { items: unknown[] };
    expect(list.items).toHaveLength(1);
    await custom.deleteNamespacedCustomObject({ ...g, namespace: 'default', plural: 'widgets', name: 'w' });
    expect(api.list('widgets.example.com').items).toEqual([]);
  });

  it('Watch receives ADDED, MODIFIED, DELETED and BOOKMARK, with the RVs of the writes', async () => {
    const rv = api.resourceVersion;
    let written: string[] = [];
    const { events } = await watchEvents(
      kc,
      '/api/v1/namespaces/default/pods',
      { resourceVersion: rv, allowWatchBookmarks: true },
      () => {
        void api.waitForWatches(1).then(() => {
          const a = api.create('pods', podFixture({ name: 'a' }));
          const b = api.patch('pods', 'default', 'a', { metadata: { labels: { x: 'y' } } });
          const c = api.delete('pods', 'default', 'a');
          written = [a, b, c].map((o) => o.metadata.resourceVersion);
          api.faults.bookmarkNow();
        });
      },
      4,
    );
    expect(events.map((e) => `${e.type} ${e.name ?? ''}`.trim())).toEqual(['ADDED a', 'MODIFIED a', 'DELETED a', 'BOOKMARK']);
    expect(events.map((e) => e.rv)).toEqual([...written, api.resourceVersion]);
  });

  it('Watch sees the 410 of a compacted RV as an ERROR event, then the end of the stream', async () => {
    const rv = api.resourceVersion;
    api.create('pods', podFixture({ name: 'a' }));
    api.faults.compact();
    const { events, err } = await watchEvents(kc, '/api/v1/namespaces/default/pods', { resourceVersion: rv }, () => undefined, 99);
    expect(events).toEqual([{ type: 'ERROR', name: undefined, rv: undefined, code: 410, reason: 'Expired' }]);
    expect(err).toBeNull();
  });

  it('Watch sees an injected ERROR 410 Gone on an open watch', async () => {
    const { events } = await watchEvents(
      kc,
      '/api/v1/pods',
      { resourceVersion: api.resourceVersion },
      () => void api.waitForWatches(1).then(() => api.faults.sendWatchError({ code: 410, reason: 'Gone' })),
      1,
    );
    expect(events).toEqual([{ type: 'ERROR', name: undefined, rv: undefined, code: 410, reason: 'Gone' }]);
  });
});
