// Tables (issue 33 part 6): GET, LIST and WATCH with `Accept: application/json;as=Table;g=meta.k8s.io;v=v1`
// answer a meta.k8s.io Table, as kube-apiserver does, over HTTPS through client-node's own TLS and
// credentials: kube's columns for built-in types, the CRD's printer columns for custom resources,
// each row's object per includeObject (kube's 400 for other values), headers once per watch.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { KubeConfig } from '@kubernetes/client-node';
import { startFakeApiServer, type FakeApiServer } from '../../lib/testing/index.js';
import { waitFor } from '../support/waitFor.js';
import { kubeRequest } from './kubeRequest.js';

const TABLE = 'application/json;as=Table;v=v1;g=meta.k8s.io';
// What `kubectl get` sends.
const KUBECTL_ACCEPT = 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json';

interface Table {
  kind: string;
  apiVersion: string;
  metadata: { resourceVersion?: string; continue?: string; remainingItemCount?: number };
  columnDefinitions: Array<{ name: string; type: string; format: string; priority: number }> | null;
  rows: Array<{ cells: unknown[]; conditions?: unknown[]; object: { kind?: string; apiVersion?: string; metadata?: { name?: string }; spec?: unknown } | null }>;
}

describe('fake API server: Tables', () => {
  let api: FakeApiServer;
  const established = (crd: string): boolean =>
    (api.get<{ status?: { conditions?: Array<{ type: string; status: string }> } }>('customresourcedefinitions.apiextensions.k8s.io', undefined, crd)?.status?.conditions ?? []).some(
      (c) => c.type === 'Established' && c.status === 'True',
    );
  let kc: KubeConfig;
  const get = async (path: string, accept = TABLE) => {
    const r = await kubeRequest(kc, path, { headers: { Accept: accept } });
    return { status: r.status, type: r.headers['content-type'], json: JSON.parse(r.text) as Table & { message?: string; reason?: string; code?: number } };
  };

  beforeAll(async () => {
    api = await startFakeApiServer({ autoCreateNamespaces: true });
    kc = api.kubeConfig();
    for (const name of ['web-0', 'web-1', 'web-2']) {
      api.create('pods', { metadata: { name, namespace: 'shop', labels: { app: 'web' } }, spec: { nodeName: 'node-1', containers: [{ name: 'app', image: 'nginx' }] } });
    }
    api.updateStatus('pods', { metadata: { name: 'web-2', namespace: 'shop' }, status: { phase: 'Succeeded' } });
  });
  afterAll(() => api.close());

  it('LIST: a meta.k8s.io/v1 Table with kube’s pod columns, one row per pod and the list’s resourceVersion', async () => {
    const { status, type, json } = await get('/api/v1/namespaces/shop/pods', KUBECTL_ACCEPT);
    expect(status).toBe(200);
    expect(type).toBe('application/json');
    expect(json).toMatchObject({ kind: 'Table', apiVersion: 'meta.k8s.io/v1', metadata: { resourceVersion: api.resourceVersion } });
    expect(json.columnDefinitions!.map((c) => `${c.name}${c.priority ? '*' : ''}`)).toEqual([
      'Name',
      'Ready',
      'Status',
      'Restarts',
      'Age',
      'IP*',
      'Node*',
      'Nominated Node*',
      'Readiness Gates*',
    ]);
    expect(json.rows.map((r) => [r.cells[0], r.cells[1], r.cells[2], r.cells[6]])).toEqual([
      ['web-0', '0/1', 'Pending', 'node-1'],
      ['web-1', '0/1', 'Pending', 'node-1'],
      ['web-2', '0/1', 'Succeeded', 'node-1'],
    ]);
    expect(json.rows[2].conditions).toEqual([{ type: 'Completed', status: 'True', reason: 'Succeeded', message: 'The pod has completed successfully.' }]);
    // includeObject defaults to Metadata: each row carries the object's PartialObjectMetadata.
    expect(json.rows[0].object).toEqual({ kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: api.get('pods', 'shop', 'web-0')!.metadata });
  });

  it('LIST with a limit carries continue and remainingItemCount', async () => {
    const { json } = await get('/api/v1/namespaces/shop/pods?limit=2');
    expect(json.rows).toHaveLength(2);
    expect(json.metadata.continue).toEqual(expect.any(String));
    expect(json.metadata.remainingItemCount).toBe(1);
  });

  it('includeObject=Object carries the whole object, None carries null, anything else is kube’s 400', async () => {
    expect((await get('/api/v1/namespaces/shop/pods?includeObject=Object')).json.rows[0].object).toMatchObject({ kind: 'Pod', apiVersion: 'v1', spec: { nodeName: 'node-1' } });
    expect((await get('/api/v1/namespaces/shop/pods?includeObject=None')).json.rows.map((r) => r.object)).toEqual([null, null, null]);
    const bad = await get('/api/v1/namespaces/shop/pods?includeObject=Everything');
    expect(bad.status).toBe(400);
    expect(bad.json).toMatchObject({
      kind: 'Status',
      reason: 'BadRequest',
      code: 400,
      message: `Unable to convert to Table as requested: includeObject: Invalid value: "Everything": must be 'Metadata', 'Object', 'None', or empty`,
    });
    expect((await get('/api/v1/namespaces/shop/pods/web-0?includeObject=Everything')).status).toBe(400);
  });

  it('GET: a one-row Table with the object’s resourceVersion; v1beta1 when asked', async () => {
    const { json } = await get('/api/v1/namespaces/shop/pods/web-1');
    expect(json).toMatchObject({ kind: 'Table', apiVersion: 'meta.k8s.io/v1', metadata: { resourceVersion: api.get('pods', 'shop', 'web-1')!.metadata.resourceVersion } });
    expect(json.rows.map((r) => r.cells[0])).toEqual(['web-1']);
    const beta = await get('/api/v1/namespaces/shop/pods/web-1', 'application/json;as=Table;v=v1beta1;g=meta.k8s.io');
    expect(beta.json).toMatchObject({ kind: 'Table', apiVersion: 'meta.k8s.io/v1beta1', rows: [{ object: { apiVersion: 'meta.k8s.io/v1beta1' } }] });
    expect((await get('/api/v1/namespaces/shop/pods/missing')).status).toBe(404);
  });

  it('GET answers PartialObjectMetadata when asked, and a 406 for a PartialObjectMetadataList', async () => {
    const meta = await get('/api/v1/namespaces/shop/pods/web-0', 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1');
    expect(meta.json).toEqual({ kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: api.get('pods', 'shop', 'web-0')!.metadata });
    const list = await get('/api/v1/namespaces/shop/pods/web-0', 'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1');
    expect(list).toMatchObject({ status: 406, json: { reason: 'NotAcceptable' } });
  });

  it('the types kubectl users see most print kube’s columns; the others Name and Created At', async () => {
    api.create('deployments.apps', {
      metadata: { name: 'web', namespace: 'shop' },
      spec: { replicas: 2, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'app', image: 'nginx' }] } } },
    });
    api.create('roles.rbac.authorization.k8s.io', { metadata: { name: 'reader', namespace: 'shop' }, rules: [] });
    const deployments = (await get('/apis/apps/v1/namespaces/shop/deployments')).json;
    expect(deployments.columnDefinitions!.filter((c) => c.priority === 0).map((c) => c.name)).toEqual(['Name', 'Ready', 'Up-to-date', 'Available', 'Age']);
    expect(deployments.rows[0].cells.slice(0, 4)).toEqual(['web', '0/2', 0, 0]);
    const roles = (await get('/apis/rbac.authorization.k8s.io/v1/namespaces/shop/roles')).json;
    expect(roles.columnDefinitions!.map((c) => [c.name, c.type])).toEqual([
      ['Name', 'string'],
      ['Created At', 'date'],
    ]);
    expect(roles.rows[0].cells).toEqual(['reader', api.get('roles.rbac.authorization.k8s.io', 'shop', 'reader')!.metadata.creationTimestamp]);
  });

  it('custom resources print their served version’s printer columns', async () => {
    api.create('customresourcedefinitions.apiextensions.k8s.io', {
      metadata: { name: 'gadgets.example.com' },
      spec: {
        group: 'example.com',
        scope: 'Namespaced',
        names: { plural: 'gadgets', singular: 'gadget', kind: 'Gadget', listKind: 'GadgetList' },
        versions: [
          {
            name: 'v1',
            served: true,
            storage: true,
            schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
            additionalPrinterColumns: [
              { name: 'Size', type: 'integer', jsonPath: '.spec.size' },
              { name: 'Ready', type: 'string', jsonPath: '.status.conditions[?(@.type=="Ready")].status', priority: 1 },
            ],
          },
        ],
      },
    });
    await waitFor(() => established('gadgets.example.com'), 'the CRD to be established');
    api.create('gadgets.example.com', { apiVersion: 'example.com/v1', kind: 'Gadget', metadata: { name: 'g1', namespace: 'shop' }, spec: { size: 3 }, status: { conditions: [{ type: 'Ready', status: 'True' }] } });
    const { json } = await get('/apis/example.com/v1/namespaces/shop/gadgets');
    expect(json.columnDefinitions!.map((c) => [c.name, c.type, c.priority])).toEqual([
      ['Name', 'string', 0],
      ['Size', 'integer', 0],
      ['Ready', 'string', 1],
    ]);
    expect(json.rows.map((r) => r.cells)).toEqual([['g1', 3, 'True']]);
  });

  it('WATCH: each event a one-row Table, the column definitions in the first only', async () => {
    const r = await kubeRequest(kc, '/api/v1/namespaces/shop/pods?watch=true&timeoutSeconds=1', { headers: { Accept: KUBECTL_ACCEPT } });
    const events = r.text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string; object: Table });
    expect(events.map((e) => [e.type, e.object.kind, e.object.rows.map((row) => row.cells[0])])).toEqual([
      ['ADDED', 'Table', ['web-0']],
      ['ADDED', 'Table', ['web-1']],
      ['ADDED', 'Table', ['web-2']],
    ]);
    expect(events[0].object.columnDefinitions!.map((c) => c.name)).toContain('Readiness Gates');
    expect(events.slice(1).map((e) => e.object.columnDefinitions)).toEqual([null, null]);
    expect(events[1].object.metadata.resourceVersion).toBe(api.get('pods', 'shop', 'web-1')!.metadata.resourceVersion);
  });

  it('plain JSON and metadata-only reads are as before', async () => {
    expect((await get('/api/v1/namespaces/shop/pods', 'application/json')).json.kind).toBe('PodList');
    expect((await get('/api/v1/namespaces/shop/pods', 'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1')).json.kind).toBe('PartialObjectMetadataList');
    expect((await get('/api/v1/namespaces/shop/pods/web-0', 'application/json')).json.kind).toBe('Pod');
  });
});
