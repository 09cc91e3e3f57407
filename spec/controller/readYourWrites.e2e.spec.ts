// Read-your-own-writes end to end: informers and writes through @kubernetes/client-node against
// rxkube's fake API server on 127.0.0.1. Waits are bounded polls on state (never sleep-then-assert).
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { CoreV1Api, type V1ConfigMap } from '@kubernetes/client-node';
import { filter, map } from 'rxjs';
import '../../lib/transport/clientNode.js';
import { builtInResources } from '../../lib/factory/builtInResources.js';
import { informer, type Informer } from '../../lib/informer/informer.js';
import { listWatch } from '../../lib/listwatch/createListWatch.js';
import { controller, type Controller } from '../../lib/controller/controller.js';
import type { ControllerMetricEvent } from '../../lib/controller/controllerMetrics.js';
import { compareResourceVersions } from '../../lib/meta/compareResourceVersions.js';
import { finalizer } from '../../lib/write/finalizer.js';
import { jsonPatch } from '../../lib/write/jsonPatch.js';
import { startFakeApiServer, type FakeApiServer } from '../../lib/testing/index.js';
import { waitFor } from '../support/waitFor.js';

const configMap = (name: string): V1ConfigMap => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'default' }, data: { v: '0' } });
const fast = { random: () => 0, backoff: { initialMs: 5, capMs: 50, jitter: 0 } };
const N = 20;
const AGAIN = 3;

let api: FakeApiServer;
let ctl: Controller | undefined;
let inf: Informer<V1ConfigMap> | undefined;

beforeEach(async () => {
  api = await startFakeApiServer({ bookmarkIntervalMs: 0 });
});

afterEach(async () => {
  await ctl?.stop();
  ctl = undefined;
  await inf?.stop();
  inf = undefined;
  await api.close();
});

/**
 * A controller that annotates each ConfigMap on every reconcile (a JSON patch tested on the
 * version it read) and reconciles each key again right after its reconcile ends (a source built
 * from its own results$), AGAIN times: the reconcile that follows a write at once, before the
 * write's watch event can have arrived unless the controller waits for it.
 */
async function annotateAgain(readYourWrites: boolean) {
  for (let i = 0; i < N; i++) api.create(builtInResources.configMaps, configMap(`c${i}`));
  const kc = api.kubeConfig();
  const core = kc.makeApiClient(CoreV1Api);
  inf = informer(listWatch<V1ConfigMap>(kc, builtInResources.configMaps, { namespace: 'default' }), { reflector: fast });
  const lastWritten = new Map<string, string>();
  const rounds = new Map<string, number>();
  const tally = { stale: 0, conflicts: 0, reconciles: 0 };
  const metrics: ControllerMetricEvent[] = [];
  const c = controller({
    name: 'annotate',
    for: inf,
    forKind: { apiVersion: 'v1', kind: 'ConfigMap' },
    // Its own writes do not trigger it: only the initial list and the source below do.
    predicates: [(n) => n.type === 'add'],
    concurrency: 4,
    readYourWrites,
    reconcile: async (key, ctx) => {
      const cm = ctx.object;
      if (!cm?.metadata?.name) return;
      tally.reconciles++;
      rounds.set(key, (rounds.get(key) ?? 0) + 1);
      const mine = lastWritten.get(key);
      if (mine !== undefined && (compareResourceVersions(cm.metadata.resourceVersion, mine) ?? 0) < 0) tally.stale++;
      const body = jsonPatch(cm, (d) => {
        d.metadata!.annotations = { ...d.metadata!.annotations, round: String(rounds.get(key)) };
      });
      try {
        const written = await ctx.track(core.patchNamespacedConfigMap({ name: cm.metadata.name, namespace: 'default', body }));
        lastWritten.set(key, written.metadata!.resourceVersion!);
      } catch (e) {
        if ((e as { code?: number }).code === 422 || (e as { code?: number }).code === 409) tally.conflicts++;
        throw e;
      }
    },
  });
  ctl = c;
  c.metrics$.subscribe((m) => metrics.push(m));
  c.addSource(
    c.results$.pipe(
      filter((r) => r.result === 'success' && (rounds.get(r.key) ?? 0) < AGAIN),
      map((r) => r.key),
    ),
    'again',
  );
  c.start();
  await waitFor(() => [...rounds.values()].filter((n) => n >= AGAIN).length === N, `every key reconciled ${AGAIN} times`);
  return { tally, metrics, stats: c.stats() };
}

describe('read-your-own-writes end to end (fake API server on loopback, client-node)', () => {
  it('a reconcile right after the key\'s own write reads that write (or later): no stale read, no conflict', async () => {
    const { tally, metrics, stats } = await annotateAgain(true);
    expect(tally.stale).toBe(0);
    expect(tally.conflicts).toBe(0);
    expect(tally.reconciles).toBeGreaterThanOrEqual(N * AGAIN);
    // Each follow-up reconcile came after a wait (possibly of 0 ms): one per key and round.
    expect(stats.ownWritesWaitsTotal).toBeGreaterThanOrEqual(N * (AGAIN - 1));
    expect(stats.ownWritesTimeoutsTotal).toBe(0);
    expect(metrics.filter((m) => m.type === 'ownWritesWait').length).toBe(stats.ownWritesWaitsTotal);
  });

  it('finalizer({ tracker: ctx }) records its patch; ctx.wrote(obj, { deleted: true }) waits for the delete, not for the bound', async () => {
    api.create(builtInResources.configMaps, configMap('f'));
    const kc = api.kubeConfig();
    const core = kc.makeApiClient(CoreV1Api);
    inf = informer(listWatch<V1ConfigMap>(kc, builtInResources.configMaps, { namespace: 'default' }), { reflector: fast });
    const seen: string[] = [];
    const errors: string[] = [];
    let deleted = false;
    const c = controller({
      for: inf,
      forKind: { apiVersion: 'v1', kind: 'ConfigMap' },
      readYourWritesTimeout: 60_000,
      reconcile: async (key, ctx) => {
        const cm = ctx.object;
        seen.push(cm === undefined ? 'gone' : (cm.metadata?.finalizers ?? []).join(',') || 'none');
        if (cm === undefined) return;
        if (!(cm.metadata?.finalizers ?? []).includes('example.com/f')) {
          await finalizer({
            name: 'example.com/f',
            object: cm,
            tracker: ctx,
            patch: (o, body) => core.patchNamespacedConfigMap({ name: o.metadata!.name!, namespace: 'default', body }),
            reconcile: () => undefined,
          });
          // Reconcile again at once: it must see the finalizer (its own write).
          c.queue.add(key);
          return;
        }
        if (!deleted) {
          deleted = true;
          await finalizer({
            name: 'example.com/f',
            object: cm,
            tracker: ctx,
            patch: (o, body) => core.patchNamespacedConfigMap({ name: o.metadata!.name!, namespace: 'default', body }),
            reconcile: () => undefined,
          }).catch(() => undefined);
          // Remove the finalizer by hand and delete: the next reconcile must see it gone.
          const fresh = api.get<V1ConfigMap>(builtInResources.configMaps, 'default', 'f')!;
          await core.patchNamespacedConfigMap({ name: 'f', namespace: 'default', body: jsonPatch(fresh, (d) => void (d.metadata!.finalizers = [])) });
          await core.deleteNamespacedConfigMap({ name: 'f', namespace: 'default' });
          ctx.wrote(cm, { deleted: true });
          c.queue.add(key);
        }
      },
    });
    ctl = c;
    c.errors$.subscribe((e) => errors.push(e.code));
    c.start();
    await waitFor(() => seen.includes('gone'), 'the deletion reconciled');
    expect(seen).toEqual(['none', 'example.com/f', 'gone']);
    expect(errors).toEqual([]);
    expect(c.stats().ownWritesTimeoutsTotal).toBe(0);
  });
});
