import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { builtInResources } from '../../lib/factory/builtInResources.js';
import { informer, type Informer } from '../../lib/informer/informer.js';
import { listWatch } from '../../lib/listwatch/createListWatch.js';
import { ReflectorError } from '../../lib/reflector/reflectorError.js';
import type { RxkubeError } from '../../lib/errors.js';
import { startFakeApiServer, type FakeApiServer } from '../../lib/testing/index.js';
import { clientNodeTransport, type ClientNodeTransport } from '../../lib/transport/clientNode.js';
import type { Transport } from '../../lib/transport/transport.js';
import { fastBackoff, newPod, podAtVersion, rvs, serverView, waitFor, type Pod } from './e2eSupport.js';

// An etcd restore, end to end: the informer's server is replaced by one whose resource versions are
// lower than the informer's. The re-watch from the old RV is answered "Too large resource version"
// (504, ResourceVersionTooLarge) after a short wait, as kube-apiserver does; the reflector relists,
// the list at the old RV is too large as well, so the next list is at "" (R3), and the store converges
// to the new server's objects. (Before the fake server answered, that watch stayed open silently.)

jest.setTimeout(60_000);

const servers: FakeApiServer[] = [];
const transports: ClientNodeTransport[] = [];
let inf: Informer<Pod> | undefined;

afterEach(async () => {
  await inf?.stop();
  inf = undefined;
  transports.splice(0).forEach((t) => t.destroy());
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function server(): Promise<FakeApiServer> {
  const s = await startFakeApiServer({ tooLargeResourceVersionWaitMs: 50 });
  servers.push(s);
  return s;
}

describe('etcd restore: the server is replaced by one with lower resource versions', () => {
  it('R3: the re-watch gets 504 ResourceVersionTooLarge, the relist at the old RV too, the list at "" converges', async () => {
    const before = await server();
    for (let i = 0; i < 5; i++) before.create('pods', newPod(`old-${i}`));
    for (let v = 1; v <= 20; v++)
      before.update('pods', podAtVersion(before.get<Pod>('pods', 'default', 'old-0')!, v));
    // The "restored" server: an older history (lower RVs), other objects.
    const after = await server();
    after.create('pods', newPod('old-1'));
    after.create('pods', newPod('new-a'));
    expect(Number(after.resourceVersion)).toBeLessThan(Number(before.resourceVersion));

    // One address in front of both, as a load balancer or DNS name is.
    let target = clientNodeTransport(before.kubeConfig());
    transports.push(target);
    const front: Transport = { request: (req) => target.request(req) };
    const errors: RxkubeError[] = [];
    inf = informer<Pod>(listWatch<Pod>(front, builtInResources.pods, { namespace: 'default' }), {
      reflector: { backoff: fastBackoff, random: () => 0 },
    });
    inf.errors$.subscribe((e) => errors.push(e));
    inf.start();
    await inf.waitForCacheSync();
    const watching = () => before.requests.some((q) => q.verb === 'watch' && q.resource === 'pods');
    await waitFor(watching, 'the watch on the first server');
    const oldRv = before.resourceVersion;

    target = clientNodeTransport(after.kubeConfig());
    transports.push(target);
    await before.close(); // ends its watch: the informer re-watches from oldRv, now on `after`

    const store = () => new Map(inf!.list().map((p) => [`${p.metadata?.namespace}/${p.metadata?.name}`, p]));
    await waitFor(
      () => JSON.stringify(rvs(store())) === JSON.stringify(rvs(serverView(after))),
      'the store to converge to the restored server',
      30_000,
      () => `store ${JSON.stringify(rvs(store()))}; errors ${errors.map((e) => e.message).join('; ')}`,
    );
    const tooLarge = errors.filter(
      (e): e is ReflectorError =>
        e instanceof ReflectorError && e.statusCode === 504 && e.reason === 'Timeout',
    );
    expect(tooLarge.map((e) => [e.operation, e.action])).toEqual([
      ['watch', 'relist'],
      ['list', 'listFromLatest'],
    ]);
    const requests = after.requests
      .filter((q) => q.resource === 'pods')
      .map((q) => `${q.verb}@${q.query.resourceVersion ?? ''}`);
    expect(requests.slice(0, 3)).toEqual([`watch@${oldRv}`, `list@${oldRv}`, 'list@']);
    expect([...store().keys()].sort()).toEqual(['default/new-a', 'default/old-1']);
  });
});
