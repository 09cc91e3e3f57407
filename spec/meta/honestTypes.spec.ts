// Honest types: what the factory and listers hand out is typed as the JSON that arrived (timestamps
// are strings), custom resources need no casts, and client-node's model classes are still accepted.
// The `@ts-expect-error` lines fail the type-check (tsconfig.spec.json) if a type becomes dishonest.
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import type { V1Deployment, V1Pod } from '@kubernetes/client-node';
import type { ObjectMeta as KtObjectMeta } from 'kubernetes-types/meta/v1.js';
import type { Pod } from 'kubernetes-types/core/v1.js';
import '../../lib/transport/clientNode.js';
import { sharedInformerFactory, type SharedInformerFactory } from '../../lib/factory/sharedInformerFactory.js';
import { addFinalizer, hasFinalizer, isBeingDeleted } from '../../lib/meta/finalizers.js';
import { controllerOf } from '../../lib/meta/controllerOf.js';
import type { KubeObject, KubeObjectLike, ObjectMeta } from '../../lib/meta/kubeObject.js';
import { jsonPatch } from '../../lib/write/jsonPatch.js';
import { mergePatch } from '../../lib/write/mergePatch.js';
import { startFakeApiServer, type FakeApiServer } from '../../lib/testing/index.js';

/** A custom resource as a user writes it: no casts anywhere below. */
interface Widget extends KubeObject {
  spec?: { size: number };
}
const widgets = { group: 'example.com', version: 'v1', plural: 'widgets', namespaced: true } as const;

let api: FakeApiServer;
let factory: SharedInformerFactory | undefined;

beforeEach(async () => {
  api = await startFakeApiServer({ namespaces: ['ns'] });
  api.registerResource({ ...widgets, kind: 'Widget' });
});

afterEach(async () => {
  await factory?.shutdown();
  factory = undefined;
  await api.close();
});

describe('honest types', () => {
  it('a pod from the lister has string timestamps, typed and at run time', async () => {
    api.create('pods', { apiVersion: 'v1', kind: 'Pod', metadata: { namespace: 'ns', name: 'a' }, spec: { containers: [{ name: 'c', image: 'nginx' }] } });
    factory = sharedInformerFactory(api.kubeConfig());
    const pods = factory.pods();
    factory.start();
    await factory.waitForCacheSync();
    const pod: Pod | undefined = pods.lister().get('ns/a');
    const created: string | undefined = pod?.metadata?.creationTimestamp;
    expect(typeof created).toBe('string');
    expect(Number.isNaN(Date.parse(created ?? ''))).toBe(false);
    // @ts-expect-error a timestamp is a string, not a Date: this threw at run time when typed as V1Pod
    expect(() => pod?.metadata?.creationTimestamp?.getTime()).toThrow(TypeError);
  });

  it('a custom resource with finalizers, deletion timestamp and generation compiles and works without casts', async () => {
    api.create<Widget>(widgets, {
      apiVersion: 'example.com/v1',
      kind: 'Widget',
      metadata: { namespace: 'ns', name: 'w', finalizers: ['example.com/cleanup'] },
      spec: { size: 1 },
    });
    factory = sharedInformerFactory(api.kubeConfig());
    const inf = factory.informerFor<Widget>(widgets);
    factory.start();
    await factory.waitForCacheSync();
    const w = inf.lister().get('ns/w');
    if (w === undefined) throw new Error('widget not synced');
    const finalizers: ReadonlyArray<string> | undefined = w.metadata?.finalizers;
    const generation: number | undefined = w.metadata?.generation;
    const deletion: string | undefined = w.metadata?.deletionTimestamp;
    expect(finalizers).toEqual(['example.com/cleanup']);
    expect(generation).toBe(1);
    expect(deletion).toBeUndefined();
    expect(hasFinalizer(w, 'example.com/cleanup')).toBe(true);
    expect(isBeingDeleted(w)).toBe(false);
    expect(controllerOf(w)).toBeUndefined();
    const patch = jsonPatch(w, (d) => {
      addFinalizer(d, 'example.com/other');
    });
    expect(patch.map((op) => op.op)).toEqual(['test', 'add']);
    // @ts-expect-error generation is a number
    const wrong: string | undefined = w.metadata?.generation;
    expect(wrong).toBe(1);
  });

  it("client-node's model classes (Date timestamps) are still accepted by the generic functions", () => {
    const v1pod: V1Pod = { metadata: { name: 'a', creationTimestamp: new Date(0), finalizers: ['f'] } };
    const deployment: V1Deployment = { metadata: { name: 'd', resourceVersion: '1' }, spec: { selector: {}, template: {} } };
    const accepted: KubeObjectLike = v1pod;
    expect(hasFinalizer(v1pod, 'f')).toBe(true);
    expect(mergePatch(deployment, (d) => { d.spec!.replicas = 2; })).toEqual({ metadata: { resourceVersion: '1' }, spec: { replicas: 2 } });
    expect(accepted.metadata?.name).toBe('a');
    // @ts-expect-error a client-node model is not the honest JSON type: its timestamps are Dates
    const honest: KubeObject = v1pod;
    expect(honest).toBe(v1pod);
  });

  it("rxkube's ObjectMeta and kubernetes-types' ObjectMeta are the same shape", () => {
    const kt: KtObjectMeta = { name: 'a', finalizers: ['f'], creationTimestamp: '2026-01-01T00:00:00Z' };
    const ours: ObjectMeta = kt;
    const back: KtObjectMeta = { ...ours, ownerReferences: [...(ours.ownerReferences ?? [])], managedFields: [] };
    expect(back.name).toBe('a');
  });
});
