// pods/eviction and the test cluster's disruption controller (PIPELINE.md §7) through
// @kubernetes/client-node over HTTP: a PodDisruptionBudget's status from its pods' Ready
// condition, evictions that would break it refused with kube's 429, the others deleting the pod.
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { CoreV1Api, PatchStrategy, PolicyV1Api, setHeaderOptions, type V1PodDisruptionBudget } from '@kubernetes/client-node';
import { startFakeApiServer, type FakeApiServer } from '../../lib/testing/index.js';
import { waitFor } from '../support/waitFor.js';

/** The ApiException a request fails with (a request that succeeds fails the test). */
async function failureOf(p: Promise<unknown>): Promise<{ code?: number; body: { message?: string; reason?: string; details?: unknown } }> {
  try {
    await p;
  } catch (e) {
    const err = e as { code?: number; body?: string };
    return { code: err.code, body: JSON.parse(err.body ?? '{}') as { message?: string } };
  }
  throw new Error('the request succeeded');
}

const merge = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);

describe('fake API server: pods/eviction and PodDisruptionBudget status', () => {
  let api: FakeApiServer;
  let core: CoreV1Api;
  let policy: PolicyV1Api;
  beforeEach(async () => {
    api = await startFakeApiServer();
    const kc = api.kubeConfig();
    core = kc.makeApiClient(CoreV1Api);
    policy = kc.makeApiClient(PolicyV1Api);
  });
  afterEach(() => api.close());

  const runningPod = (name: string, ready = true, labels: Record<string, string> = { app: 'web' }) => {
    api.create('pods', { metadata: { name, namespace: 'default', labels }, spec: { containers: [{ name: 'c', image: 'nginx' }] } });
    api.updateStatus('pods', { metadata: { name, namespace: 'default' }, status: { phase: 'Running', conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }] } });
  };
  const pdb = (name: string, spec: V1PodDisruptionBudget['spec']) => policy.createNamespacedPodDisruptionBudget({ namespace: 'default', body: { metadata: { name }, spec } });
  const stored = (name: string) => api.get<V1PodDisruptionBudget>('poddisruptionbudgets.policy', 'default', name)?.status;
  const budget = async (name: string) => (await policy.readNamespacedPodDisruptionBudgetStatus({ name, namespace: 'default' })).status;
  const evict = (name: string) => core.createNamespacedPodEviction({ name, namespace: 'default', body: { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name, namespace: 'default' } } });

  it('the disruption controller fills a budget’s status from its pods’ Ready condition', async () => {
    runningPod('a');
    runningPod('b');
    runningPod('c', false);
    await pdb('web', { minAvailable: 1, selector: { matchLabels: { app: 'web' } } });
    await waitFor(() => stored('web')?.observedGeneration === 1, 'the budget is processed');
    expect(await budget('web')).toMatchObject({ expectedPods: 3, currentHealthy: 2, desiredHealthy: 1, disruptionsAllowed: 1, conditions: [{ type: 'DisruptionAllowed', status: 'True', reason: 'SufficientPods' }] });
    await policy.patchNamespacedPodDisruptionBudget({ name: 'web', namespace: 'default', body: { spec: { minAvailable: null, maxUnavailable: '50%' } } }, merge);
    await waitFor(() => stored('web')?.observedGeneration === 2, 'the change is processed');
    expect(await budget('web')).toMatchObject({ expectedPods: 3, desiredHealthy: 1, disruptionsAllowed: 1 });
  });

  it('an eviction that would break the budget is kube’s 429 with the DisruptionBudget cause; the pod stays', async () => {
    runningPod('a');
    runningPod('b');
    await pdb('web', { minAvailable: 2, selector: { matchLabels: { app: 'web' } } });
    await waitFor(() => stored('web')?.observedGeneration === 1, 'the budget is processed');
    const e = await failureOf(evict('a'));
    expect(e.code).toBe(429);
    expect(e.body).toMatchObject({
      reason: 'TooManyRequests',
      message: "Cannot evict pod as it would violate the pod's disruption budget.",
      details: { causes: [{ reason: 'DisruptionBudget', message: 'The disruption budget web needs 2 healthy pods and has 2 currently' }] },
    });
    expect(api.get('pods', 'default', 'a')).toBeDefined();
  });

  it('an allowed eviction deletes the pod (201 Success) and spends one disruption', async () => {
    runningPod('a');
    runningPod('b');
    await pdb('web', { maxUnavailable: 1, selector: { matchLabels: { app: 'web' } } });
    await waitFor(() => stored('web')?.disruptionsAllowed === 1, 'one disruption allowed');
    await evict('a');
    expect(api.list('pods', 'default').items.map((p) => p.metadata?.name)).toEqual(['b']);
    await waitFor(() => stored('web')?.expectedPods === 1, 'the controller sees the pod gone');
    expect(await budget('web')).toMatchObject({ currentHealthy: 1, desiredHealthy: 0, disruptionsAllowed: 1 });
  });

  it('a budget not yet processed: 429 "still being processed"; pending pods go without a check', async () => {
    await api.close();
    api = await startFakeApiServer({ garbageCollection: 'off' });
    const kc = api.kubeConfig();
    core = kc.makeApiClient(CoreV1Api);
    policy = kc.makeApiClient(PolicyV1Api);
    runningPod('a');
    api.create('pods', { metadata: { name: 'p', namespace: 'default', labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } });
    await pdb('web', { minAvailable: 1, selector: { matchLabels: { app: 'web' } } });
    const e = await failureOf(evict('a'));
    expect(e.code).toBe(429);
    expect(e.body.details).toMatchObject({ retryAfterSeconds: 10, causes: [{ reason: 'DisruptionBudget', message: 'The disruption budget web is still being processed by the server.' }] });
    await evict('p');
    expect(api.list('pods', 'default').items.map((p) => p.metadata?.name)).toEqual(['a']);
  });

  it('more than one budget is kube’s 500; a name that is not the URL’s a 400', async () => {
    runningPod('a');
    await pdb('one', { minAvailable: 0, selector: { matchLabels: { app: 'web' } } });
    await pdb('two', { minAvailable: 0, selector: { matchLabels: { app: 'web' } } });
    const e = await failureOf(evict('a'));
    expect(e.code).toBe(500);
    expect(e.body.message).toBe('This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.');
    const named = await failureOf(core.createNamespacedPodEviction({ name: 'a', namespace: 'default', body: { metadata: { name: 'b' } } }));
    expect(named.code).toBe(400);
    expect(named.body.message).toBe('name in URL does not match name in Eviction object');
  });
});
