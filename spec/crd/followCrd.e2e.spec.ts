// Informers that follow their CRD, end to end: CRDs POSTed to rxkube's fake API server on loopback
// (which marks them Established as kube does), the factory's followCrd through the client-node
// transport. Waits are bounded polls on state (never sleep-then-assert).
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import '../../lib/transport/clientNode.js';
import { sharedInformerFactory, type SharedInformerFactory } from '../../lib/factory/sharedInformerFactory.js';
import type { CrdFollowStatus } from '../../lib/crd/crdStatus.js';
import { crdReadiness } from '../../lib/crd/crdReadiness.js';
import { controller, type Controller } from '../../lib/controller/controller.js';
import { watch } from '../../lib/controller/triggerSource.js';
import type { KubeObject } from '../../lib/meta/kubeObject.js';
import { neverEstablishAnnotation, startFakeApiServer, type FakeApiServer } from '../../lib/testing/index.js';
import { waitFor } from '../support/waitFor.js';

interface Widget extends KubeObject {
  spec?: { size?: number };
}

const widgets = { group: 'example.com', version: 'v1', plural: 'widgets', namespaced: true } as const;
const CRDS = 'customresourcedefinitions.apiextensions.k8s.io';

const crd = (versions: Array<{ name: string; served: boolean; storage: boolean }> = [{ name: 'v1', served: true, storage: true }], annotations?: Record<string, string>) => ({
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'widgets.example.com', ...(annotations ? { annotations } : {}) },
  spec: {
    group: 'example.com',
    scope: 'Namespaced',
    names: { plural: 'widgets', singular: 'widget', kind: 'Widget' },
    versions: versions.map((v) => ({ ...v, schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } })),
  },
});
const widget = (name: string): Widget => ({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { namespace: 'ns', name }, spec: { size: 1 } });

let api: FakeApiServer;
let factory: SharedInformerFactory | undefined;
let ctl: Controller | undefined;

beforeEach(async () => {
  api = await startFakeApiServer({ namespaces: ['ns'], bookmarkIntervalMs: 0 });
});

afterEach(async () => {
  await ctl?.stop();
  ctl = undefined;
  await factory?.shutdown();
  factory = undefined;
  await api.close();
});

const widgetRequests = () => api.requests.filter((r) => r.resource === 'widgets').length;

describe('the fake API server establishes CRDs', () => {
  it('marks a created CRD NamesAccepted and Established with its accepted names; never with the test annotation', async () => {
    api.create(CRDS, crd());
    await waitFor(() => crdReadiness(api.get(CRDS, undefined, 'widgets.example.com') as never, widgets) === 'ready', 'Established');
    const stored = api.get<{ status?: { conditions?: Array<{ type: string; status: string }>; acceptedNames?: { kind?: string } } }>(CRDS, undefined, 'widgets.example.com');
    expect(stored?.status?.conditions?.map((c) => `${c.type}=${c.status}`)).toEqual(['NamesAccepted=True', 'Established=True']);
    expect(stored?.status?.acceptedNames?.kind).toBe('Widget');
    api.delete(CRDS, undefined, 'widgets.example.com');
    const held = api.create(CRDS, crd(undefined, { [neverEstablishAnnotation]: 'true' }));
    expect(crdReadiness(held as never, widgets)).toBe('not-established');
  });
});

describe('factory.followCrd', () => {
  it('waits for the CRD, runs when it is established, drops its store when it is removed, runs again when re-created', async () => {
    factory = sharedInformerFactory(api.kubeConfig(), { logger: false });
    const follower = factory.followCrd<Widget>(widgets);
    expect(factory.followCrd<Widget>(widgets)).toBe(follower);
    const seen: CrdFollowStatus[] = [];
    follower.status$.subscribe((s) => seen.push(s));
    const added: string[] = [];
    follower.addEventHandler({
      add: (w) => {
        added.push(w.metadata?.name ?? '');
      },
    });
    factory.start();
    await waitFor(() => follower.status().phase === 'waitingForCrd' && (follower.status() as { reason: string }).reason === 'absent', 'waiting: absent');
    expect(follower.hasSynced()).toBe(false);
    expect(follower.current()).toBeUndefined();
    expect(follower.lister().list()).toEqual([]);
    expect(await follower.waitForCacheSync({ timeout: 50 })).toBe(false);
    expect(widgetRequests()).toBe(0);

    api.create(CRDS, crd());
    api.create(widgets, widget('w1'));
    expect(await follower.waitForCacheSync({ timeout: 10_000 })).toBe(true);
    expect(follower.status()).toEqual({ phase: 'running' });
    expect(follower.lister().list().map((w) => w.metadata?.name)).toEqual(['w1']);
    expect(added).toEqual(['w1']);
    const first = follower.current();

    api.delete(CRDS, undefined, 'widgets.example.com');
    await waitFor(() => follower.status().phase === 'crdRemoved', 'crdRemoved');
    expect(follower.status()).toEqual({ phase: 'crdRemoved', reason: 'absent' });
    expect(follower.hasSynced()).toBe(false);
    expect(follower.lister().list()).toEqual([]);
    await waitFor(() => first?.isStopped() === true, 'the first run stopped'); // a stopped informer makes no requests: no hot loop

    api.create(CRDS, crd());
    api.create(widgets, widget('w2'));
    expect(await follower.waitForCacheSync({ timeout: 10_000 })).toBe(true);
    expect(follower.current()).not.toBe(first);
    // kube deletes a CRD's objects with it; this fake keeps them, so w1 is listed again by the new run.
    expect(follower.lister().list().map((w) => w.metadata?.name)).toEqual(['w1', 'w2']);
    expect(added).toEqual(['w1', 'w1', 'w2']); // each run's handlers hear its initial list
    expect(seen.map((s) => (s.phase === 'running' ? s.phase : `${s.phase}:${s.reason}`))).toEqual([
      'waitingForCrd:unknown',
      'waitingForCrd:absent',
      'waitingForCrd:not-established', // created: the server marks it Established a moment later
      'running',
      'crdRemoved:absent',
      'crdRemoved:not-established',
      'running',
    ]);
    const synced = await factory.waitForCacheSync({ timeout: 1000 });
    expect(synced.get('crd:widgets.example.com')).toBe(true);
  });

  it('a version that stops being served stops the informer (crdRemoved: version-not-served), and runs again when served', async () => {
    api.create(CRDS, crd());
    api.create(widgets, widget('w1'));
    factory = sharedInformerFactory(api.kubeConfig(), { logger: false });
    const follower = factory.followCrd<Widget>(widgets);
    factory.start();
    expect(await follower.waitForCacheSync({ timeout: 10_000 })).toBe(true);
    const current = api.get<ReturnType<typeof crd>>(CRDS, undefined, 'widgets.example.com');
    api.update(CRDS, {
      ...current,
      spec: { ...current?.spec, versions: crd([{ name: 'v1', served: false, storage: false }, { name: 'v2', served: true, storage: true }]).spec.versions },
    });
    await waitFor(() => follower.status().phase === 'crdRemoved', 'crdRemoved');
    expect(follower.status()).toEqual({ phase: 'crdRemoved', reason: 'version-not-served' });
    expect(follower.current()).toBeUndefined();
    const again = api.get<ReturnType<typeof crd>>(CRDS, undefined, 'widgets.example.com');
    api.update(CRDS, { ...again, spec: { ...again?.spec, versions: crd([{ name: 'v1', served: true, storage: true }]).spec.versions } });
    expect(await follower.waitForCacheSync({ timeout: 10_000 })).toBe(true);
    expect(follower.status()).toEqual({ phase: 'running' });
  });

  it('a CRD that never becomes established leaves it waiting (not-established) without a single request for the resource', async () => {
    api.create(CRDS, crd(undefined, { [neverEstablishAnnotation]: 'true' }));
    factory = sharedInformerFactory(api.kubeConfig(), { logger: false });
    const follower = factory.followCrd<Widget>(widgets);
    factory.start();
    await waitFor(() => follower.status().phase === 'waitingForCrd' && (follower.status() as { reason: string }).reason === 'not-established', 'not-established');
    expect(await follower.waitForCacheSync({ timeout: 100 })).toBe(false);
    const synced = await factory.waitForCacheSync({ timeout: 100 });
    expect(synced.get('crd:widgets.example.com')).toBe(false);
    expect(synced.get('customresourcedefinitions.apiextensions.k8s.io')).toBe(true);
    expect(widgetRequests()).toBe(0);
  });

  it('stop() while waiting resolves, and waitForCacheSync then answers false', async () => {
    factory = sharedInformerFactory(api.kubeConfig(), { logger: false });
    const follower = factory.followCrd<Widget>(widgets);
    factory.start();
    const waiting = follower.waitForCacheSync();
    await follower.stop();
    expect(await waiting).toBe(false);
  });

  it("a controller watches a CRD-following informer: it syncs once the CRD is established, and its changes reconcile", async () => {
    api.create('configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { namespace: 'ns', name: 'cm' } });
    factory = sharedInformerFactory(api.kubeConfig(), { logger: false });
    const reconciled: string[] = [];
    ctl = controller({
      for: factory.configMaps(),
      forKind: { apiVersion: 'v1', kind: 'ConfigMap' },
      watches: [watch(factory.followCrd<Widget>(widgets), () => ['ns/cm'])],
      cacheSyncTimeout: 20_000,
      reconcile: (key) => {
        reconciled.push(key);
      },
    });
    factory.start();
    ctl.start();
    api.create(CRDS, crd());
    await waitFor(() => reconciled.includes('ns/cm'), 'the first reconcile');
    const before = reconciled.length;
    api.create(widgets, widget('w1'));
    await waitFor(() => reconciled.length > before, 'a reconcile for the widget');
  });
});
