import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { AutoscalingV1Api, AutoscalingV2Api, BatchV1Api, NetworkingV1Api, PolicyV1Api } from '@kubernetes/client-node';
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deploymentFixture, podFixture, startFakeApiServer, type FakeApiServer } from '../../lib/testing/index.js';
import { findKubectl, kubectlRunner } from './kubectlRunner.js';
import { raw, rawWatch } from './rawClient.js';

// Every API group and version client-node's models know is served, derived from the models
// (scripts/generate-builtin-types.mjs writes registry/builtInTypes.generated.ts from client-node's
// API classes), with discovery; types that cannot be stored (reviews, Eviction, Scale, Binding)
// are not collections.

const SCRIPT = join(process.cwd(), 'scripts', 'generate-builtin-types.mjs');
const check = (...args: string[]): Promise<{ code: number; out: string }> =>
  new Promise((resolve) => {
    execFile(process.execPath, [SCRIPT, '--check', ...args], { cwd: process.cwd() }, (err, stdout) => resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, out: stdout }));
  });

describe('the built-in type table is derived from client-node', () => {
  it('is current for the installed @kubernetes/client-node', async () => {
    const r = await check();
    expect(r.out).toMatch(/^builtInTypes\.generated\.ts is current for client-node /);
    expect(r.code).toBe(0);
  });

  it('is stale, and says what is missing, for a client-node that knows a resource it lacks', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rxkube-client-node-'));
    try {
      mkdirSync(join(dir, 'dist', 'gen', 'apis'), { recursive: true });
      writeFileSync(join(dir, 'package.json'), '{"version":"9.9.9"}');
      // The two halves of a generated API class, as client-node's generator writes them.
      writeFileSync(
        join(dir, 'dist', 'gen', 'apis', 'GizmosV1Api.js'),
        `export class GizmosV1ApiRequestFactory {
    async listNamespacedGizmo(namespace, _options) {
        const localVarPath = '/apis/gizmos.example.io/v1/namespaces/{namespace}/gizmos';
        const requestContext = _config.baseServer.makeRequestContext(localVarPath, HttpMethod.GET);
    }
    async readNamespacedGizmo(name, namespace, _options) {
        const localVarPath = '/apis/gizmos.example.io/v1/namespaces/{namespace}/gizmos/{name}';
        const requestContext = _config.baseServer.makeRequestContext(localVarPath, HttpMethod.GET);
    }
}
`,
      );
      writeFileSync(
        join(dir, 'dist', 'gen', 'apis', 'GizmosV1Api.d.ts'),
        'listNamespacedGizmoWithHttpInfo(response: ResponseContext): Promise<HttpInfo<V1GizmoList>>;\nreadNamespacedGizmoWithHttpInfo(response: ResponseContext): Promise<HttpInfo<V1Gizmo>>;\n',
      );
      const r = await check('--from', dir);
      expect(r.out).toContain('9.9.9: missing: gizmos.example.io/v1/gizmos (Gizmo)');
      expect(r.code).toBe(1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('fake API server: every group and version client-node knows', () => {
  let api: FakeApiServer;
  beforeEach(async () => {
    api = await startFakeApiServer({ http: true });
  });
  afterEach(() => api.close());

  it('batch/v1 CronJobs, networking.k8s.io/v1 Ingresses and policy/v1 PodDisruptionBudgets through client-node, with discovery', async () => {
    const kc = api.kubeConfig();
    const cj = await kc.makeApiClient(BatchV1Api).createNamespacedCronJob({
      namespace: 'default',
      body: { metadata: { name: 'nightly' }, spec: { schedule: '0 0 * * *', jobTemplate: { spec: { template: { spec: { containers: [{ name: 'c', image: 'i' }], restartPolicy: 'Never' } } } } } },
    });
    expect(cj).toMatchObject({ apiVersion: 'batch/v1', kind: 'CronJob', metadata: { generation: 1 }, status: {} });
    expect((await kc.makeApiClient(BatchV1Api).listNamespacedCronJob({ namespace: 'default' })).items.map((c) => c.metadata?.name)).toEqual(['nightly']);
    await kc.makeApiClient(NetworkingV1Api).createNamespacedIngress({ namespace: 'default', body: { metadata: { name: 'web' }, spec: { rules: [{ host: 'example.com' }] } } });
    await kc.makeApiClient(PolicyV1Api).createNamespacedPodDisruptionBudget({ namespace: 'default', body: { metadata: { name: 'pdb' }, spec: { minAvailable: 1 } } });
    expect(api.list('ingresses.networking.k8s.io', 'default').items).toHaveLength(1);
    expect(api.list('poddisruptionbudgets.policy', 'default').items).toHaveLength(1);
    const batch = await raw(api, '/apis/batch/v1');
    expect(batch.json.resources).toContainEqual({ name: 'cronjobs', singularName: 'cronjob', namespaced: true, kind: 'CronJob', verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'], shortNames: ['cj'], categories: ['all'] });
    const discovery = await raw(api, '/apis/discovery.k8s.io/v1');
    expect(discovery.json.resources.map((r: { name: string }) => r.name)).toContain('endpointslices');
  });

  it('a resource served in two versions is one storage: written as autoscaling/v1, read and watched as v2 and v1', async () => {
    const kc = api.kubeConfig();
    const watch = await rawWatch(api, '/apis/autoscaling/v1/namespaces/default/horizontalpodautoscalers', { query: { resourceVersion: api.resourceVersion } });
    try {
      await kc.makeApiClient(AutoscalingV1Api).createNamespacedHorizontalPodAutoscaler({
        namespace: 'default',
        body: { metadata: { name: 'h' }, spec: { maxReplicas: 3, scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' } } },
      });
      const v2 = await kc.makeApiClient(AutoscalingV2Api).readNamespacedHorizontalPodAutoscaler({ name: 'h', namespace: 'default' });
      expect(v2.apiVersion).toBe('autoscaling/v2');
      const v1 = await kc.makeApiClient(AutoscalingV1Api).readNamespacedHorizontalPodAutoscaler({ name: 'h', namespace: 'default' });
      expect(v1.apiVersion).toBe('autoscaling/v1');
      const events = await watch.until((e) => e.length > 0);
      expect(events[0]).toMatchObject({ type: 'ADDED', object: { apiVersion: 'autoscaling/v1', kind: 'HorizontalPodAutoscaler' } });
      const group = await raw(api, '/apis/autoscaling');
      expect(group.json.preferredVersion).toEqual({ groupVersion: 'autoscaling/v2', version: 'v2' });
    } finally {
      watch.close();
    }
  });

  it('types the server cannot store are not collections: TokenReviews and subresources it does not serve; access reviews are create-only', async () => {
    expect((await raw(api, '/apis/authentication.k8s.io/v1/tokenreviews', { method: 'POST', body: { spec: { token: 'x' } } })).status).toBe(404);
    // Access reviews are served (RBAC), as kube's: POST only, a GET is 405.
    expect((await raw(api, '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews')).status).toBe(405);
    expect((await raw(api, '/api/v1/namespaces/default/bindings', { method: 'POST', body: {} })).status).toBe(404);
    api.create('pods', podFixture({ name: 'p' }));
    // pods/binding is not served (pods/eviction is: fakeApiServer.eviction.spec.ts).
    const binding = await raw(api, '/api/v1/namespaces/default/pods/p/binding', { method: 'POST', body: {} });
    expect(binding.status).toBe(404);
    expect(binding.json.reason).toBe('NotFound');
    const v1 = await raw(api, '/api/v1');
    expect(v1.json.resources.map((r: { name: string }) => r.name)).not.toContain('bindings');
  });
});

describe('kubectl api-resources and kubectl get <category> against the fake API server', () => {
  const kubectl = findKubectl();
  let dir: string;
  let api: FakeApiServer;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'rxkube-kubectl-types-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  beforeEach(async () => {
    api = await startFakeApiServer();
    await api.writeKubeConfig(join(dir, 'config'));
  });
  afterEach(() => api.close());
  const run = (...args: string[]) => kubectlRunner(kubectl, join(dir, 'config'), join(dir, 'cache'))(...args);

  it('api-resources lists every served group\'s preferred version, with short names', async () => {
    const r = await run('api-resources', '--no-headers');
    expect(r.code).toBe(0);
    const rows = r.stdout.split('\n').map((l) => l.trim().split(/\s+/));
    expect(rows).toContainEqual(['cronjobs', 'cj', 'batch/v1', 'true', 'CronJob']);
    expect(rows).toContainEqual(['horizontalpodautoscalers', 'hpa', 'autoscaling/v2', 'true', 'HorizontalPodAutoscaler']);
    expect(rows).toContainEqual(['ingresses', 'ing', 'networking.k8s.io/v1', 'true', 'Ingress']);
    expect(rows).toContainEqual(['endpointslices', 'discovery.k8s.io/v1', 'true', 'EndpointSlice']);
  });

  it('get all shows the workloads of category all, not ConfigMaps', async () => {
    api.create('deployments.apps', deploymentFixture({ name: 'web' }));
    api.create('pods', podFixture({ name: 'web-0' }));
    api.create('configmaps', { metadata: { name: 'settings', namespace: 'default' } });
    const r = await run('get', 'all', '-n', 'default', '-o', 'name');
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n').filter(Boolean).sort()).toEqual(['deployment.apps/web', 'pod/web-0']);
  });
});
