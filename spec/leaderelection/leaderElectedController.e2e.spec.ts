// rxkube's controller run only while leading (`leading$: elector.leading$`), two replicas against
// the fake API server: the standby's informer is warm (synced) and it reconciles nothing; when the
// leader dies (no release), the standby takes over and reconciles what changed meanwhile.
import { afterEach, describe, expect, it } from '@jest/globals';
import { controller, type Controller } from '../../lib/controller/controller.js';
import { informer, type Informer } from '../../lib/informer/informer.js';
import { leaderElection, type LeaderElector } from '../../lib/leaderelection/leaderElection.js';
import { leaseLock } from '../../lib/leaderelection/leaseLock.js';
import { listWatch } from '../../lib/listwatch/createListWatch.js';
import type { KubeObject } from '../../lib/meta/kubeObject.js';
import type { FakeApiServer } from '../../lib/testing/index.js';
import { clientNodeTransport, type ClientNodeTransport } from '../../lib/transport/clientNode.js';
import { startLeaseServer, timings, waitFor } from './e2eSupport.js';

const configMaps = { group: '', version: 'v1', plural: 'configmaps', kind: 'ConfigMap', namespaced: true };
type ConfigMap = KubeObject & { data?: { [k: string]: string } };

interface Replica {
  readonly id: string;
  readonly elector: LeaderElector;
  readonly informer: Informer<ConfigMap>;
  readonly controller: Controller;
  readonly transport: ClientNodeTransport;
}

describe('a controller that runs only while leading', () => {
  let api: FakeApiServer | undefined;
  let replicas: Replica[] = [];
  afterEach(async () => {
    for (const r of replicas) {
      await r.controller.stop();
      await r.elector.stop();
      await r.informer.stop();
      r.transport.destroy();
    }
    replicas = [];
    await api?.close();
  });

  it('warms up before leadership, reconciles only while leading, and the standby takes over when the leader dies', async () => {
    api = await startLeaseServer(['a', 'b']);
    const server = api;
    for (let i = 0; i < 50; i++) server.create('configmaps', { metadata: { name: `cm-${i}`, namespace: 'default' }, data: { v: '1' } });
    const reconciled: { replica: string; key: string; v: string; leading: boolean }[] = [];
    const start = (id: string): Replica => {
      const transport = clientNodeTransport(server.kubeConfig({ token: `token-${id}` }));
      const elector = leaderElection({ lock: leaseLock(transport, 'default', 'cm-controller'), identity: id, ...timings });
      const inf = informer(listWatch<ConfigMap>(transport, configMaps, { namespace: 'default' }));
      const ctl = controller<ConfigMap>({
        name: `cm-${id}`,
        for: inf,
        concurrency: 2,
        leading$: elector.leading$,
        reconcile: (key, { object }) => {
          reconciled.push({ replica: id, key, v: object?.data?.v ?? '', leading: elector.isLeader() });
        },
      });
      ctl.start(); // informers start now (warm-up); workers only while leading
      elector.start();
      const r = { id, elector, informer: inf, controller: ctl, transport };
      replicas.push(r);
      return r;
    };
    const a = start('a');
    await waitFor(() => a.elector.isLeader() && reconciled.length >= 50, 10_000, 'a to lead and reconcile every ConfigMap');
    const b = start('b');
    await waitFor(() => b.informer.hasSynced() && b.elector.getLeader() === 'a', 5_000, "b's informer to sync while a leads");
    expect(b.informer.list()).toHaveLength(50);
    expect(reconciled.filter((r) => r.replica === 'b')).toEqual([]);

    // a dies without releasing; meanwhile every ConfigMap changes.
    await a.controller.stop();
    await a.elector.stop();
    for (let i = 0; i < 50; i++) server.patch('configmaps', 'default', `cm-${i}`, { data: { v: '2' } });
    await waitFor(() => new Set(reconciled.filter((r) => r.replica === 'b' && r.v === '2').map((r) => r.key)).size === 50, 15_000, 'b to take over and reconcile every change');
    expect(reconciled.every((r) => r.leading)).toBe(true);
    expect(reconciled.filter((r) => r.replica === 'a' && r.v === '2')).toEqual([]);
  }, 60_000);
});
