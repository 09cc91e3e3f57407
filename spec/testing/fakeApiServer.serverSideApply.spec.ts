// Server-side apply and managedFields on the fake API server, as TESTCLUSTER.md §2 describes a real
// cluster: through client-node's typed clients over HTTP (and a raw client for headers and bodies
// client-node would not send).
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import {
  ApiextensionsV1Api,
  AppsV1Api,
  CoreV1Api,
  CustomObjectsApi,
  PatchStrategy,
  setHeaderOptions,
  type V1ConfigMap,
  type V1Deployment,
  type V1ManagedFieldsEntry,
} from '@kubernetes/client-node';
import { startFakeApiServer, type FakeApiServer } from '../../lib/testing/index.js';
import { raw } from './rawClient.js';

const APPLY = setHeaderOptions('Content-Type', PatchStrategy.ServerSideApply);
const CMS = '/api/v1/namespaces/default/configmaps';
const DEPLOYS = '/apis/apps/v1/namespaces/default/deployments';

const deployment = (spec: object, name = 'web'): V1Deployment => ({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name }, spec } as V1Deployment);
const template = (containers: object[]) => ({ metadata: { labels: { app: 'web' } }, spec: { containers } });

/** The entries of `obj`'s managedFields, without their times. */
const entries = (obj: { metadata?: { managedFields?: V1ManagedFieldsEntry[] } }) =>
  (obj.metadata?.managedFields ?? []).map(({ time: _time, ...rest }) => rest);
const entryOf = (obj: { metadata?: { managedFields?: V1ManagedFieldsEntry[] } }, manager: string, operation = 'Apply') =>
  obj.metadata?.managedFields?.find((e) => e.manager === manager && e.operation === operation);

describe('fake API server: managedFields and server-side apply (TESTCLUSTER.md §2)', () => {
  let api: FakeApiServer;
  let core: CoreV1Api;
  let apps: AppsV1Api;
  beforeEach(async () => {
    api = await startFakeApiServer();
    core = api.kubeConfig().makeApiClient(CoreV1Api);
    apps = api.kubeConfig().makeApiClient(AppsV1Api);
  });
  afterEach(() => api.close());

  describe('managedFields on every write (Update operations)', () => {
    it('a create records the fieldManager as an Update entry owning every field it set (maps with ".")', async () => {
      const cm = await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'a', labels: { app: 'x' } }, data: { k: 'v' } }, fieldManager: 'creator' });
      const [e] = cm.metadata!.managedFields!;
      expect(e.time).toBeInstanceOf(Date); // client-node parses the RFC 3339 time
      const r = await raw(api, `${CMS}/a`);
      expect(r.json.metadata.managedFields[0].time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
      expect(entries(cm)).toEqual([{
        manager: 'creator',
        operation: 'Update',
        apiVersion: 'v1',
        fieldsType: 'FieldsV1',
        fieldsV1: { 'f:data': { '.': {}, 'f:k': {} }, 'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } } },
      }]);
    });

    it('without fieldManager the manager is the user agent before its first "/"; in-process writes are "rxkube-testing"', async () => {
      const r = await raw(api, CMS, { method: 'POST', body: { metadata: { name: 'ua' }, data: { a: '1' } }, headers: { 'User-Agent': 'my-tool/1.2 (linux/amd64)' } });
      expect(r.json.metadata.managedFields.map((e: V1ManagedFieldsEntry) => e.manager)).toEqual(['my-tool']);
      const local = api.create<V1ConfigMap>('configmaps', { metadata: { name: 'local', namespace: 'default' }, data: { a: '1' } });
      expect(local.metadata.managedFields?.map((e) => e.manager)).toEqual(['rxkube-testing']);
    });

    it('a PUT or patch by another manager takes the fields it changed from their owner; one entry per manager and operation', async () => {
      await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'a' }, data: { x: '1', y: '1' } }, fieldManager: 'creator' });
      const cm = await core.readNamespacedConfigMap({ name: 'a', namespace: 'default' });
      const put = await core.replaceNamespacedConfigMap({ name: 'a', namespace: 'default', body: { ...cm, data: { x: '2', y: '1' } }, fieldManager: 'editor' });
      expect(entries(put)).toEqual([
        { manager: 'creator', operation: 'Update', apiVersion: 'v1', fieldsType: 'FieldsV1', fieldsV1: { 'f:data': { '.': {}, 'f:y': {} } } },
        { manager: 'editor', operation: 'Update', apiVersion: 'v1', fieldsType: 'FieldsV1', fieldsV1: { 'f:data': { 'f:x': {} } } },
      ]);
      const merged = await core.patchNamespacedConfigMap(
        { name: 'a', namespace: 'default', body: { data: { y: '3', z: '1' } }, fieldManager: 'editor' },
        setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
      );
      expect(entries(merged)).toEqual([
        { manager: 'creator', operation: 'Update', apiVersion: 'v1', fieldsType: 'FieldsV1', fieldsV1: { 'f:data': {} } }, // FieldsV1: a leaf {} is the map itself
        { manager: 'editor', operation: 'Update', apiVersion: 'v1', fieldsType: 'FieldsV1', fieldsV1: { 'f:data': { 'f:x': {}, 'f:y': {}, 'f:z': {} } } },
      ]);
    });

    it('at most ten Update entries: the oldest fold into "ancient-changes"', async () => {
      await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'a' }, data: { m0: '0' } }, fieldManager: 'm0' });
      for (let i = 1; i <= 11; i++) {
        await core.patchNamespacedConfigMap({ name: 'a', namespace: 'default', body: { data: { [`m${i}`]: String(i) } }, fieldManager: `m${i}` }, setHeaderOptions('Content-Type', PatchStrategy.MergePatch));
      }
      const r = await raw(api, `${CMS}/a`);
      const managers = r.json.metadata.managedFields.map((e: V1ManagedFieldsEntry) => e.manager);
      expect(managers).toHaveLength(10);
      expect(managers).toContain('ancient-changes');
      expect(managers).toContain('m11');
      // Every field is still owned by someone.
      const owned = r.json.metadata.managedFields.flatMap((e: { fieldsV1: { 'f:data': object } }) => Object.keys(e.fieldsV1['f:data']).filter((k) => k !== '.'));
      expect(owned.sort()).toEqual(Array.from({ length: 12 }, (_, i) => `f:m${i}`).sort());
    });

    it('an apply carrying metadata.resourceVersion is conditional on it (409 when stale)', async () => {
      const body = (rv?: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', ...(rv ? { resourceVersion: rv } : {}) }, data: { k: 'v' } });
      const created = await raw(api, `${CMS}/a`, { method: 'PATCH', contentType: 'application/apply-patch+yaml', query: { fieldManager: 'ctl' }, body: body() });
      api.patch('configmaps', 'default', 'a', { data: { other: '1' } });
      const stale = await raw(api, `${CMS}/a`, { method: 'PATCH', contentType: 'application/apply-patch+yaml', query: { fieldManager: 'ctl' }, body: body(created.json.metadata.resourceVersion) });
      expect([stale.status, stale.json.reason]).toEqual([409, 'Conflict']);
    });

    it('managedFields [] or [{}] in a PUT resets them; a field removed leaves every owner', async () => {
      await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'a' }, data: { x: '1', y: '1' } }, fieldManager: 'creator' });
      const cm = await core.readNamespacedConfigMap({ name: 'a', namespace: 'default' });
      const removed = await core.replaceNamespacedConfigMap({ name: 'a', namespace: 'default', body: { ...cm, data: { x: '1' } }, fieldManager: 'editor' });
      expect(entries(removed)).toEqual([{ manager: 'creator', operation: 'Update', apiVersion: 'v1', fieldsType: 'FieldsV1', fieldsV1: { 'f:data': { '.': {}, 'f:x': {} } } }]);
      const reset = await raw(api, `${CMS}/a`, { method: 'PUT', body: { ...removed, metadata: { ...removed.metadata, managedFields: [{}] } } });
      expect(reset.status).toBe(200);
      expect(reset.json.metadata.managedFields).toBeUndefined();
    });
  });

  describe('apply', () => {
    // A Deployment needs its selector and template (kube: 422 without them): manager "seed" applies
    // them first, so that each test's managers own only the fields the test is about.
    const seed = () =>
      apps.patchNamespacedDeployment(
        { name: 'web', namespace: 'default', body: deployment({ selector: { matchLabels: { app: 'web' } }, template: template([{ name: 'web', image: 'web:1' }]) }), fieldManager: 'seed' },
        APPLY,
      );

    it('creates a missing object (201) with an Apply entry owning exactly the applied fields', async () => {
      const r = await raw(api, `${CMS}/a`, { method: 'PATCH', contentType: 'application/apply-patch+yaml', query: { fieldManager: 'ctl' }, body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', labels: { app: 'x' } }, data: { k: 'v' } } });
      expect(r.status).toBe(201);
      expect(entries(r.json)).toEqual([
        { manager: 'ctl', operation: 'Apply', apiVersion: 'v1', fieldsType: 'FieldsV1', fieldsV1: { 'f:data': { 'f:k': {} }, 'f:metadata': { 'f:labels': { 'f:app': {} } } } },
      ]);
      const again = await raw(api, `${CMS}/a`, { method: 'PATCH', contentType: 'application/apply-patch+yaml', query: { fieldManager: 'ctl' }, body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', labels: { app: 'x' } }, data: { k: 'v' } } });
      expect(again.status).toBe(200);
      expect(again.json.metadata.resourceVersion).toBe(r.json.metadata.resourceVersion); // a no-op apply writes nothing
    });

    it('a field the applier stops applying is removed, unless another manager owns it too', async () => {
      const apply = (data: Record<string, string>, manager = 'ctl') =>
        core.patchNamespacedConfigMap({ name: 'a', namespace: 'default', body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' }, data }, fieldManager: manager }, APPLY);
      await apply({ x: '1', y: '1', z: '1' });
      await apply({ y: '1' }, 'other'); // same value: shared ownership, no conflict
      const after = await apply({ x: '1' });
      expect(after.data).toEqual({ x: '1', y: '1' });
      expect(entryOf(after, 'ctl')?.fieldsV1).toEqual({ 'f:data': { 'f:x': {} } });
      expect(entryOf(after, 'other')?.fieldsV1).toEqual({ 'f:data': { 'f:y': {} } });
    });

    it('changing a field another manager owns is a 409 Conflict with FieldManagerConflict causes, worded as kube', async () => {
      await seed();
      await apps.patchNamespacedDeployment({ name: 'web', namespace: 'default', body: deployment({ replicas: 1 }), fieldManager: 'mgr' }, APPLY);
      const r = await raw(api, `${DEPLOYS}/web`, { method: 'PATCH', contentType: 'application/apply-patch+yaml', query: { fieldManager: 'other' }, body: deployment({ replicas: 2 }) });
      expect(r.status).toBe(409);
      expect(r.json).toEqual({
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message: 'Apply failed with 1 conflict: conflict with "mgr": .spec.replicas',
        reason: 'Conflict',
        details: { causes: [{ reason: 'FieldManagerConflict', message: 'conflict with "mgr"', field: '.spec.replicas' }] },
        code: 409,
      });
      // client-node surfaces the same 409
      await expect(apps.patchNamespacedDeployment({ name: 'web', namespace: 'default', body: deployment({ replicas: 2 }), fieldManager: 'other' }, APPLY)).rejects.toMatchObject({ code: 409 });
    });

    it('several conflicts: grouped by manager (sorted), an Update manager named with its apiVersion', async () => {
      await seed();
      await apps.patchNamespacedDeployment({ name: 'web', namespace: 'default', body: deployment({ replicas: 1, minReadySeconds: 1 }), fieldManager: 'b-apply' }, APPLY);
      await apps.patchNamespacedDeployment(
        { name: 'web', namespace: 'default', body: { spec: { paused: true } }, fieldManager: 'a-editor' },
        setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
      );
      const r = await raw(api, `${DEPLOYS}/web`, { method: 'PATCH', contentType: 'application/apply-patch+yaml', query: { fieldManager: 'c' }, body: deployment({ replicas: 2, minReadySeconds: 2, paused: false }) });
      expect(r.status).toBe(409);
      expect(r.json.message).toBe('Apply failed with 3 conflicts: conflicts with "a-editor" using apps/v1:\n- .spec.paused\nconflicts with "b-apply":\n- .spec.minReadySeconds\n- .spec.replicas');
      expect(r.json.details.causes).toEqual([
        { reason: 'FieldManagerConflict', message: 'conflict with "a-editor" using apps/v1', field: '.spec.paused' },
        { reason: 'FieldManagerConflict', message: 'conflict with "b-apply"', field: '.spec.minReadySeconds' },
        { reason: 'FieldManagerConflict', message: 'conflict with "b-apply"', field: '.spec.replicas' },
      ]);
    });

    it('force=true takes ownership of the conflicting fields', async () => {
      await seed();
      await apps.patchNamespacedDeployment({ name: 'web', namespace: 'default', body: deployment({ replicas: 1, minReadySeconds: 1 }), fieldManager: 'mgr' }, APPLY);
      const d = await apps.patchNamespacedDeployment({ name: 'web', namespace: 'default', body: deployment({ replicas: 5 }), fieldManager: 'hpa', force: true }, APPLY);
      expect(d.spec?.replicas).toBe(5);
      expect(entryOf(d, 'hpa')?.fieldsV1).toEqual({ 'f:spec': { 'f:replicas': {} } });
      expect(entryOf(d, 'mgr')?.fieldsV1).toEqual({ 'f:spec': { 'f:minReadySeconds': {} } });
    });

    it('lists merge as kube: containers by name, ports by containerPort+protocol (TCP by default), finalizers as a set, args atomic', async () => {
      await seed();
      const web = { name: 'web', image: 'web:1', args: ['a'], ports: [{ containerPort: 80 }] };
      await apps.patchNamespacedDeployment({ name: 'web', namespace: 'default', body: { ...deployment({ template: template([web]) }), metadata: { name: 'web', finalizers: ['x/a'] } } as V1Deployment, fieldManager: 'a' }, APPLY);
      const both = await apps.patchNamespacedDeployment(
        { name: 'web', namespace: 'default', body: { ...deployment({ template: template([{ name: 'sidecar', image: 'side:1' }]) }), metadata: { name: 'web', finalizers: ['x/b'] } } as V1Deployment, fieldManager: 'b' },
        APPLY,
      );
      expect(both.spec?.template.spec?.containers.map((c) => c.name)).toEqual(['web', 'sidecar']);
      expect(both.metadata?.finalizers).toEqual(['x/a', 'x/b']);
      expect(entryOf(both, 'a')?.fieldsV1).toEqual({
        'f:metadata': { 'f:finalizers': { 'v:"x/a"': {} } },
        'f:spec': {
          'f:template': {
            'f:metadata': { 'f:labels': { 'f:app': {} } },
            'f:spec': {
              'f:containers': {
                'k:{"name":"web"}': { '.': {}, 'f:args': {}, 'f:image': {}, 'f:name': {}, 'f:ports': { 'k:{"containerPort":80,"protocol":"TCP"}': { '.': {}, 'f:containerPort': {} } } },
              },
            },
          },
        },
      });
      const conflict = await raw(api, `${DEPLOYS}/web`, { method: 'PATCH', contentType: 'application/apply-patch+yaml', query: { fieldManager: 'b' }, body: deployment({ template: template([{ name: 'web', args: ['a', 'b'] }]) }) });
      expect(conflict.status).toBe(409);
      expect(conflict.json.details.causes).toEqual([{ reason: 'FieldManagerConflict', message: 'conflict with "a"', field: '.spec.template.spec.containers[name="web"].args' }]);
    });

    it('a keyed list item without its keys is the real server\'s 500', async () => {
      const r = await raw(api, `${DEPLOYS}/web`, { method: 'PATCH', contentType: 'application/apply-patch+yaml', query: { fieldManager: 'a' }, body: deployment({ template: template([{ image: 'x' }]) }) });
      expect(r.status).toBe(500);
      expect(r.json.message).toMatch(/^failed to create typed patch object \(default\/web; apps\/v1, Kind=Deployment\): element 0: associative list with keys has an element that omits all key fields \["name"\]/);
    });

    it('apply to /status changes only status, records subresource "status"; the main resource ignores status; /status of a missing object is 404', async () => {
      await seed();
      const body = { ...deployment({ replicas: 1 }), status: { replicas: 7 } } as V1Deployment;
      const created = await apps.patchNamespacedDeployment({ name: 'web', namespace: 'default', body, fieldManager: 'ctl' }, APPLY);
      expect(created.status?.replicas).toBeUndefined(); // the main resource drops the applied status
      const st = await apps.patchNamespacedDeploymentStatus(
        { name: 'web', namespace: 'default', body: { ...deployment({ replicas: 9 }), status: { replicas: 3, conditions: [{ type: 'Available', status: 'True' }] } } as V1Deployment, fieldManager: 'ctl' },
        APPLY,
      );
      expect(st.spec?.replicas).toBe(1);
      expect(st.status?.replicas).toBe(3);
      expect(entries(st).filter((e) => e.manager !== 'seed')).toEqual([
        { manager: 'ctl', operation: 'Apply', apiVersion: 'apps/v1', fieldsType: 'FieldsV1', fieldsV1: { 'f:spec': { 'f:replicas': {} } } },
        {
          manager: 'ctl',
          operation: 'Apply',
          apiVersion: 'apps/v1',
          fieldsType: 'FieldsV1',
          fieldsV1: { 'f:status': { 'f:conditions': { 'k:{"type":"Available"}': { '.': {}, 'f:status': {}, 'f:type': {} } }, 'f:replicas': {} } },
          subresource: 'status',
        },
      ]);
      const missing = await raw(api, `${DEPLOYS}/nope/status`, { method: 'PATCH', contentType: 'application/apply-patch+yaml', query: { fieldManager: 'ctl' }, body: { ...deployment({}, 'nope'), status: { replicas: 1 } } });
      expect(missing.status).toBe(404);
      const other = await raw(api, `${DEPLOYS}/web/status`, { method: 'PATCH', contentType: 'application/apply-patch+yaml', query: { fieldManager: 'other' }, body: { ...deployment({}), status: { replicas: 4 } } });
      expect(other.json.message).toBe('Apply failed with 1 conflict: conflict with "ctl" with subresource "status": .status.replicas');
    });

    it('bad input gets the real server\'s answers', async () => {
      const apply = (body: unknown, query: Record<string, string> = { fieldManager: 'ctl' }, name = 'a') =>
        raw(api, `${CMS}/${name}`, { method: 'PATCH', contentType: 'application/apply-patch+yaml', query, body });
      const noManager = await apply({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' } }, {});
      expect([noManager.status, noManager.json.reason, noManager.json.message]).toEqual([422, 'Invalid', 'PatchOptions.meta.k8s.io "" is invalid: fieldManager: Required value: is required for apply patch']);
      expect(noManager.json.details).toEqual({ name: '', group: 'meta.k8s.io', kind: 'PatchOptions', causes: [{ reason: 'FieldValueRequired', message: 'Required value: is required for apply patch', field: 'fieldManager' }] });
      const notObject = await apply([1]);
      expect([notObject.status, notObject.json.message]).toEqual([400, 'error decoding patch: json: cannot unmarshal array into Go value of type map[string]interface {}']);
      expect((await apply({ metadata: { name: 'a' } })).json.message).toBe('invalid object type: /, Kind=');
      expect((await apply({ apiVersion: 'v1', metadata: { name: 'a' } })).json.message).toBe('invalid object type: /v1, Kind=');
      expect((await apply({ apiVersion: 'apps/v1', kind: 'ConfigMap', metadata: { name: 'a' } })).json.message).toBe('invalid object type: apps/v1, Kind=ConfigMap');
      const noName = await apply({ apiVersion: 'v1', kind: 'ConfigMap', metadata: {} });
      expect([noName.status, noName.json.message]).toEqual([400, 'the name of the object () does not match the name on the URL (a)']);
      const otherName = await apply({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'b' } });
      expect([otherName.status, otherName.json.message]).toEqual([400, 'the name of the object (b) does not match the name on the URL (a)']);
      const managed = await apply({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', managedFields: [] } });
      expect([managed.status, managed.json.message]).toEqual([400, 'metadata.managedFields must be nil']);
      const force = await raw(api, `${CMS}/a`, { method: 'PATCH', contentType: 'application/merge-patch+json', query: { force: 'true' }, body: {} });
      expect([force.status, force.json.message]).toEqual([422, 'PatchOptions.meta.k8s.io "" is invalid: force: Forbidden: may not be specified for non-apply patch']);
      expect(api.get('configmaps', 'default', 'a')).toBeUndefined();
    });
  });

  describe('custom resources: list types from the CRD schema', () => {
    it('x-kubernetes-list-type map/set merge by keys and values; a list without one is atomic', async () => {
      const kc = api.kubeConfig();
      // A map list's keys must be required (or defaulted): kube refuses the CRD otherwise.
      const items = { type: 'object', required: ['name', 'port'], properties: { name: { type: 'string' }, port: { type: 'integer' }, size: { type: 'integer' } } };
      await kc.makeApiClient(ApiextensionsV1Api).createCustomResourceDefinition({
        body: {
          apiVersion: 'apiextensions.k8s.io/v1',
          kind: 'CustomResourceDefinition',
          metadata: { name: 'widgets.example.com' },
          spec: {
            group: 'example.com',
            scope: 'Namespaced',
            names: { plural: 'widgets', singular: 'widget', kind: 'Widget' },
            versions: [
              {
                name: 'v1',
                served: true,
                storage: true,
                subresources: { status: {} },
                schema: {
                  openAPIV3Schema: {
                    type: 'object',
                    properties: {
                      spec: {
                        type: 'object',
                        properties: {
                          parts: { type: 'array', x_kubernetes_list_type: 'map', x_kubernetes_list_map_keys: ['name', 'port'], items },
                          tags: { type: 'array', x_kubernetes_list_type: 'set', items: { type: 'string' } },
                          plain: { type: 'array', items: { type: 'string' } },
                        },
                      },
                      status: { type: 'object', properties: { ok: { type: 'boolean' } } },
                    },
                  },
                },
              },
            ],
          },
        },
      });
      const custom = kc.makeApiClient(CustomObjectsApi);
      const apply = (spec: object, fieldManager: string) =>
        custom.patchNamespacedCustomObject(
          { group: 'example.com', version: 'v1', namespace: 'default', plural: 'widgets', name: 'w', body: { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' }, spec }, fieldManager },
          APPLY,
        ) as Promise<{ spec: { parts: object[]; tags: string[]; plain: string[] }; metadata: { managedFields: V1ManagedFieldsEntry[] } }>;
      await apply({ parts: [{ name: 'a', port: 1, size: 1 }], tags: ['x'], plain: ['p'] }, 'one');
      const w = await apply({ parts: [{ name: 'a', port: 2, size: 2 }], tags: ['y'] }, 'two');
      expect(w.spec.parts).toEqual([{ name: 'a', port: 1, size: 1 }, { name: 'a', port: 2, size: 2 }]);
      expect(w.spec.tags).toEqual(['x', 'y']);
      expect(entryOf(w, 'two')?.fieldsV1).toEqual({
        'f:spec': { 'f:parts': { 'k:{"name":"a","port":2}': { '.': {}, 'f:name': {}, 'f:port': {}, 'f:size': {} } }, 'f:tags': { 'v:"y"': {} } },
      });
      await expect(apply({ plain: ['q'] }, 'two')).rejects.toMatchObject({ code: 409 });
      const atomic = await raw(api, '/apis/example.com/v1/namespaces/default/widgets/w', { method: 'PATCH', contentType: 'application/apply-patch+yaml', query: { fieldManager: 'two' }, body: { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' }, spec: { plain: ['q'] } } });
      expect(atomic.json.details.causes).toEqual([{ reason: 'FieldManagerConflict', message: 'conflict with "one"', field: '.spec.plain' }]);
      // status is the /status subresource's (subresources.status): the main resource drops it
      const withStatus = await raw(api, '/apis/example.com/v1/namespaces/default/widgets/w', { method: 'PATCH', contentType: 'application/apply-patch+yaml', query: { fieldManager: 'one' }, body: { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' }, spec: { plain: ['p'] }, status: { ok: true } } });
      expect(withStatus.json.status).toBeUndefined();
    });
  });
});
