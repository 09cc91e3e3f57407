import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { ApiException, AppsV1Api, CoreV1Api, PatchStrategy, setHeaderOptions, type V1ConfigMap, type V1Pod } from '@kubernetes/client-node';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFakeApiServer, type FakeApiServer } from '../../lib/testing/index.js';
import { findKubectl, kubectlRunner } from './kubectlRunner.js';
import { raw, rawWatch } from './rawClient.js';

// Dry run (`dryRun=All`, PIPELINE.md §1): every stage runs, nothing is stored, no watch event, no
// resourceVersion taken; a create answers the would-be object without a resourceVersion.

const merge = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);
const apply = setHeaderOptions('Content-Type', PatchStrategy.ServerSideApply);

async function codeOf(p: Promise<unknown>): Promise<number> {
  try {
    await p;
    return 0;
  } catch (e) {
    if (e instanceof ApiException) return e.code;
    throw e;
  }
}

describe('fake API server: dry run on every write verb', () => {
  let api: FakeApiServer;
  let core: CoreV1Api;
  beforeEach(async () => {
    api = await startFakeApiServer({ http: true });
    core = api.kubeConfig().makeApiClient(CoreV1Api);
  });
  afterEach(() => api.close());

  it('create, update, merge patch, apply, /status and delete change nothing, send no event and take no resourceVersion', async () => {
    const cm = await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'cm' }, data: { a: '1' } } });
    const pod = api.create<V1Pod>('pods', { metadata: { name: 'p', namespace: 'default' }, spec: { containers: [{ name: 'c', image: 'i' }] } });
    const rv = api.resourceVersion;
    const watch = await rawWatch(api, '/api/v1/namespaces/default/configmaps', { query: { resourceVersion: rv } });
    try {
      const created = await core.createNamespacedConfigMap({ namespace: 'default', dryRun: 'All', body: { metadata: { name: 'new' }, data: { b: '2' } } });
      expect(created.metadata).toMatchObject({ name: 'new', namespace: 'default' });
      expect(created.metadata?.uid).toBeDefined();
      expect(created.metadata?.creationTimestamp).toBeDefined();
      expect(created.metadata?.resourceVersion).toBeUndefined();
      const updated = await core.replaceNamespacedConfigMap({ name: 'cm', namespace: 'default', dryRun: 'All', body: { ...cm, data: { a: '2' } } });
      expect(updated.data).toEqual({ a: '2' });
      expect(updated.metadata?.resourceVersion).toBe(cm.metadata?.resourceVersion);
      const patched = await core.patchNamespacedConfigMap({ name: 'cm', namespace: 'default', dryRun: 'All', body: { data: { c: '3' } } }, merge);
      expect(patched.data).toEqual({ a: '1', c: '3' });
      const applied = await core.patchNamespacedConfigMap(
        { name: 'applied', namespace: 'default', dryRun: 'All', fieldManager: 'me', body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'applied', namespace: 'default' }, data: { d: '4' } } },
        apply,
      );
      expect(applied.data).toEqual({ d: '4' });
      const status = await core.replaceNamespacedPodStatus({ name: 'p', namespace: 'default', dryRun: 'All', body: { ...pod, status: { phase: 'Running' } } });
      expect(status.status?.phase).toBe('Running');
      const deleted = await core.deleteNamespacedConfigMap({ name: 'cm', namespace: 'default', dryRun: 'All' });
      expect(deleted).toBeDefined();
      expect(api.resourceVersion).toBe(rv);
      expect(api.get<V1ConfigMap>('configmaps', 'default', 'cm')?.data).toEqual({ a: '1' });
      expect(api.get('configmaps', 'default', 'new')).toBeUndefined();
      expect(api.get('configmaps', 'default', 'applied')).toBeUndefined();
      expect(api.get<V1Pod>('pods', 'default', 'p')?.status?.phase).toBe('Pending');
      // The first event the watch gets is the real write after them all.
      await core.patchNamespacedConfigMap({ name: 'cm', namespace: 'default', body: { data: { real: 'yes' } } }, merge);
      const events = await watch.until((e) => e.length > 0);
      expect(events.map((e) => [e.type, e.object.metadata.name, e.object.data])).toEqual([['MODIFIED', 'cm', { a: '1', real: 'yes' }]]);
    } finally {
      watch.close();
    }
  });

  it('a dry run still refuses what a real write would: 409 AlreadyExists, 422 for a bad name, 404 for a missing object', async () => {
    await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'cm' } } });
    expect(await codeOf(core.createNamespacedConfigMap({ namespace: 'default', dryRun: 'All', body: { metadata: { name: 'cm' } } }))).toBe(409);
    expect(await codeOf(core.createNamespacedConfigMap({ namespace: 'default', dryRun: 'All', body: { metadata: { name: 'Bad_Name' } } }))).toBe(422);
    expect(await codeOf(core.deleteNamespacedConfigMap({ name: 'missing', namespace: 'default', dryRun: 'All' }))).toBe(404);
    const apps = api.kubeConfig().makeApiClient(AppsV1Api);
    expect(await codeOf(apps.createNamespacedDeployment({ namespace: 'default', dryRun: 'All', body: { metadata: { name: 'd', labels: { 'bad key!': 'x' } } } }))).toBe(422);
  });

  it('dryRun other than All is kube\'s 422 on the verb\'s options', async () => {
    const r = await raw(api, '/api/v1/namespaces/default/configmaps', { method: 'POST', query: { dryRun: 'Maybe' }, body: { metadata: { name: 'x' } } });
    expect(r.status).toBe(422);
    expect(r.json.message).toBe('CreateOptions.meta.k8s.io "" is invalid: dryRun: Unsupported value: ["Maybe"]: supported values: "All"');
    const d = await raw(api, '/api/v1/namespaces/default/configmaps/x', { method: 'DELETE', query: { dryRun: 'x' } });
    expect(d.json.message).toBe('DeleteOptions.meta.k8s.io "" is invalid: dryRun: Unsupported value: ["x"]: supported values: "All"');
  });
});

describe('kubectl --dry-run=server and kubectl diff against the fake API server', () => {
  const kubectl = findKubectl();
  let dir: string;
  let api: FakeApiServer;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'rxkube-kubectl-dry-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  beforeEach(async () => {
    api = await startFakeApiServer();
    await api.writeKubeConfig(join(dir, 'config'));
  });
  afterEach(() => api.close());
  const run = (...args: string[]) => kubectlRunner(kubectl, join(dir, 'config'), join(dir, 'cache'))(...args);
  const manifest = (value: string) => {
    const file = join(dir, 'cm.yaml');
    writeFileSync(file, `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\n  namespace: default\ndata:\n  mode: ${value}\n`);
    return file;
  };

  it('create --dry-run=server and apply --dry-run=server report the object and store nothing', async () => {
    const rv = api.resourceVersion;
    expect(await run('create', 'configmap', 'x', '--from-literal=a=1', '--dry-run=server', '-o', 'jsonpath={.data.a}')).toMatchObject({ code: 0, stdout: '1' });
    expect(await run('apply', '-f', manifest('fast'), '--dry-run=server')).toMatchObject({ code: 0, stdout: 'configmap/settings created (server dry run)\n' });
    expect(await run('apply', '-f', manifest('fast'), '--server-side', '--dry-run=server')).toMatchObject({ code: 0, stdout: 'configmap/settings serverside-applied (server dry run)\n' });
    expect(api.get('configmaps', 'default', 'x')).toBeUndefined();
    expect(api.get('configmaps', 'default', 'settings')).toBeUndefined();
    expect(api.resourceVersion).toBe(rv);
  });

  it('kubectl diff shows what an apply would change (exit 1), nothing when it would change nothing (exit 0)', async () => {
    expect((await run('apply', '-f', manifest('fast'))).code).toBe(0);
    const same = await run('diff', '-f', manifest('fast'));
    expect(same).toMatchObject({ code: 0, stdout: '' });
    const changed = await run('diff', '-f', manifest('slow'));
    expect(changed.code).toBe(1);
    expect(changed.stdout).toMatch(/^-\s+mode: fast$/m);
    expect(changed.stdout).toMatch(/^\+\s+mode: slow$/m);
    expect(api.get<V1ConfigMap>('configmaps', 'default', 'settings')?.data).toEqual({ mode: 'fast' });
  });
});
