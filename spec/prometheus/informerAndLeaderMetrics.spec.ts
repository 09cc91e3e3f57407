import { describe, expect, it } from '@jest/globals';
import { Registry } from 'prom-client';
import { TestScheduler } from 'rxjs/testing';
import type { V1ConfigMap } from '@kubernetes/client-node';
import { informer } from '../../lib/informer/informer.js';
import { leaderElection } from '../../lib/leaderelection/leaderElection.js';
import { prometheusMetrics } from '../../lib/prometheus/index.js';
import { fakeListWatch, listPage } from '../../lib/testing/marbles.js';
import { memoryLeaseStore } from '../../lib/testing/memoryLeaseStore.js';
import { apiError } from '../reflector/scriptedListWatch.js';

const line = (text: string, prefix: string) => text.split('\n').find((l) => l.startsWith(prefix));
const cm = (name: string, rv: string): V1ConfigMap => ({
  metadata: { name, namespace: 'ns', resourceVersion: rv },
});
const LABELS = '{name="cms",group="",version="v1",resource="configmaps"}';

describe('rxkube/prometheus: informer sync, lag and list/watch errors; leader election', () => {
  it('counts the reflector errors by operation and action, and reads synced and lag at scrape', async () => {
    const ts = new TestScheduler((a, e) => expect(a).toEqual(e));
    const registry = new Registry();
    const metrics = prometheusMetrics(registry);
    const scrapes: string[] = [];
    let lagAt5s = 0;
    await ts.run(async ({ cold }) => {
      // The first list fails (403: relist after a backoff), the second lists; the watch then
      // expires (410: relist).
      const lw = fakeListWatch<V1ConfigMap>({
        lists: [
          cold('-#', {}, apiError(403, 'Forbidden')),
          cold('-(p|)', { p: listPage([cm('a', '1')], '1') }),
          cold('-(p|)', { p: listPage([cm('a', '1')], '2') }),
        ],
        watches: [cold('--#', {}, apiError(410, 'Expired')), cold('-')],
      });
      const inf = informer(lw, { reflector: { random: () => 0 }, scheduler: ts, name: 'cms' });
      // A handler that never finishes its first notification: the informer's lag grows.
      inf.addEventHandler({ add: () => new Promise<void>(() => undefined) });
      metrics.addInformer(inf, { name: 'cms', group: '', version: 'v1', resource: 'configmaps' });
      ts.schedule(() => void registry.metrics().then((t) => scrapes.push(t)), 0);
      inf.start();
      ts.schedule(() => {
        lagAt5s = inf.lag().oldestAgeMs / 1000;
        void registry.metrics().then((t) => scrapes.push(t));
      }, 5_000);
      ts.schedule(() => void inf.stop(), 5_001);
    });
    await new Promise((r) => setImmediate(r));
    expect(line(scrapes[0], `rxkube_informer_synced${LABELS}`)).toMatch(/ 0$/);
    const later = await registry.metrics();
    expect(
      line(
        later,
        `rxkube_informer_list_watch_errors_total{name="cms",group="",version="v1",resource="configmaps",operation="list",action="relist"}`,
      ),
    ).toMatch(/ 1$/);
    expect(
      line(
        later,
        `rxkube_informer_list_watch_errors_total{name="cms",group="",version="v1",resource="configmaps",operation="watch",action="relist"}`,
      ),
    ).toMatch(/ 1$/);
    expect(line(scrapes[1], `rxkube_informer_synced${LABELS}`)).toMatch(/ 1$/);
    // Notifications queue behind the stuck handler since the relist: the gauge is the informer's lag.
    expect(lagAt5s).toBeGreaterThan(1);
    expect(line(scrapes[1], `rxkube_informer_lag_seconds${LABELS}`)).toBe(
      `rxkube_informer_lag_seconds${LABELS} ${lagAt5s}`,
    );
  });

  it('leader_election_master_status is 1 while the elector leads and 0 while it stands by', async () => {
    const ts = new TestScheduler((a, e) => expect(a).toEqual(e));
    const registry = new Registry();
    const metrics = prometheusMetrics(registry);
    const seen: string[] = [];
    const scrape = () =>
      void registry.metrics().then((t) => seen.push(line(t, 'leader_election_master_status{') ?? 'none'));
    ts.run(() => {
      const store = memoryLeaseStore({ scheduler: ts, name: 'ns/lock' });
      const other = leaderElection({
        lock: store.lock('other'),
        identity: 'other',
        scheduler: ts,
        random: () => 0,
      });
      const mine = leaderElection({
        lock: store.lock('mine'),
        identity: 'mine',
        scheduler: ts,
        random: () => 0,
      });
      metrics.addLeaderElector(mine);
      other.start();
      ts.schedule(() => mine.start(), 100);
      ts.schedule(scrape, 1_000);
      ts.schedule(() => void other.stop(), 2_000);
      ts.schedule(scrape, 60_000);
      ts.schedule(() => void mine.stop(), 60_001);
    });
    await new Promise((r) => setImmediate(r));
    expect(seen).toEqual([
      'leader_election_master_status{name="ns/lock"} 0',
      'leader_election_master_status{name="ns/lock"} 1',
    ]);
  });
});
