// Custom resources on the fake API server as on a real one (a CustomResourceDefinition POSTed over
// HTTP makes the server serve it), one object describing a resource for both the server and an
// informer, a plain-HTTP kubeconfig client-node accepts, and the ownership-chain fixtures.
import { afterEach, describe, expect, it } from '@jest/globals';
import {
  ApiextensionsV1Api,
  CoreV1Api,
  CustomObjectsApi,
  type V1CustomResourceDefinition,
} from '@kubernetes/client-node';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import '../../lib/transport/clientNode.js';
import { sharedInformerFactory, type SharedInformerFactory } from '../../lib/factory/sharedInformerFactory.js';
import { labelSelectorFromObject } from '../../lib/labels/labelSelector.js';
import type { KubeObject } from '../../lib/meta/kubeObject.js';
import type { Resource } from '../../lib/listwatch/resource.js';
import { RxkubeError } from '../../lib/errors.js';
import { createDeploymentChain, podFixture, startFakeApiServer, type FakeApiServer } from '../../lib/testing/index.js';
import { BIN_START_TIMEOUT, startFakeApiServerBin } from './fakeApiServerBin.js';

const crd: V1CustomResourceDefinition = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'widgets.example.com' },
  spec: {
    group: 'example.com',
    scope: 'Namespaced',
    names: { plural: 'widgets', singular: 'widget', kind: 'Widget', shortNames: ['wd'] },
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        schema: { openAPIV3Schema: { type: 'object' } },
      },
    ],
  },
};
const widgets: Resource = { group: 'example.com', version: 'v1', plural: 'widgets', kind: 'Widget', namespaced: true };

let api: FakeApiServer | undefined;
let factory: SharedInformerFactory | undefined;
afterEach(async () => {
  await factory?.shutdown();
  await api?.close();
  factory = undefined;
  api = undefined;
});

describe('custom resources on the fake API server', () => {
  it('a CustomResourceDefinition POSTed through client-node makes the server serve the resource to clients and informers', async () => {
    api = await startFakeApiServer({ namespaces: ['shop'] });
    const kc = api.kubeConfig();
    await kc.makeApiClient(ApiextensionsV1Api).createCustomResourceDefinition({ body: crd });
    await kc
      .makeApiClient(CustomObjectsApi)
      .createNamespacedCustomObject({
        group: 'example.com',
        version: 'v1',
        namespace: 'default',
        plural: 'widgets',
        body: { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w1' }, spec: { size: 3 } },
      });
    const resources = await kc.makeApiClient(CustomObjectsApi).listNamespacedCustomObject({
      group: 'example.com',
      version: 'v1',
      namespace: 'default',
      plural: 'widgets',
    });
    expect((resources as { items: Array<{ metadata: { name: string } }> }).items.map((w) => w.metadata.name)).toEqual(['w1']);

    factory = sharedInformerFactory(kc, { logger: false });
    const informer = factory.informerFor<KubeObject>(widgets);
    factory.start();
    expect(await factory.waitForCacheSync()).toEqual(new Map([['widgets.example.com', true]]));
    expect(informer.lister().get('default/w1')?.metadata?.name).toBe('w1');
  });

  it('discovery lists the resource once its CRD exists, and it is gone when the CRD is deleted', async () => {
    api = await startFakeApiServer({ namespaces: ['shop'], http: true });
    const get = async (path: string) => fetch(`${api!.url}${path}`);
    expect((await get('/apis/example.com/v1')).status).toBe(404);
    const created = await fetch(`${api.url}/apis/apiextensions.k8s.io/v1/customresourcedefinitions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(crd),
    });
    expect(created.status).toBe(201);
    const doc = (await (await get('/apis/example.com/v1')).json()) as { resources: Array<{ name: string; kind: string }> };
    expect(doc.resources).toContainEqual(expect.objectContaining({ name: 'widgets', kind: 'Widget' }));
    const groups = (await (await get('/apis')).json()) as { groups: Array<{ name: string }> };
    expect(groups.groups.map((g) => g.name)).toContain('example.com');
    expect((await get('/apis/example.com/v1/namespaces/default/widgets')).status).toBe(200);
    const deleted = await fetch(`${api.url}/apis/apiextensions.k8s.io/v1/customresourcedefinitions/widgets.example.com`, {
      method: 'DELETE',
    });
    expect(deleted.status).toBe(200);
    expect((await get('/apis/example.com/v1/namespaces/default/widgets')).status).toBe(404);
  });

  it('one Resource object describes the resource to the server and to the informer (they agree on kind)', async () => {
    api = await startFakeApiServer({ namespaces: ['shop'] });
    api.registerResource(widgets);
    api.create(widgets, { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w', namespace: 'shop' } });
    factory = sharedInformerFactory(api.kubeConfig(), { logger: false });
    const informer = factory.informerFor<KubeObject>(widgets);
    factory.start();
    await factory.waitForCacheSync();
    expect(informer.lister().byNamespace('shop').list().map((w) => w.metadata?.name)).toEqual(['w']);
    const { kind, ...withoutKind } = widgets;
    expect(kind).toBe('Widget');
    expect(() => api!.registerResource(withoutKind)).toThrow(RxkubeError);
    expect(() => api!.registerResource(withoutKind)).toThrow("has no kind; set kind (e.g. 'Widget')");
  });
});

describe('startFakeApiServer({ http: true }).kubeConfig()', () => {
  it('is accepted by client-node as is (1.4 refuses http:// without skipTLSVerify), and an informer syncs through it', async () => {
    api = await startFakeApiServer({ namespaces: ['shop'], http: true });
    api.create('pods', podFixture({ name: 'a' }));
    const kc = api.kubeConfig();
    const pods = await kc.makeApiClient(CoreV1Api).listNamespacedPod({ namespace: 'default' });
    expect(pods.items.map((p) => p.metadata?.name)).toEqual(['a']);
    factory = sharedInformerFactory(kc, { logger: false });
    const informer = factory.pods();
    factory.start();
    expect(await informer.waitForCacheSync()).toBe(true);
    expect(informer.lister().list()).toHaveLength(1);
  });
});

describe('ownership-chain fixtures (the fake server runs no controllers)', () => {
  it('createDeploymentChain: Deployment -> ReplicaSet -> Pods, ownerReferences with real uids, labels matching selectors', async () => {
    api = await startFakeApiServer({ namespaces: ['shop'], http: true });
    const { deployment, replicaSet, pods } = createDeploymentChain(api, {
      name: 'web',
      namespace: 'shop',
      replicas: 3,
      labels: { app: 'web', tier: 'frontend' },
    });
    expect(pods).toHaveLength(3);
    expect(replicaSet.metadata.ownerReferences).toEqual([
      { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', uid: deployment.metadata.uid, controller: true, blockOwnerDeletion: true },
    ]);
    for (const pod of pods) {
      expect(pod.metadata.ownerReferences?.[0]).toMatchObject({ kind: 'ReplicaSet', uid: replicaSet.metadata.uid, controller: true });
      expect(labelSelectorFromObject(replicaSet.spec?.selector).matches(pod.metadata.labels)).toBe(true);
      expect(labelSelectorFromObject(deployment.spec?.selector).matches(pod.metadata.labels)).toBe(true);
    }
    expect(labelSelectorFromObject(deployment.spec?.selector).matches(replicaSet.metadata.labels)).toBe(true);
    expect(new Set(pods.map((p) => p.metadata.name)).size).toBe(3);
    expect(api.get('pods', 'shop', pods[0].metadata.name)).toBeDefined();
  });
});

describe('rxkube-fake-apiserver --crd FILE', () => {
  it('serves the CustomResourceDefinitions of a YAML file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rxkube-crd-'));
    const file = join(dir, 'crd.yaml');
    writeFileSync(
      file,
      [
        'apiVersion: apiextensions.k8s.io/v1',
        'kind: CustomResourceDefinition',
        'metadata:',
        '  name: widgets.example.com',
        'spec:',
        '  group: example.com',
        '  scope: Namespaced',
        '  names: { plural: widgets, singular: widget, kind: Widget }',
        '  versions:',
        '    - name: v1',
        '      served: true',
        '      storage: true',
        '      schema: { openAPIV3Schema: { type: object, x-kubernetes-preserve-unknown-fields: true } }',
        '---',
        '',
      ].join('\n'),
    );
    // Through the shared starter: node with tsx's loader (the tsx CLI kills its child on a loaded
    // machine) and a bounded start.
    const { child, url, exited } = await startFakeApiServerBin(['--http', '--port', '0', '--crd', file]);
    try {
      const list = await fetch(`${url}/apis/example.com/v1/namespaces/default/widgets`);
      expect(list.status).toBe(200);
      expect(((await list.json()) as { kind: string }).kind).toBe('WidgetList');
    } finally {
      child.kill('SIGTERM');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    }
  }, BIN_START_TIMEOUT + 30_000);
});
