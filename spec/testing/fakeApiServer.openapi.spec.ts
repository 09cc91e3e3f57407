// /openapi/v2 and /openapi/v3 of the fake API server, read through client-node's TLS and credentials.
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import * as clientNode from '@kubernetes/client-node';
import type { KubeConfig } from '@kubernetes/client-node';
import { createHash } from 'node:crypto';
import { startFakeApiServer, type FakeApiServer } from '../../lib/testing/index.js';
import { wireFields } from '../../lib/testing/fakeApiServer/wire/protobuf/wire.js';
import { kubeRequest } from './kubeRequest.js';

type Doc = { paths: Record<string, Record<string, { 'x-kubernetes-group-version-kind'?: object; parameters?: { name: string; in: string }[] }>>; components: { schemas: Record<string, Schema> } };
type Schema = { type?: string; description?: string; required?: string[]; properties?: Record<string, Schema>; items?: Schema; $ref?: string; allOf?: Schema[]; 'x-kubernetes-group-version-kind'?: object[] };

const widgetCrd = (schema: object) => ({
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'widgets.example.com' },
  spec: {
    group: 'example.com',
    scope: 'Namespaced',
    names: { plural: 'widgets', singular: 'widget', kind: 'Widget' },
    versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: schema } }],
  },
});
const WIDGET_SCHEMA = { type: 'object', description: 'A Widget.', properties: { spec: { type: 'object', properties: { size: { type: 'integer', description: 'How big.' } }, required: ['size'] } } };

describe('fake API server: OpenAPI', () => {
  let api: FakeApiServer;
  let kc: KubeConfig;
  beforeEach(async () => {
    api = await startFakeApiServer();
    kc = api.kubeConfig();
  });
  afterEach(() => api.close());

  const getJson = async <T>(path: string): Promise<T> => {
    const res = await kubeRequest(kc, path, { headers: { Accept: 'application/json' } });
    expect(res.status).toBe(200);
    return JSON.parse(res.text) as T;
  };
  const discovery = () => getJson<{ paths: Record<string, { serverRelativeURL: string }> }>('/openapi/v3');

  it('/openapi/v3 lists every served group-version with a URL whose hash is the SHA-512 of its document', async () => {
    const { paths } = await discovery();
    expect(Object.keys(paths)).toEqual(expect.arrayContaining(['api/v1', 'apis/apps/v1', 'apis/batch/v1', 'apis/coordination.k8s.io/v1', 'apis/rbac.authorization.k8s.io/v1', 'apis/apiextensions.k8s.io/v1']));
    const url = paths['apis/coordination.k8s.io/v1'].serverRelativeURL;
    expect(url).toMatch(/^\/openapi\/v3\/apis\/coordination\.k8s\.io\/v1\?hash=[0-9A-F]{128}$/);
    const res = await kubeRequest(kc, url);
    expect(res.status).toBe(200);
    expect(createHash('sha512').update(res.body).digest('hex').toUpperCase()).toBe(url.split('hash=')[1]);
    expect(res.headers['cache-control']).toBe('public, immutable');
    expect(new Date(res.headers.expires!).getTime()).toBeGreaterThan(Date.now() + 300 * 24 * 3600 * 1000);
  });

  it('a stale hash is a 301 to the current URL; an unknown group-version a 404', async () => {
    const stale = await kubeRequest(kc, '/openapi/v3/api/v1?hash=ABC');
    expect(stale.status).toBe(301);
    expect(stale.headers.location).toBe((await discovery()).paths['api/v1'].serverRelativeURL);
    expect((await kubeRequest(kc, '/openapi/v3/apis/nope.example.com/v1')).status).toBe(404);
  });

  it('built-in schemas come from client-node\'s models: every field of V1PodSpec, types, required fields, descriptions, references', async () => {
    const doc = await getJson<Doc>('/openapi/v3/api/v1');
    const schemas = doc.components.schemas;
    const pod = schemas['io.k8s.api.core.v1.Pod'];
    expect(pod['x-kubernetes-group-version-kind']).toEqual([{ group: '', version: 'v1', kind: 'Pod' }]);
    expect(pod.properties!.spec.allOf![0].$ref).toBe('#/components/schemas/io.k8s.api.core.v1.PodSpec');
    expect(pod.properties!.metadata.allOf![0].$ref).toBe('#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta');
    const podSpec = schemas['io.k8s.api.core.v1.PodSpec'];
    const fields = (clientNode.V1PodSpec as unknown as { attributeTypeMap: { baseName: string }[] }).attributeTypeMap.map((a) => a.baseName);
    expect(Object.keys(podSpec.properties!).sort()).toEqual([...fields].sort());
    expect(podSpec.required).toEqual(['containers']);
    expect(podSpec.properties!.containers).toMatchObject({ type: 'array', items: { $ref: '#/components/schemas/io.k8s.api.core.v1.Container' } });
    expect(podSpec.properties!.activeDeadlineSeconds).toMatchObject({ type: 'integer', format: 'int64' });
    expect(podSpec.properties!.containers.description).toContain('List of containers belonging to the pod');
    expect(schemas['io.k8s.api.core.v1.Container'].required).toEqual(['name']);
    expect(schemas['io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta'].properties!.creationTimestamp).toMatchObject({ type: 'string', format: 'date-time' });
    expect(schemas['io.k8s.api.core.v1.PodList']['x-kubernetes-group-version-kind']).toEqual([{ group: '', version: 'v1', kind: 'PodList' }]);
  });

  it('each resource has kube\'s paths; PATCH carries the group-version-kind and fieldValidation (what kubectl looks for)', async () => {
    const doc = await getJson<Doc>('/openapi/v3/apis/apps/v1');
    const item = doc.paths['/apis/apps/v1/namespaces/{namespace}/deployments/{name}'];
    expect(Object.keys(item).sort()).toEqual(['delete', 'get', 'parameters', 'patch', 'put']);
    expect(item.patch['x-kubernetes-group-version-kind']).toEqual({ group: 'apps', version: 'v1', kind: 'Deployment' });
    expect(item.patch.parameters!.filter((p) => p.in === 'query').map((p) => p.name)).toEqual(['dryRun', 'fieldManager', 'fieldValidation', 'force']);
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(['/apis/apps/v1/namespaces/{namespace}/deployments', '/apis/apps/v1/deployments', '/apis/apps/v1/namespaces/{namespace}/deployments/{name}/status']),
    );
  });

  it('a CRD\'s schema is published at once under its group-version, changes with it, and goes with it', async () => {
    const ext = kc.makeApiClient(clientNode.ApiextensionsV1Api);
    expect((await discovery()).paths['apis/example.com/v1']).toBeUndefined();
    await ext.createCustomResourceDefinition({ body: widgetCrd(WIDGET_SCHEMA) });
    const first = (await discovery()).paths['apis/example.com/v1'].serverRelativeURL;
    const doc = await getJson<Doc>(first);
    const widget = doc.components.schemas['com.example.v1.Widget'];
    expect(widget['x-kubernetes-group-version-kind']).toEqual([{ group: 'example.com', version: 'v1', kind: 'Widget' }]);
    expect(widget.description).toBe('A Widget.');
    expect(widget.properties!.spec).toEqual(WIDGET_SCHEMA.properties.spec);
    expect(widget.properties!.metadata.allOf![0].$ref).toBe('#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta');
    expect(doc.components.schemas['io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta']).toBeDefined();
    expect(doc.paths['/apis/example.com/v1/namespaces/{namespace}/widgets/{name}'].patch['x-kubernetes-group-version-kind']).toEqual({ group: 'example.com', version: 'v1', kind: 'Widget' });

    const crd = await ext.readCustomResourceDefinition({ name: 'widgets.example.com' });
    crd.spec.versions[0].schema!.openAPIV3Schema!.description = 'A better Widget.';
    await ext.replaceCustomResourceDefinition({ name: 'widgets.example.com', body: crd });
    const second = (await discovery()).paths['apis/example.com/v1'].serverRelativeURL;
    expect(second).not.toBe(first);
    expect((await getJson<Doc>(second)).components.schemas['com.example.v1.Widget'].description).toBe('A better Widget.');

    await ext.deleteCustomResourceDefinition({ name: 'widgets.example.com' });
    expect((await discovery()).paths['apis/example.com/v1']).toBeUndefined();
  });

  it('a resource registered without a CRD is published as an object of any fields', async () => {
    api.registerResource({ group: 'example.com', version: 'v1', plural: 'gadgets', kind: 'Gadget', namespaced: false });
    const doc = await getJson<Doc>('/openapi/v3/apis/example.com/v1');
    expect(doc.components.schemas['com.example.v1.Gadget']).toMatchObject({ type: 'object', 'x-kubernetes-preserve-unknown-fields': true });
    expect(doc.paths['/apis/example.com/v1/gadgets/{name}']).toBeDefined();
  });

  it('/openapi/v2 is Swagger 2.0 JSON with every definition; an Accept of neither JSON nor gnostic protobuf is a 406', async () => {
    const v2 = await getJson<{ swagger: string; definitions: Record<string, Schema>; paths: Record<string, unknown> }>('/openapi/v2');
    expect(v2.swagger).toBe('2.0');
    expect(v2.definitions['io.k8s.api.coordination.v1.Lease']['x-kubernetes-group-version-kind']).toEqual([{ group: 'coordination.k8s.io', version: 'v1', kind: 'Lease' }]);
    expect(v2.definitions['io.k8s.api.core.v1.Pod'].properties!.spec.$ref).toBe('#/definitions/io.k8s.api.core.v1.PodSpec'); // v2: $ref beside the description, no allOf
    expect(v2.paths['/api/v1/namespaces/{namespace}/pods/{name}']).toBeDefined();
    expect((await kubeRequest(kc, '/openapi/v2', { headers: { Accept: 'text/html' } })).status).toBe(406);
  });

  it('/openapi/v2 as gnostic protobuf (what client-go asks for): Document.swagger, info and every definition by name', async () => {
    const pb = await kubeRequest(kc, '/openapi/v2', { headers: { Accept: 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf' } });
    expect(pb.status).toBe(200);
    expect(pb.headers['content-type']).toBe('application/com.github.proto-openapi.spec.v2.v1.0+protobuf');
    const fields = [...wireFields(pb.body)];
    expect(fields.find((f) => f.number === 1)?.value).toEqual(Buffer.from('2.0'));
    const definitions = fields.find((f) => f.number === 9)!.value as Uint8Array;
    const names = [...wireFields(definitions)].map((named) => Buffer.from([...wireFields(named.value as Uint8Array)].find((f) => f.number === 1)!.value as Uint8Array).toString());
    expect(names).toEqual(expect.arrayContaining(['io.k8s.api.core.v1.Pod', 'io.k8s.api.core.v1.PodSpec', 'io.k8s.api.apps.v1.Deployment', 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta']));
  });

  it('OpenAPI needs authentication like any other path', async () => {
    const anon = await kubeRequest(api.kubeConfig({ token: 'wrong' }), '/openapi/v3');
    expect(anon.status).toBe(401);
  });
});
