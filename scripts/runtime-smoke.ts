// The Bun and Deno legs' smoke (scripts/check-runtime.mjs copies it into the tutorial's project, where
// `rxkube` is the installed tarball): an informer, a controller and leader election against the fake
// API server, through the packages as a user's program loads them. Each part is bounded by waitFor's
// timeout; prints one line per part and `N passed, N failed`, exit code 1 on a failure.
import { CoreV1Api, PatchStrategy, setHeaderOptions, type V1ConfigMap } from '@kubernetes/client-node';
import { controller, leaderElection, leaseLock, sharedInformerFactory, type LeaderElector } from 'rxkube';
import { startFakeApiServer, waitFor, type FakeApiServer } from 'rxkube/testing';

const runtime = typeof (globalThis as { Bun?: unknown }).Bun === 'object' ? 'bun' : typeof (globalThis as { Deno?: unknown }).Deno === 'object' ? 'deno' : 'node';
const timeout = 20_000;

async function informer(api: FakeApiServer): Promise<void> {
  api.create('pods', { metadata: { namespace: 'shop', name: 'web-1', labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'i' }] } });
  const factory = sharedInformerFactory(api.kubeConfig());
  const pods = factory.pods();
  const added: string[] = [];
  pods.addEventHandler({ add: (pod) => void added.push(pod.metadata?.name ?? '') });
  factory.start();
  const synced = await factory.waitForCacheSync({ timeout });
  if (synced.get('pods') !== true) throw new Error(`not synced: ${JSON.stringify([...synced])}`);
  api.create('pods', { metadata: { namespace: 'shop', name: 'web-2', labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'i' }] } });
  await waitFor(() => pods.lister().list('app=web').length === 2, { timeout, description: 'the informer to see web-2' });
  if (added.join() !== 'web-1,web-2') throw new Error(`handler saw ${added.join()}`);
  await factory.shutdown();
}

async function reconciler(api: FakeApiServer): Promise<void> {
  const kc = api.kubeConfig();
  const core = kc.makeApiClient(CoreV1Api);
  const factory = sharedInformerFactory(kc, { namespace: 'shop' });
  const ctl = controller<V1ConfigMap & { metadata: { name?: string } }>({
    name: 'smoke',
    for: factory.configMaps(),
    reconcile: async (_key, ctx) => {
      const cm = ctx.object;
      if (!cm || cm.data?.['seen'] === 'yes') return;
      const patch = { namespace: 'shop', name: cm.metadata.name!, body: { data: { seen: 'yes' } } };
      await ctx.track(core.patchNamespacedConfigMap(patch, setHeaderOptions('Content-Type', PatchStrategy.MergePatch)));
    },
  });
  const errors: string[] = [];
  ctl.errors$.subscribe((e) => void errors.push(e.message));
  ctl.start();
  factory.start();
  api.create('configmaps', { metadata: { namespace: 'shop', name: 'settings' }, data: { a: '1' } });
  await waitFor(() => api.get<V1ConfigMap>('configmaps', 'shop', 'settings')?.data?.['seen'] === 'yes', { timeout, description: `the controller to patch settings (its errors: ${errors.join('; ') || 'none'})` });
  await ctl.stop();
  await factory.shutdown();
}

async function election(api: FakeApiServer): Promise<void> {
  const leading: string[] = [];
  const elector = (identity: string): LeaderElector =>
    leaderElection({
      lock: leaseLock(api.kubeConfig(), 'default', 'smoke'),
      identity,
      leaseDuration: 2_000,
      renewDeadline: 1_500,
      retryPeriod: 200,
      releaseOnCancel: true,
      onStartedLeading: () => void leading.push(identity),
      onStoppedLeading: () => undefined,
    });
  const a = elector('a');
  a.start();
  await waitFor(() => a.isLeader(), { timeout, description: 'a to lead' });
  const b = elector('b');
  b.start();
  await a.stop(); // releases the lease: b takes over
  await waitFor(() => b.isLeader(), { timeout, description: 'b to take over' });
  await b.stop();
  if (leading.join() !== 'a,b') throw new Error(`leaders: ${leading.join()}`);
}

let passed = 0;
let failed = 0;
for (const [name, part] of [['informer', informer], ['controller', reconciler], ['leader election', election]] as const) {
  const api = await startFakeApiServer({ namespaces: ['shop'] });
  const t0 = Date.now();
  try {
    await part(api);
    passed++;
    console.log(`${runtime} smoke: ${name} ok (${Date.now() - t0} ms)`);
  } catch (e) {
    failed++;
    console.error(`${runtime} smoke: ${name} FAILED: ${e instanceof Error ? e.stack : String(e)}`);
  } finally {
    await api.close();
  }
}
console.log(`${runtime} smoke: ${passed} passed, ${failed} failed`);
if (failed > 0) process.exit(1);
