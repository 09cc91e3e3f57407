// The scale subresource (PIPELINE.md §7, TESTCLUSTER.md §1) through @kubernetes/client-node over
// HTTP: an autoscaling/v1 Scale read from the parent, written back through the parent's update path
// (generation, validation, resourceVersion precondition, admission with kind Scale).
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { AppsV1Api, CoreV1Api, CustomObjectsApi, PatchStrategy, setHeaderOptions, type V1Deployment } from '@kubernetes/client-node';
import { startFakeApiServer, type AdmissionPlugin, type FakeApiServer } from '../../lib/testing/index.js';
import { scaledCrd } from './fixtures/scaledCrd.js';
import { raw } from './rawClient.js';

const merge = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);

const deployment = (name: string, replicas = 2): V1Deployment => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name, namespace: 'default' },
  spec: {
    replicas,
    selector: { matchLabels: { app: name }, matchExpressions: [{ key: 'tier', operator: 'In', values: ['b', 'a'] }] },
    template: { metadata: { labels: { app: name, tier: 'a' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
  },
});


/** The ApiException a request fails with (a request that succeeds fails the test). */
async function failureOf(p: Promise<unknown>): Promise<{ code?: number; body?: unknown }> {
  try {
    await p;
  } catch (e) {
    return e as { code?: number; body?: unknown };
  }
  throw new Error('the request succeeded');
}

describe('fake API server: the scale subresource', () => {
  let api: FakeApiServer;
  let apps: AppsV1Api;
  let core: CoreV1Api;
  let custom: CustomObjectsApi;
  beforeEach(async () => {
    api = await startFakeApiServer();
    const kc = api.kubeConfig();
    apps = kc.makeApiClient(AppsV1Api);
    core = kc.makeApiClient(CoreV1Api);
    custom = kc.makeApiClient(CustomObjectsApi);
  });
  afterEach(() => api.close());

  it('GET deployments/scale: an autoscaling/v1 Scale with the replicas and the selector as a string', async () => {
    const created = await apps.createNamespacedDeployment({ namespace: 'default', body: deployment('web') });
    api.updateStatus('deployments.apps', { metadata: { name: 'web', namespace: 'default' }, status: { replicas: 1 } });
    const scale = await apps.readNamespacedDeploymentScale({ name: 'web', namespace: 'default' });
    expect(scale.apiVersion).toBe('autoscaling/v1');
    expect(scale.kind).toBe('Scale');
    expect(scale.metadata?.uid).toBe(created.metadata?.uid);
    expect(scale.spec).toEqual({ replicas: 2 });
    expect(scale.status).toEqual({ replicas: 1, selector: 'app=web,tier in (a,b)' });
  });

  it('PUT deployments/scale writes spec.replicas through the parent: generation moves, the answer is the new Scale', async () => {
    await apps.createNamespacedDeployment({ namespace: 'default', body: deployment('web') });
    const scale = await apps.readNamespacedDeploymentScale({ name: 'web', namespace: 'default' });
    const answer = await apps.replaceNamespacedDeploymentScale({ name: 'web', namespace: 'default', body: { ...scale, spec: { replicas: 5 } } });
    expect(answer.spec?.replicas).toBe(5);
    const d = await apps.readNamespacedDeployment({ name: 'web', namespace: 'default' });
    expect(d.spec?.replicas).toBe(5);
    expect(d.metadata?.generation).toBe(2);
    expect(answer.metadata?.resourceVersion).toBe(d.metadata?.resourceVersion);
  });

  it('PATCH (merge) statefulsets/scale and replicationcontrollers/scale', async () => {
    await apps.createNamespacedStatefulSet({
      namespace: 'default',
      body: { metadata: { name: 'db' }, spec: { serviceName: 'db', selector: { matchLabels: { app: 'db' } }, template: { metadata: { labels: { app: 'db' } }, spec: { containers: [{ name: 'c', image: 'pg' }] } } } },
    });
    const s = await apps.patchNamespacedStatefulSetScale({ name: 'db', namespace: 'default', body: { spec: { replicas: 3 } } }, merge);
    expect(s.spec?.replicas).toBe(3);
    expect((await apps.readNamespacedStatefulSet({ name: 'db', namespace: 'default' })).spec?.replicas).toBe(3);
    await core.createNamespacedReplicationController({
      namespace: 'default',
      body: { metadata: { name: 'rc' }, spec: { replicas: 1, selector: { app: 'rc' }, template: { metadata: { labels: { app: 'rc' } }, spec: { containers: [{ name: 'c', image: 'x' }] } } } },
    });
    const r = await core.patchNamespacedReplicationControllerScale({ name: 'rc', namespace: 'default', body: { spec: { replicas: 0 } } }, merge);
    expect(r.spec).toEqual({});
    expect(r.status?.selector).toBe('app=rc');
  });

  it('a negative replica count is kube’s 422 on Scale.autoscaling, and nothing changes', async () => {
    await apps.createNamespacedDeployment({ namespace: 'default', body: deployment('web') });
    const e = await failureOf(apps.patchNamespacedDeploymentScale({ name: 'web', namespace: 'default', body: { spec: { replicas: -1 } } }, merge));
    expect(e.code).toBe(422);
    expect(JSON.parse(e.body as string).message).toBe('Scale.autoscaling "web" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0');
    expect((await apps.readNamespacedDeployment({ name: 'web', namespace: 'default' })).spec?.replicas).toBe(2);
  });

  it('a stale resourceVersion in the Scale is a 409; a missing parent a 404', async () => {
    await apps.createNamespacedDeployment({ namespace: 'default', body: deployment('web') });
    const scale = await apps.readNamespacedDeploymentScale({ name: 'web', namespace: 'default' });
    await apps.patchNamespacedDeployment({ name: 'web', namespace: 'default', body: { metadata: { labels: { x: 'y' } } } }, merge);
    const stale = await failureOf(apps.replaceNamespacedDeploymentScale({ name: 'web', namespace: 'default', body: { ...scale, spec: { replicas: 4 } } }));
    expect(stale.code).toBe(409);
    const missing = await raw(api, '/apis/apps/v1/namespaces/default/deployments/nope/scale');
    expect(missing.status).toBe(404);
    expect(missing.json.message).toBe('deployments/scale.apps "nope" not found');
    const write = await raw(api, '/apis/apps/v1/namespaces/default/deployments/nope/scale', { method: 'PUT', body: { kind: 'Scale', apiVersion: 'autoscaling/v1', metadata: { name: 'nope' }, spec: { replicas: 1 } } });
    expect(write.status).toBe(404);
    expect(write.json.message).toBe('deployments.apps "nope" not found');
  });

  it('admission sees kind autoscaling/v1 Scale with subResource scale, and what it changes is written', async () => {
    const seen: Array<{ kind: unknown; subResource: string; object: unknown }> = [];
    const plugin: AdmissionPlugin = {
      name: 'scale-cap',
      admit: (a) => {
        if (a.subResource !== 'scale') return;
        seen.push({ kind: a.kind, subResource: a.subResource, object: structuredClone(a.object) });
        const spec = (a.object as { spec: { replicas?: number } }).spec;
        spec.replicas = Math.min(spec.replicas ?? 0, 3);
      },
    };
    api.admission.register(plugin);
    await apps.createNamespacedDeployment({ namespace: 'default', body: deployment('web') });
    await apps.patchNamespacedDeploymentScale({ name: 'web', namespace: 'default', body: { spec: { replicas: 10 } } }, merge);
    expect(seen[0]).toMatchObject({ kind: { group: 'autoscaling', version: 'v1', kind: 'Scale' }, subResource: 'scale', object: { kind: 'Scale', spec: { replicas: 10 } } });
    expect((await apps.readNamespacedDeployment({ name: 'web', namespace: 'default' })).spec?.replicas).toBe(3);
  });

  it('a CRD with subresources.scale: its paths, the selector string, discovery', async () => {
    await raw(api, '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', { method: 'POST', body: scaledCrd });
    const base = { group: 'example.com', version: 'v1', namespace: 'default', plural: 'pools' };
    await custom.createNamespacedCustomObject({ ...base, body: { apiVersion: 'example.com/v1', kind: 'Pool', metadata: { name: 'p' }, spec: { size: 1 } } });
    await custom.patchNamespacedCustomObjectStatus({ ...base, name: 'p', body: { status: { size: 1, selector: 'app=p' } } }, merge);
    const scale = (await custom.getNamespacedCustomObjectScale({ ...base, name: 'p' })) as { spec: unknown; status: unknown };
    expect(scale.spec).toEqual({ replicas: 1 });
    expect(scale.status).toEqual({ replicas: 1, selector: 'app=p' });
    await custom.patchNamespacedCustomObjectScale({ ...base, name: 'p', body: { spec: { replicas: 4 } } }, merge);
    const p = (await custom.getNamespacedCustomObject({ ...base, name: 'p' })) as { spec: { size: number }; metadata: { generation: number } };
    expect(p.spec.size).toBe(4);
    expect(p.metadata.generation).toBe(2);
    const doc = await raw(api, '/apis/example.com/v1');
    expect(doc.json.resources.find((r: { name: string }) => r.name === 'pools/scale')).toMatchObject({ group: 'autoscaling', version: 'v1', kind: 'Scale', verbs: ['get', 'patch', 'update'] });
  });

  it('a custom resource without its spec replicas field: kube’s 500 on GET /scale', async () => {
    await raw(api, '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', { method: 'POST', body: scaledCrd });
    const base = { group: 'example.com', version: 'v1', namespace: 'default', plural: 'pools' };
    await custom.createNamespacedCustomObject({ ...base, body: { apiVersion: 'example.com/v1', kind: 'Pool', metadata: { name: 'p' }, spec: {} } });
    const r = await raw(api, '/apis/example.com/v1/namespaces/default/pools/p/scale');
    expect(r.status).toBe(500);
    expect(r.json.message).toBe('Internal error occurred: the spec replicas field ".spec.size" does not exist');
  });
});
