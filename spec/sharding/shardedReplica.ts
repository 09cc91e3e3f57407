// A replica of a sharded controller for the e2e test: rxkube's controller over a widget informer,
// its keys filtered by a membership shard (`keyFilter$: shard.keyFilter$`). Reconciles are logged
// with their start and end, for the overlap check.
import { controller, type Controller } from '../../lib/controller/controller.js';
import { informer, type Informer } from '../../lib/informer/informer.js';
import { listWatch } from '../../lib/listwatch/createListWatch.js';
import type { Resource } from '../../lib/listwatch/resource.js';
import type { KubeObject } from '../../lib/meta/kubeObject.js';
import { sharding, type Shard } from '../../lib/sharding/sharding.js';
import type { FakeApiServer } from '../../lib/testing/index.js';
import { clientNodeTransport } from '../../lib/transport/clientNode.js';
import { timings } from '../leaderelection/e2eSupport.js';

export const widgets: Resource = { group: 'example.com', version: 'v1', plural: 'widgets', kind: 'Widget', namespaced: true };
export type Widget = KubeObject & { spec?: { v?: number } };

export interface Reconcile {
  readonly replica: string;
  readonly key: string;
  readonly generation: number;
  readonly start: number;
  end: number | undefined;
}

export interface Replica {
  readonly id: string;
  readonly shard: Shard;
  readonly informer: Informer<Widget>;
  readonly controller: Controller;
  /** A crash: stops everything at once, without releasing the membership Lease. */
  kill(): Promise<void>;
}

export async function startReplica(api: FakeApiServer, id: string, log: Reconcile[], concurrency = 4): Promise<Replica> {
  const transport = clientNodeTransport(api.kubeConfig({ token: `token-${id}` }));
  const shard = sharding({ source: transport, namespace: 'default', controllerName: 'widgets', identity: id, ...timings, releaseOnStop: false });
  const inf = informer(listWatch<Widget>(transport, widgets, { namespace: 'default' }));
  const ctl = controller<Widget>({
    name: `widgets-${id}`,
    for: inf,
    concurrency,
    keyFilter$: shard.keyFilter$,
    reconcile: async (key, { object }) => {
      const generation = (object?.metadata as { generation?: number } | undefined)?.generation ?? 0;
      const entry: Reconcile = { replica: id, key, generation, start: performance.now(), end: undefined };
      log.push(entry);
      await new Promise((r) => setImmediate(r)); // a real gap (I/O runs in it), cheaper than a timer
      entry.end = performance.now();
    },
  });
  shard.start();
  ctl.start();
  await inf.waitForCacheSync();
  return {
    id,
    shard,
    informer: inf,
    controller: ctl,
    async kill() {
      // A crash leaves the membership Lease to expire; the reconciles in flight end at once.
      await shard.stop();
      await ctl.stop();
      await inf.stop();
      transport.destroy();
    },
  };
}
