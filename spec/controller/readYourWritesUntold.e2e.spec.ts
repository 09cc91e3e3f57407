// Read-your-own-writes without being told: a reconcile writes through @kubernetes/client-node's
// API clients (or rxkube's apply) and never calls ctx.wrote or ctx.track; its writes are recorded
// through its async context and the answers client-node's HTTP stack hands over (client-node 1.x:
// node-fetch over an Agent; 2.x: undici over a Dispatcher, CI's second leg). Against rxkube's fake
// API server on 127.0.0.1. Waits are bounded polls on state.
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { CoreV1Api, CustomObjectsApi, type KubeConfig } from '@kubernetes/client-node';
import type { ConfigMap } from 'kubernetes-types/core/v1.js';
import { filter, map } from 'rxjs';
import { asyncLocalWriteScope } from '../../lib/node/asyncLocalWriteScope.js';
import '../../lib/transport/clientNode.js';
import { builtInResources } from '../../lib/factory/builtInResources.js';
import { sharedInformerFactory, type SharedInformerFactory } from '../../lib/factory/sharedInformerFactory.js';
import { controller, type Controller } from '../../lib/controller/controller.js';
import type { ReconcileContext } from '../../lib/controller/reconciler.js';
import { compareResourceVersions } from '../../lib/meta/compareResourceVersions.js';
import { apply } from '../../lib/write/apply.js';
import { jsonPatch } from '../../lib/write/jsonPatch.js';
import { currentWriteTracker, setWriteScope } from '../../lib/write/writeScope.js';
import { startFakeApiServer, type FakeApiServer } from '../../lib/testing/index.js';
import { waitFor } from '../support/waitFor.js';

const N = 20;
const AGAIN = 3;
const widgets = { group: 'example.com', version: 'v1', plural: 'widgets', kind: 'Widget', namespaced: true, statusSubresource: true };
interface Widget {
  apiVersion?: string;
  kind?: string;
  metadata: { name: string; namespace: string; resourceVersion?: string };
  spec?: { v: number };
  status?: { round?: number };
}

let api: FakeApiServer;
let ctl: Controller | undefined;
let factory: SharedInformerFactory | undefined;

beforeEach(async () => {
  setWriteScope(asyncLocalWriteScope()); // what importing 'rxkube' on Node does
  api = await startFakeApiServer({ bookmarkIntervalMs: 0 });
  api.registerResource(widgets);
});

afterEach(async () => {
  await ctl?.stop();
  ctl = undefined;
  await factory?.shutdown();
  factory = undefined;
  await api.close();
  setWriteScope(undefined);
});

type Write = (w: Widget, round: number, ctx: ReconcileContext<Widget>) => Promise<string | undefined>;

/**
 * A controller that writes each widget's status on every reconcile (a JSON patch tested on the
 * version it read) and reconciles each key again right after (a source from its own results$),
 * AGAIN times: each follow-up reconcile starts before its write's watch event can have arrived,
 * unless the controller waits for it. `write` never tells the context about the write.
 */
async function writeAgain(kc: KubeConfig, write: Write) {
  for (let i = 0; i < N; i++) api.create(widgets, { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: `w${i}`, namespace: 'default' }, spec: { v: i } });
  factory = sharedInformerFactory(kc, { namespace: 'default', logger: false, informerOptions: { reflector: { random: () => 0 } } });
  const lastWritten = new Map<string, string>();
  const rounds = new Map<string, number>();
  const tally = { stale: 0, conflicts: 0, reconciles: 0 };
  const c = controller<Widget>({
    name: 'untold',
    for: factory.informerFor<Widget>(widgets),
    forKind: { apiVersion: 'example.com/v1', kind: 'Widget' },
    predicates: [(n) => n.type === 'add'],
    concurrency: 4,
    logger: false,
    reconcile: async (key, ctx) => {
      const w = ctx.object;
      if (!w) return;
      tally.reconciles++;
      const round = (rounds.get(key) ?? 0) + 1;
      rounds.set(key, round);
      const mine = lastWritten.get(key);
      if (mine !== undefined && (compareResourceVersions(w.metadata.resourceVersion, mine) ?? 0) < 0) tally.stale++;
      try {
        const rv = await write(w, round, ctx);
        if (rv !== undefined) lastWritten.set(key, rv);
      } catch (e) {
        const code = (e as { code?: number; statusCode?: number }).code ?? (e as { statusCode?: number }).statusCode;
        if (code === 422 || code === 409) tally.conflicts++;
        throw e;
      }
    },
  });
  ctl = c;
  c.addSource(c.results$.pipe(filter((r) => r.result === 'success' && (rounds.get(r.key) ?? 0) < AGAIN), map((r) => r.key)), 'again');
  c.start();
  await waitFor(() => [...rounds.values()].filter((n) => n >= AGAIN).length === N, `every key reconciled ${AGAIN} times`);
  return { tally, stats: c.stats() };
}

describe('read-your-own-writes without ctx.wrote (client-node and rxkube writes, fake API server on loopback)', () => {
  it('client-node CustomObjectsApi status writes: every follow-up reconcile reads its own write; no stale read, no conflict', async () => {
    // Made before rxkube sees the KubeConfig: the hook is on the KubeConfig (the one given to the
    // factory), not on the client.
    const kc = api.kubeConfig();
    const custom = kc.makeApiClient(CustomObjectsApi);
    const { tally, stats } = await writeAgain(kc, async (w, round) => {
      const body = jsonPatch(w, (d) => void (d.status = { round }));
      const written = (await custom.patchNamespacedCustomObjectStatus({ ...widgets, namespace: 'default', name: w.metadata.name, body })) as Widget;
      return written.metadata.resourceVersion;
    });
    expect(tally.stale).toBe(0);
    expect(tally.conflicts).toBe(0);
    expect(tally.reconciles).toBeGreaterThanOrEqual(N * AGAIN);
    expect(stats.ownWritesWaitsTotal).toBeGreaterThanOrEqual(N * (AGAIN - 1));
    expect(stats.ownWritesTimeoutsTotal).toBe(0);
  });

  it("rxkube's apply() without a tracker: recorded the same way", async () => {
    const kc = api.kubeConfig();
    const { tally, stats } = await writeAgain(kc, async (w, round) => {
      const written = await apply<Widget>(kc, widgets, { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: w.metadata.name, namespace: 'default' }, status: { round } }, {
        fieldManager: 'untold',
        force: true,
        subresource: 'status',
      });
      return written.metadata.resourceVersion;
    });
    expect(tally.stale).toBe(0);
    expect(stats.ownWritesWaitsTotal).toBeGreaterThanOrEqual(N * (AGAIN - 1));
    expect(stats.ownWritesTimeoutsTotal).toBe(0);
  });

  it('without the async context (a browser, or setWriteScope(undefined)) nothing is recorded untold: no key waits', async () => {
    setWriteScope(undefined);
    const kc = api.kubeConfig();
    const custom = kc.makeApiClient(CustomObjectsApi);
    const { stats } = await writeAgain(kc, async (w, round) => {
      const body = jsonPatch(w, (d) => void (d.status = { round }));
      await custom.patchNamespacedCustomObjectStatus({ ...widgets, namespace: 'default', name: w.metadata.name, body }).catch(() => undefined);
      return undefined;
    });
    expect(stats.ownWritesWaitsTotal).toBe(0);
  });

  it('a delete answered with the object or with a Status is recorded as a deletion; reads and writes outside a reconcile are not recorded', async () => {
    const kc = api.kubeConfig();
    const core = kc.makeApiClient(CoreV1Api);
    for (const name of ['a', 'b']) api.create(builtInResources.configMaps, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'default' } });
    factory = sharedInformerFactory(kc, { namespace: 'default', logger: false });
    const recorded: Array<{ name?: string; deleted: boolean }> = [];
    const configMaps = factory.configMaps();
    const c = controller<ConfigMap>({
      for: configMaps,
      forKind: { apiVersion: 'v1', kind: 'ConfigMap' },
      predicates: [(n) => n.type === 'add'],
      logger: false,
      reconcile: async (key, ctx) => {
        // Spy on the context's own recording (what the untold path calls).
        const wrote = ctx.wrote;
        Object.defineProperty(ctx, 'wrote', { value: (obj: ConfigMap, o?: { deleted?: boolean }) => (recorded.push({ name: obj.metadata?.name, deleted: o?.deleted === true }), wrote(obj, o)) });
        await core.readNamespacedConfigMap({ name: key.split('/')[1], namespace: 'default' });
        await core.deleteNamespacedConfigMap({ name: key.split('/')[1], namespace: 'default' });
      },
    });
    ctl = c;
    c.start();
    await waitFor(() => recorded.length === 2, 'both deletions recorded');
    await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'outside' } } });
    expect(currentWriteTracker()).toBeUndefined();
    expect(recorded.sort((x, y) => String(x.name).localeCompare(String(y.name)))).toEqual([
      { name: 'a', deleted: true },
      { name: 'b', deleted: true },
    ]);
  });
});
