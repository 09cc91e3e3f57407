// A replica of a sharded controller for the e2e test: a widget informer, a membership shard, a key
// queue (a key is never run twice at once in one replica) and `concurrency` workers that reconcile
// only the keys the shard owns. Reconciles are logged with their start and end, for the overlap check.
import { informer, type Informer } from '../../lib/informer/informer.js';
import { listWatch } from '../../lib/listwatch/createListWatch.js';
import type { Resource } from '../../lib/listwatch/resource.js';
import type { KubeObject } from '../../lib/meta/kubeObject.js';
import { metaNamespaceKeyFunc } from '../../lib/meta/keys.js';
import { keysGained } from '../../lib/sharding/shardFilter.js';
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
  /** A crash: stops everything at once, without releasing the membership Lease. */
  kill(): Promise<void>;
}

export async function startReplica(api: FakeApiServer, id: string, log: Reconcile[], concurrency = 4): Promise<Replica> {
  const transport = clientNodeTransport(api.kubeConfig({ token: `token-${id}` }));
  const shard = sharding({ source: transport, namespace: 'default', controllerName: 'widgets', identity: id, ...timings, releaseOnStop: false });
  const inf = informer(listWatch<Widget>(transport, widgets, { namespace: 'default' }));
  const queue = new Set<string>();
  const processing = new Set<string>();
  let dead = false;
  let wake: (() => void) | undefined;
  const enqueue = (key: string): void => {
    if (dead || !shard.owns(key)) return;
    queue.add(key);
    wake?.();
  };
  inf.addEventHandler({
    add: (w) => enqueue(metaNamespaceKeyFunc(w)),
    update: (_, w) => enqueue(metaNamespaceKeyFunc(w)),
  });
  const gained = keysGained(shard.assignment$, () => inf.listKeys()).subscribe(enqueue);
  const next = (): string | undefined => {
    for (const key of queue) {
      if (processing.has(key)) continue;
      queue.delete(key);
      return key;
    }
    return undefined;
  };
  const worker = async (): Promise<void> => {
    while (!dead) {
      const key = next();
      if (key === undefined) {
        await new Promise<void>((r) => {
          wake = r;
          setTimeout(r, 20);
        });
        continue;
      }
      // Ownership is checked when a worker picks a key (it may have moved since it was queued).
      if (!shard.owns(key)) continue;
      processing.add(key);
      const obj = inf.getByKey(key);
      const entry: Reconcile = { replica: id, key, generation: (obj?.metadata as { generation?: number } | undefined)?.generation ?? 0, start: performance.now(), end: undefined };
      log.push(entry);
      await new Promise((r) => setTimeout(r, 1));
      entry.end = performance.now();
      processing.delete(key);
    }
  };
  inf.start();
  shard.start();
  await inf.waitForCacheSync();
  const workers = Array.from({ length: concurrency }, () => worker());
  return {
    id,
    shard,
    informer: inf,
    async kill() {
      dead = true;
      wake?.();
      gained.unsubscribe();
      await shard.stop();
      await inf.stop();
      await Promise.all(workers);
      transport.destroy();
    },
  };
}
