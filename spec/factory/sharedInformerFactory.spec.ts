import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import type { V1ConfigMap } from '@kubernetes/client-node';
import type { Deployment } from 'kubernetes-types/apps/v1.js';
import { firstValueFrom, filter } from 'rxjs';
import '../../lib/transport/clientNode.js'; // registers the KubeConfig transport, as importing 'rxkube' does
import {
  ConfigError,
  ReflectorError,
  builtInResources,
  sharedInformerFactory,
  type Resource,
  type ResourceError,
  type SharedInformerFactory,
} from '../../lib/index.js';
import { podFixture, startFakeApiServer, type FakeApiServer } from '../../lib/testing/index.js';

const configMap = (namespace: string, name: string): V1ConfigMap => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { namespace, name },
  data: { a: 'b' },
});
const names = (objs: ReadonlyArray<{ metadata?: { namespace?: string; name?: string } }>) =>
  objs.map((o) => `${o.metadata?.namespace}/${o.metadata?.name}`).sort();

let api: FakeApiServer;
let factory: SharedInformerFactory | undefined;

beforeEach(async () => {
  api = await startFakeApiServer({ namespaces: ['blog', 'shop'] });
  api.create('pods', podFixture({ namespace: 'shop', name: 'web-0', labels: { app: 'web' }, nodeName: 'node-1' }));
  api.create('pods', podFixture({ namespace: 'shop', name: 'db-0', labels: { app: 'db' }, nodeName: 'node-2' }));
  api.create('pods', podFixture({ namespace: 'blog', name: 'web-0', labels: { app: 'web' }, nodeName: 'node-1' }));
  api.create('configmaps', configMap('shop', 'settings'));
});

afterEach(async () => {
  await factory?.shutdown();
  factory = undefined;
  await api.close();
});

const requestsOf = (resource: string, verb: 'list' | 'watch') =>
  api.requests.filter((r) => r.resource === resource && r.verb === verb);

describe('sharedInformerFactory', () => {
  it('L1: informerFor returns the same informer for the same resource and namespace', () => {
    factory = sharedInformerFactory(api.kubeConfig());
    const pods = factory.pods();
    expect(factory.pods()).toBe(pods);
    expect(factory.informerFor(builtInResources.pods)).toBe(pods);
    const sameResource: Resource = { group: '', version: 'v1', plural: 'pods', namespaced: true };
    expect(factory.informerFor(sameResource)).toBe(pods);
    expect(factory.pods({ namespace: 'shop' })).not.toBe(pods);
    expect(factory.pods({ namespace: 'shop' })).toBe(factory.pods({ namespace: 'shop' }));
    expect(factory.configMaps()).not.toBe(pods);
    // Cluster-scoped resources ignore the namespace: one informer.
    expect(factory.nodes({ namespace: 'shop' })).toBe(factory.nodes());
  });

  it('L1: one informer serves every user: one list and one watch for two handlers', async () => {
    factory = sharedInformerFactory(api.kubeConfig());
    const a: string[] = [];
    const b: string[] = [];
    factory.pods().addEventHandler({ add: (p) => void a.push(p.metadata!.name!) });
    factory.pods().addEventHandler({ add: (p) => void b.push(p.metadata!.name!) });
    factory.start();
    await factory.waitForCacheSync();
    await api.waitForWatches(1, 'pods');
    expect(a.sort()).toEqual(['db-0', 'web-0', 'web-0']);
    expect(b.sort()).toEqual(a);
    expect(requestsOf('pods', 'list')).toHaveLength(1);
    expect(requestsOf('pods', 'watch')).toHaveLength(1);
  });

  it('L2: start starts only what is not started yet', async () => {
    factory = sharedInformerFactory(api.kubeConfig());
    const pods = factory.pods();
    factory.start();
    expect(pods.isStarted()).toBe(true);
    const configMaps = factory.configMaps(); // created after start: not started until start() again
    expect(configMaps.isStarted()).toBe(false);
    factory.start();
    expect(configMaps.isStarted()).toBe(true);
    const synced = await factory.waitForCacheSync();
    expect(synced).toEqual(
      new Map([
        ['pods', true],
        ['configmaps', true],
      ]),
    );
    factory.start();
    await api.waitForWatches(2);
    expect(requestsOf('pods', 'list')).toHaveLength(1);
    expect(requestsOf('configmaps', 'list')).toHaveLength(1);
  });

  it('L2: waitForCacheSync waits only for started informers', async () => {
    factory = sharedInformerFactory(api.kubeConfig());
    const pods = factory.pods();
    factory.start();
    const deployments = factory.deployments(); // never started
    const synced = await factory.waitForCacheSync();
    expect(synced).toEqual(new Map([['pods', true]]));
    expect(pods.hasSynced()).toBe(true);
    expect(deployments.isStarted()).toBe(false);
    expect(requestsOf('deployments.apps', 'list')).toHaveLength(0);
  });

  it('L2: waitForCacheSync resolves false for an informer stopped before it synced', async () => {
    factory = sharedInformerFactory(api.kubeConfig());
    api.faults.failNext(1000, { code: 500, verb: 'list', resource: 'pods' });
    const pods = factory.pods();
    factory.start();
    const result = factory.waitForCacheSync();
    await pods.stop();
    expect(await result).toEqual(new Map([['pods', false]]));
  });

  it('L2: nothing starts after shutdown; shutdown resolves once every informer has stopped', async () => {
    factory = sharedInformerFactory(api.kubeConfig());
    const pods = factory.pods();
    const configMaps = factory.configMaps();
    let release: () => void = () => undefined;
    const handlerDone = new Promise<void>((resolve) => (release = resolve));
    let calls = 0;
    // A handler still busy when shutdown is called: shutdown waits for it.
    pods.addEventHandler({ add: () => (++calls === 1 ? handlerDone : undefined) });
    factory.start();
    await firstValueFrom(pods.synced$.pipe(filter(Boolean)));
    let shutDown = false;
    const shutdown = factory.shutdown().then(() => (shutDown = true));
    expect(factory.isShutdown()).toBe(true);
    expect(pods.isStopped()).toBe(true);
    expect(configMaps.isStopped()).toBe(true);
    await new Promise((resolve) => setImmediate(resolve));
    expect(shutDown).toBe(false);
    release();
    await shutdown;
    expect(shutDown).toBe(true);

    const after = factory.secrets();
    factory.start();
    expect(after.isStarted()).toBe(false);
    expect((await factory.waitForCacheSync()).has('secrets')).toBe(false);
    expect(requestsOf('secrets', 'list')).toHaveLength(0);
  });

  it('L3: namespace: lists and watches one namespace only', async () => {
    factory = sharedInformerFactory(api.kubeConfig(), { namespace: 'shop' });
    const pods = factory.pods();
    factory.start();
    await factory.waitForCacheSync();
    await api.waitForWatches(1, 'pods');
    expect(names(pods.list())).toEqual(['shop/db-0', 'shop/web-0']);
    for (const r of [...requestsOf('pods', 'list'), ...requestsOf('pods', 'watch')])
      expect(r.namespace).toBe('shop');
    api.create('pods', podFixture({ namespace: 'blog', name: 'web-1', labels: { app: 'web' }, nodeName: 'node-1' }));
    api.create('pods', podFixture({ namespace: 'shop', name: 'web-1', labels: { app: 'web' }, nodeName: 'node-1' }));
    await firstValueFrom(pods.store$.pipe(filter((s) => s.size === 3)));
    expect(names(pods.list())).toEqual(['shop/db-0', 'shop/web-0', 'shop/web-1']);
  });

  it('L3: tweakListOptions: label and field selectors go on list and watch alike', async () => {
    const seen: string[] = [];
    factory = sharedInformerFactory(api.kubeConfig(), {
      tweakListOptions: (o, resource) => {
        seen.push(resource.plural);
        return { ...o, labelSelector: 'app=web', fieldSelector: 'spec.nodeName=node-1' };
      },
    });
    const pods = factory.pods();
    factory.start();
    await factory.waitForCacheSync();
    await api.waitForWatches(1, 'pods');
    const lists = requestsOf('pods', 'list');
    const watches = requestsOf('pods', 'watch');
    expect(lists.length).toBeGreaterThan(0);
    expect(watches.length).toBeGreaterThan(0);
    for (const r of [...lists, ...watches]) {
      expect(r.query.labelSelector).toBe('app=web');
      expect(r.query.fieldSelector).toBe('spec.nodeName=node-1');
    }
    expect(seen).toEqual(['pods']);
    expect(names(pods.list())).toEqual(['blog/web-0', 'shop/web-0']);
    // A change that leaves the selector reaches the informer as a deletion.
    api.patch('pods', 'shop', 'web-0', { metadata: { labels: { app: 'retired' } } }, 'merge');
    await firstValueFrom(pods.store$.pipe(filter((s) => s.size === 1)));
    expect(names(pods.list())).toEqual(['blog/web-0']);
  });

  it('L3: per-resource resync periods: informerFor option, then resyncPeriods by name, then the default', () => {
    factory = sharedInformerFactory(api.kubeConfig(), {
      resyncPeriod: 60_000,
      resyncPeriods: { pods: 5_000 },
    });
    expect(factory.pods().addEventHandler({}).resyncPeriod).toBe(5_000);
    expect(factory.deployments().addEventHandler({}).resyncPeriod).toBe(60_000);
    expect(factory.configMaps({ resyncPeriod: 2_000 }).addEventHandler({}).resyncPeriod).toBe(2_000);
    expect(sharedInformerFactory(api.kubeConfig()).services().addEventHandler({}).resyncPeriod).toBe(0);
  });

  it('L3: transform runs on every object before it is stored; a per-informer transform runs after it; freeze: true freezes them', async () => {
    factory = sharedInformerFactory(api.kubeConfig(), {
      freeze: true,
      transform: (obj) => ({ ...obj, metadata: { ...obj.metadata, annotations: { seen: 'factory' } } }),
    });
    const pods = factory.pods({
      transform: (p) => ({
        ...p,
        metadata: { ...p.metadata, labels: { ...p.metadata?.labels, touched: 'yes' } },
      }),
    });
    const configMaps = factory.configMaps();
    factory.start();
    await factory.waitForCacheSync();
    for (const p of pods.list()) {
      expect(p.metadata?.annotations).toEqual({ seen: 'factory' });
      expect(p.metadata?.labels?.touched).toBe('yes');
    }
    expect(configMaps.list()[0].metadata?.annotations).toEqual({ seen: 'factory' });
    expect(Object.isFrozen(pods.list()[0])).toBe(true);
  });

  it('typed accessors and listers: lister().byNamespace(ns).list(selector), get(name)', async () => {
    factory = sharedInformerFactory(api.kubeConfig());
    const pods = factory.pods();
    const deployments = factory.deployments();
    factory.start();
    await factory.waitForCacheSync();
    expect(names(pods.lister().list('app=web'))).toEqual(['blog/web-0', 'shop/web-0']);
    expect(names(pods.lister().byNamespace('shop').list('app in (web,db)'))).toEqual([
      'shop/db-0',
      'shop/web-0',
    ]);
    expect(pods.lister().byNamespace('shop').get('db-0')?.spec?.nodeName).toBe('node-2');
    expect(pods.lister().get('blog/web-0')?.metadata?.labels).toEqual({ app: 'web' });
    const d: ReadonlyArray<Deployment> = deployments.lister().list();
    expect(d).toEqual([]);
  });

  it('informerFor serves any group/version/resource, and adds indexers a later call asks for', async () => {
    api.registerResource({
      group: 'example.com',
      version: 'v1',
      plural: 'widgets',
      kind: 'Widget',
      namespaced: true,
    });
    api.create(
      { group: 'example.com', version: 'v1', plural: 'widgets', namespaced: true },
      {
        apiVersion: 'example.com/v1',
        kind: 'Widget',
        metadata: { namespace: 'shop', name: 'w1', labels: { size: 'large' } },
      },
    );
    factory = sharedInformerFactory(api.kubeConfig());
    const widgets: Resource = {
      group: 'example.com',
      version: 'v1',
      plural: 'widgets',
      kind: 'Widget',
      namespaced: true,
    };
    const informer = factory.informerFor(widgets);
    factory.informerFor(widgets, { indexers: { bySize: (w) => [w.metadata?.labels?.size ?? ''] } });
    factory.start();
    const synced = await factory.waitForCacheSync();
    expect(synced.get('widgets.example.com')).toBe(true);
    expect(informer.byIndex('bySize', 'large').map((w) => w.metadata?.name)).toEqual(['w1']);
  });

  it('errors$: every informer\'s errors with its resource, informers made after the subscription included; completes on shutdown', async () => {
    factory = sharedInformerFactory(api.kubeConfig(), { logger: false });
    const seen: ResourceError[] = [];
    let completed = false;
    factory.errors$.subscribe({ next: (e) => seen.push(e), complete: () => (completed = true) });
    factory.pods();
    // Made after the subscription; the server does not serve it: its list fails with a 404.
    factory.informerFor({ group: 'example.com', version: 'v1', plural: 'gadgets', kind: 'Gadget', namespaced: true });
    factory.start();
    const abort = new AbortController();
    const synced = factory.waitForCacheSync({ signal: abort.signal });
    await firstValueFrom(factory.errors$);
    abort.abort();
    expect((await synced).get('gadgets.example.com')).toBe(false);
    expect(seen[0].resource).toBe('gadgets.example.com');
    expect(seen[0].error).toBeInstanceOf(ReflectorError);
    expect((seen[0].error as ReflectorError).statusCode).toBe(404);
    expect(seen.every((e) => e.resource === 'gadgets.example.com')).toBe(true);
    expect(completed).toBe(false);
    await factory.shutdown();
    expect(completed).toBe(true);
  });

  it('the onError option is gone: a ConfigError that says to subscribe to errors$', () => {
    const build = () => sharedInformerFactory(api.kubeConfig(), { onError: () => undefined } as never);
    expect(build).toThrow(ConfigError);
    expect(build).toThrow(/onError option is gone; subscribe to factory\.errors\$/);
  });
});
