// CRD names as kube-apiserver's naming controller accepts them (first come, per group): a CRD whose
// kind (or list kind, plural, singular, short name) another CRD of its group already holds gets
// NamesAccepted False with kube's reason and message, is not Established and is not served, until
// the holder goes. And custom resources kept from a deleted CRD read in the version of the CRD
// created again (as conversion None serves them). Through client-node over HTTPS.
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { ApiextensionsV1Api, CustomObjectsApi, type V1CustomResourceDefinition } from '@kubernetes/client-node';
import { startFakeApiServer, type FakeApiServer } from '../../lib/testing/index.js';
import { waitFor } from '../support/waitFor.js';

interface Condition {
  type: string;
  status: string;
  reason?: string;
  message?: string;
}
const crd = (plural: string, kind: string, version = 'v1', listKind?: string): V1CustomResourceDefinition => ({
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: `${plural}.example.com` },
  spec: {
    group: 'example.com',
    scope: 'Namespaced',
    names: { plural, singular: plural.slice(0, -1), kind, ...(listKind ? { listKind } : {}) },
    versions: [{ name: version, served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', x_kubernetes_preserve_unknown_fields: true } } }],
  },
});

describe('CRD names and versions', () => {
  let api: FakeApiServer;
  let crds: ApiextensionsV1Api;
  let objects: CustomObjectsApi;
  beforeEach(async () => {
    api = await startFakeApiServer({ autoCreateNamespaces: true });
    crds = api.kubeConfig().makeApiClient(ApiextensionsV1Api);
    objects = api.kubeConfig().makeApiClient(CustomObjectsApi);
  });
  afterEach(() => api.close());

  const conditions = (name: string): Condition[] =>
    api.get<{ status?: { conditions?: Condition[] } }>('customresourcedefinitions.apiextensions.k8s.io', undefined, name)?.status?.conditions ?? [];
  const condition = (name: string, type: string) => conditions(name).find((c) => c.type === type);
  const servedStatus = (plural: string) =>
    objects.listNamespacedCustomObject({ group: 'example.com', version: 'v1', namespace: 'shop', plural }).then(
      () => 200,
      (e: { code?: number }) => e.code,
    );

  it('a kind another CRD of the group holds: NamesAccepted False (KindConflict), not Established, not served; accepted once the holder goes', async () => {
    await crds.createCustomResourceDefinition({ body: crd('widgets', 'Widget') });
    await waitFor(() => condition('widgets.example.com', 'Established')?.status === 'True', 'widgets to be established');
    await crds.createCustomResourceDefinition({ body: crd('gadgets', 'Widget', 'v1', 'GadgetList') });
    await waitFor(() => condition('gadgets.example.com', 'NamesAccepted') !== undefined, 'the naming decision on gadgets');
    expect(condition('gadgets.example.com', 'NamesAccepted')).toMatchObject({ status: 'False', reason: 'KindConflict', message: '"Widget" is already in use' });
    expect(condition('gadgets.example.com', 'Established')).toMatchObject({ status: 'False', reason: 'NotAccepted', message: 'not all names are accepted' });
    const read = await crds.readCustomResourceDefinition({ name: 'gadgets.example.com' });
    expect(read.status?.acceptedNames).toMatchObject({ plural: 'gadgets', singular: 'gadget', listKind: 'GadgetList', kind: '' });
    expect(await servedStatus('gadgets')).toBe(404);
    expect(await servedStatus('widgets')).toBe(200);

    await crds.deleteCustomResourceDefinition({ name: 'widgets.example.com' });
    await waitFor(() => condition('gadgets.example.com', 'Established')?.status === 'True', 'gadgets to be established once widgets is gone');
    expect(condition('gadgets.example.com', 'NamesAccepted')).toMatchObject({ status: 'True', reason: 'NoConflicts', message: 'no conflicts found' });
    expect((await crds.readCustomResourceDefinition({ name: 'gadgets.example.com' })).status?.acceptedNames?.kind).toBe('Widget');
    expect(await servedStatus('gadgets')).toBe(200);
  });

  it('the defaulted list kind clashes too (ListKindConflict, the last name checked)', async () => {
    await crds.createCustomResourceDefinition({ body: crd('widgets', 'Widget') });
    await crds.createCustomResourceDefinition({ body: crd('gadgets', 'Widget') });
    await waitFor(() => condition('gadgets.example.com', 'NamesAccepted') !== undefined, 'the naming decision on gadgets');
    expect(condition('gadgets.example.com', 'NamesAccepted')).toMatchObject({ status: 'False', reason: 'ListKindConflict', message: '"WidgetList" is already in use' });
    expect(condition('widgets.example.com', 'Established')?.status).toBe('True');
  });

  it('custom resources kept from a deleted CRD read in the version of the CRD created again', async () => {
    await crds.createCustomResourceDefinition({ body: crd('widgets', 'Widget') });
    await objects.createNamespacedCustomObject({ group: 'example.com', version: 'v1', namespace: 'shop', plural: 'widgets', body: { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w1' } } });
    await crds.deleteCustomResourceDefinition({ name: 'widgets.example.com' });
    await crds.createCustomResourceDefinition({ body: crd('widgets', 'Widget', 'v2') });
    const list = (await objects.listNamespacedCustomObject({ group: 'example.com', version: 'v2', namespace: 'shop', plural: 'widgets' })) as { items: Array<{ apiVersion: string; metadata: { name: string } }> };
    expect(list.items.map((w) => [w.metadata.name, w.apiVersion])).toEqual([['w1', 'example.com/v2']]);
    const one = (await objects.getNamespacedCustomObject({ group: 'example.com', version: 'v2', namespace: 'shop', plural: 'widgets', name: 'w1' })) as { apiVersion: string };
    expect(one.apiVersion).toBe('example.com/v2');
  });
});
