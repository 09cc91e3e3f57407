// The controller end to end: informers through @kubernetes/client-node against rxkube's fake API
// server on 127.0.0.1, a reconcile that writes back through client-node, failures and retries.
// Waits are bounded polls on state (never sleep-then-assert).
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { AppsV1Api, PatchStrategy, setHeaderOptions, type V1Deployment, type V1Pod } from '@kubernetes/client-node';
import '../../lib/transport/clientNode.js';
import { builtInResources } from '../../lib/factory/builtInResources.js';
import { informer, type Informer } from '../../lib/informer/informer.js';
import { listWatch } from '../../lib/listwatch/createListWatch.js';
import { controller, type Controller } from '../../lib/controller/controller.js';
import { generationChanged } from '../../lib/controller/changePredicate.js';
import { ReconcileError } from '../../lib/controller/controllerErrors.js';
import { itemExponentialFailureRateLimiter } from '../../lib/workqueue/itemExponentialFailureRateLimiter.js';
import { startFakeApiServer, type FakeApiServer } from '../../lib/testing/index.js';
import { HeldKeys } from '../workqueue/support.js';
import { waitFor } from '../support/waitFor.js';

const deployment = (name: string): V1Deployment => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name, namespace: 'default' },
  spec: {
    replicas: 1,
    selector: { matchLabels: { app: name } },
    template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
  },
});

const fast = { random: () => 0, backoff: { initialMs: 5, capMs: 50, jitter: 0 } };
let api: FakeApiServer;
let ctl: Controller | undefined;
let infs: Array<Informer<V1Deployment> | Informer<V1Pod>> = [];

beforeEach(async () => {
  api = await startFakeApiServer({ bookmarkIntervalMs: 0 });
});

afterEach(async () => {
  await ctl?.stop();
  ctl = undefined;
  await Promise.all(infs.map((i) => i.stop()));
  infs = [];
  await api.close();
});

describe('controller end to end (fake API server on loopback, client-node)', () => {
  it('reconciles every deployment at its latest generation, retries failures, follows owned pods, never one key in two workers', async () => {
    for (let i = 0; i < 30; i++) api.create(builtInResources.deployments, deployment(`d${i}`));
    const kc = api.kubeConfig();
    const apps = kc.makeApiClient(AppsV1Api);
    const deployments = informer(listWatch<V1Deployment>(kc, builtInResources.deployments, { namespace: 'default' }), { reflector: fast });
    const pods = informer(listWatch<V1Pod>(kc, builtInResources.pods, { namespace: 'default' }), { reflector: fast });
    infs = [deployments, pods];
    const held = new HeldKeys();
    const attempts = new Map<string, number>();
    const reconciled = new Map<string, number>();
    ctl = controller({
      name: 'annotate',
      for: deployments,
      forKind: { apiVersion: 'apps/v1', kind: 'Deployment' },
      owns: [pods],
      predicates: [generationChanged],
      concurrency: 4,
      rateLimiter: itemExponentialFailureRateLimiter({ baseMs: 1, maxMs: 20 }),
      reconcile: async (key, { object }) => {
        held.enter(key);
        try {
          const n = (attempts.get(key) ?? 0) + 1;
          attempts.set(key, n);
          if (!object?.metadata?.name) return;
          // Every fifth key fails its first two attempts.
          if (Number(object.metadata.name.slice(1)) % 5 === 0 && n <= 2) throw new Error(`flaky ${key}`);
          await apps.patchNamespacedDeployment(
            {
              namespace: 'default',
              name: object.metadata.name,
              body: { metadata: { labels: { 'rxkube.dev/generation': String(object.metadata.generation) } } },
            },
            setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
          );
          reconciled.set(key, (reconciled.get(key) ?? 0) + 1);
        } finally {
          held.leave(key);
        }
      },
    });
    const errors: ReconcileError[] = [];
    ctl.errors$.subscribe((e) => {
      if (e instanceof ReconcileError) errors.push(e);
    });
    ctl.start();

    const annotated = () =>
      api
        .list<V1Deployment>(builtInResources.deployments, 'default')
        .items.every((d) => d.metadata?.labels?.['rxkube.dev/generation'] === String(d.metadata?.generation));
    await waitFor(annotated, 'every deployment labelled with its generation');
    expect(errors.filter((e) => !e.terminal).map((e) => e.key).sort()).toEqual(
      ['d0', 'd0', 'd10', 'd10', 'd15', 'd15', 'd20', 'd20', 'd25', 'd25', 'd5', 'd5'].map((n) => `default/${n}`).sort(),
    );

    // Spec changes bump the generation: the controller catches up.
    for (const name of ['d1', 'd2', 'd3']) {
      const d = api.get<V1Deployment>(builtInResources.deployments, 'default', name)!;
      api.update(builtInResources.deployments, { ...d, spec: { ...d.spec!, replicas: 3 } });
    }
    await waitFor(annotated, 'the changed deployments annotated with their new generation');

    // A pod owned (controller: true) by d7 triggers d7.
    const before = reconciled.get('default/d7') ?? 0;
    const d7 = api.get<V1Deployment>(builtInResources.deployments, 'default', 'd7')!;
    api.create(builtInResources.pods, {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        name: 'd7-pod',
        namespace: 'default',
        ownerReferences: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'd7', uid: d7.metadata!.uid!, controller: true }],
      },
      spec: { containers: [{ name: 'c', image: 'nginx' }] },
    });
    await waitFor(() => (reconciled.get('default/d7') ?? 0) > before, 'd7 reconciled after its pod was created');

    await ctl.stop();
    expect(ctl.status()).toBe('stopped');
    expect(held.violations).toEqual([]);
    expect(held.maxConcurrent).toBeLessThanOrEqual(4);
    expect(ctl.stats().reconcileErrorsTotal).toBe(12);
  });
});
