// The apply helper over HTTP against the fake API server's field ownership: through client-node's
// KubeConfig (the clientNodeTransport) and through fetchTransport.
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { AppsV1Api, PatchStrategy, setHeaderOptions, type V1ConfigMap, type V1Deployment } from '@kubernetes/client-node';
import { ApiStatusError } from '../../lib/errors.js';
import type { Resource } from '../../lib/listwatch/resource.js';
import { startFakeApiServer, type FakeApiServer } from '../../lib/testing/index.js';
import { fetchTransport } from '../../lib/transport/fetchTransport.js';
import { apply, apply$, type ApplyConfiguration } from '../../lib/write/apply.js';
import { ApplyConflictError } from '../../lib/write/applyConflictError.js';
import { ApplyInputError } from '../../lib/write/applyInputError.js';

const configMaps: Resource = { group: '', version: 'v1', plural: 'configmaps', kind: 'ConfigMap', namespaced: true };
const deployments: Resource = { group: 'apps', version: 'v1', plural: 'deployments', kind: 'Deployment', namespaced: true };
const namespaces: Resource = { group: '', version: 'v1', plural: 'namespaces', kind: 'Namespace', namespaced: false };

const cm = (data: Record<string, string>, name = 'settings'): ApplyConfiguration<V1ConfigMap> => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, namespace: 'shop' },
  data,
});
const deploy = (spec: ApplyConfiguration<V1Deployment>['spec'], status?: ApplyConfiguration<V1Deployment>['status']): ApplyConfiguration<V1Deployment> => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web', namespace: 'shop' },
  spec,
  ...(status ? { status } : {}),
});

// What a Deployment needs to be valid (kube: selector, template labels matching it, a container);
// both managers apply it alike, so only the fields they differ on conflict.
const web = {
  selector: { matchLabels: { app: 'web' } },
  template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image: 'nginx:1.27' }] } },
};

describe('apply (server-side apply helper)', () => {
  let api: FakeApiServer;
  beforeEach(async () => {
    api = await startFakeApiServer({ namespaces: ['shop', 'x'] });
  });
  afterEach(() => api.close());

  it('creates, then owns exactly what it applies: a field it stops applying is removed; resolves with the stored object', async () => {
    const kc = api.kubeConfig();
    const created = await apply<V1ConfigMap>(kc, configMaps, cm({ a: '1', b: '2' }), { fieldManager: 'me' });
    expect(created.metadata?.resourceVersion).toBe(api.resourceVersion);
    const after = await apply<V1ConfigMap>(kc, configMaps, cm({ a: '1' }), { fieldManager: 'me' });
    expect(after.data).toEqual({ a: '1' });
    expect(after.metadata?.resourceVersion).toBe(api.resourceVersion);
    expect(after.metadata?.managedFields).toEqual([expect.objectContaining({ manager: 'me', operation: 'Apply', fieldsV1: { 'f:data': { 'f:a': {} } } })]);
    const req = api.requests.filter((r) => r.verb === 'patch').at(-1);
    expect(req).toMatchObject({ method: 'PATCH', contentType: 'application/apply-patch+yaml', query: { fieldManager: 'me' } });
  });

  it('a conflict is an ApplyConflictError naming the fields and their managers; force takes them', async () => {
    const kc = api.kubeConfig();
    await apply<V1Deployment>(kc, deployments, deploy({ ...web, replicas: 1, paused: false }), { fieldManager: 'owner' });
    const err = await apply<V1Deployment>(kc, deployments, deploy({ ...web, replicas: 2, paused: true }), { fieldManager: 'me' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApplyConflictError);
    expect(err).toBeInstanceOf(ApiStatusError);
    const conflict = err as ApplyConflictError;
    expect(conflict.statusCode).toBe(409);
    expect(conflict.conflicts).toEqual([
      { field: '.spec.paused', manager: 'owner', operation: 'Apply', message: 'conflict with "owner"' },
      { field: '.spec.replicas', manager: 'owner', operation: 'Apply', message: 'conflict with "owner"' },
    ]);
    expect(conflict.managers).toEqual(['owner']);
    expect(conflict.message).toMatch(/Apply failed with 2 conflicts: conflicts with "owner":\n- \.spec\.paused\n- \.spec\.replicas/);
    const forced = await apply<V1Deployment>(kc, deployments, deploy({ replicas: 2 }), { fieldManager: 'me', force: true });
    expect(forced.spec?.replicas).toBe(2);
    expect(api.requests.filter((r) => r.verb === 'patch').at(-1)?.query).toEqual({ fieldManager: 'me', force: 'true' });
  });

  it('names an Update owner with its operation and subresource', async () => {
    const kc = api.kubeConfig();
    await apply<V1Deployment>(kc, deployments, deploy({ ...web, replicas: 1 }), { fieldManager: 'ctl' });
    await kc.makeApiClient(AppsV1Api).patchNamespacedDeploymentStatus(
      { name: 'web', namespace: 'shop', body: { status: { replicas: 1 } }, fieldManager: 'rollout' },
      setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
    );
    const err = (await apply<V1Deployment>(kc, deployments, deploy(undefined, { replicas: 3 }), { fieldManager: 'me', subresource: 'status' }).catch((e: unknown) => e)) as ApplyConflictError;
    expect(err.conflicts).toEqual([
      { field: '.status.replicas', manager: 'rollout', operation: 'Update', subresource: 'status', message: 'conflict with "rollout" with subresource "status" using apps/v1' },
    ]);
  });

  it('applies to /status: only status changes, owned through the subresource', async () => {
    const kc = api.kubeConfig();
    await apply<V1Deployment>(kc, deployments, deploy({ ...web, replicas: 1 }), { fieldManager: 'ctl' });
    const d = await apply<V1Deployment>(kc, deployments, deploy({ replicas: 5 }, { readyReplicas: 1 }), { fieldManager: 'ctl', subresource: 'status' });
    expect(d.spec?.replicas).toBe(1);
    expect(d.status?.readyReplicas).toBe(1);
    expect(d.metadata?.managedFields?.find((e) => e.subresource === 'status')).toMatchObject({ manager: 'ctl', operation: 'Apply', fieldsV1: { 'f:status': { 'f:readyReplicas': {} } } });
    expect(api.requests.filter((r) => r.verb === 'patch').at(-1)?.path).toBe('/apis/apps/v1/namespaces/shop/deployments/web/status');
  });

  it('works over fetchTransport too (plain HTTP, bearer token), cluster-scoped resources included', async () => {
    const plain = await startFakeApiServer({ namespaces: ['shop', 'x'], http: true, tokens: [{ token: 't', user: 'admin' }] });
    try {
      const transport = fetchTransport({ baseUrl: plain.url, headers: { Authorization: 'Bearer t' } });
      const ns = await apply(transport, namespaces, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team-a', labels: { team: 'a' } } }, { fieldManager: 'me' });
      // kube's Namespace strategy adds the name label to every namespace.
      expect(ns.metadata?.labels).toEqual({ team: 'a', 'kubernetes.io/metadata.name': 'team-a' });
      await apply<V1ConfigMap>(transport, configMaps, cm({ a: '1' }), { fieldManager: 'one' });
      await expect(apply<V1ConfigMap>(transport, configMaps, cm({ a: '2' }), { fieldManager: 'two' })).rejects.toBeInstanceOf(ApplyConflictError);
    } finally {
      await plain.close();
    }
  });

  it('bad input is an ApplyInputError before any request', async () => {
    const kc = api.kubeConfig();
    api.clearRequests();
    const bad: Array<[unknown, object, RegExp]> = [
      [cm({}), { fieldManager: '' }, /needs a fieldManager/],
      [cm({}), {}, /needs a fieldManager/],
      [cm({}), { fieldManager: 'x'.repeat(129) }, /at most 128 bytes/],
      [{ kind: 'ConfigMap', metadata: { name: 'a', namespace: 'shop' } }, { fieldManager: 'me' }, /no apiVersion \(v1 for this resource\)/],
      [{ apiVersion: 'v1', metadata: { name: 'a', namespace: 'shop' } }, { fieldManager: 'me' }, /no kind \(ConfigMap/],
      [{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { namespace: 'shop' } }, { fieldManager: 'me' }, /no metadata\.name/],
      [{ apiVersion: 'v1', kind: 'ConfigMap' }, { fieldManager: 'me' }, /no metadata\.name/],
      [{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' } }, { fieldManager: 'me' }, /no metadata\.namespace/],
      [{ apiVersion: 'apps/v1', kind: 'ConfigMap', metadata: { name: 'a', namespace: 'shop' } }, { fieldManager: 'me' }, /apiVersion apps\/v1 is not the resource's \(v1\)/],
      [{ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'a', namespace: 'shop' } }, { fieldManager: 'me' }, /kind Secret is not the resource's/],
      [[], { fieldManager: 'me' }, /needs an object/],
    ];
    for (const [object, options, message] of bad) {
      const e = await apply(kc, configMaps, object as ApplyConfiguration<V1ConfigMap>, options as { fieldManager: string }).catch((x: unknown) => x);
      expect(e).toBeInstanceOf(ApplyInputError);
      expect((e as Error).message).toMatch(message);
    }
    const nsd = await apply(kc, namespaces, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'a', namespace: 'x' } }, { fieldManager: 'me' }).catch((x: unknown) => x);
    expect((nsd as Error).message).toMatch(/cluster-scoped/);
    expect(api.requests).toEqual([]);
  });

  it('records the stored object on a tracker (read-your-own-writes)', async () => {
    const recorded: unknown[] = [];
    const stored = await apply<V1ConfigMap>(api.kubeConfig(), configMaps, cm({ a: '1' }), { fieldManager: 'me', tracker: { wrote: (obj: unknown) => void recorded.push(obj) } });
    expect(recorded).toEqual([stored]);
  });

  it('apply$ is cold: nothing is sent until subscribed; an abort signal cancels the promise', async () => {
    const kc = api.kubeConfig();
    api.clearRequests();
    const request = apply$<V1ConfigMap>(kc, configMaps, cm({ a: '1' }), { fieldManager: 'me' });
    expect(api.requests).toEqual([]);
    const stored = await new Promise<V1ConfigMap>((resolve, reject) => request.subscribe({ next: resolve, error: reject }));
    expect(stored.data).toEqual({ a: '1' });
    const aborted = new AbortController();
    aborted.abort(new Error('stop'));
    await expect(apply<V1ConfigMap>(kc, configMaps, cm({ a: '2' }), { fieldManager: 'me', signal: aborted.signal })).rejects.toThrow('stop');
    expect(api.get<V1ConfigMap>('configmaps', 'shop', 'settings')?.data).toEqual({ a: '1' });
  });
});
