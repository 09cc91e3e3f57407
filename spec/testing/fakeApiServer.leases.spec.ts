// coordination.k8s.io/v1 Leases on the fake API server through client-node's CoordinationV1Api
// (create, get, replace with a 409 on a stale resourceVersion, list, watch, delete), and the
// partition fault: one client's requests hang or are reset while the others are served.
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { CoordinationV1Api, type V1Lease } from '@kubernetes/client-node';
import { firstValueFrom, filter, take, toArray } from 'rxjs';
import { LeaseConflictError } from '../../lib/leaderelection/leaderElectionErrors.js';
import { leaseLock } from '../../lib/leaderelection/leaseLock.js';
import { listWatch } from '../../lib/listwatch/createListWatch.js';
import { leasesResource } from '../../lib/sharding/sharding.js';
import { DEFAULT_TOKEN, remoteFaults, startFakeApiServer, type FakeApiServer } from '../../lib/testing/index.js';
import { clientNodeTransport, type ClientNodeTransport } from '../../lib/transport/clientNode.js';
import { TransportError } from '../../lib/transport/transportError.js';
import { waitFor } from '../leaderelection/e2eSupport.js';

const status = (e: unknown): number | undefined => (e as { code?: number; statusCode?: number }).code ?? (e as { statusCode?: number }).statusCode;

describe('fake API server: Leases and partitions', () => {
  let api: FakeApiServer;
  const transports: ClientNodeTransport[] = [];
  beforeEach(async () => {
    api = await startFakeApiServer({ tokens: [{ token: DEFAULT_TOKEN, user: 'admin' }, { token: 'token-a', user: 'a' }, { token: 'token-b', user: 'b' }] });
  });
  afterEach(async () => {
    transports.splice(0).forEach((t) => t.destroy());
    await api.close();
  });
  const transport = (token: string) => {
    const t = clientNodeTransport(api.kubeConfig({ token }));
    transports.push(t);
    return t;
  };

  it('serves Leases as kube-apiserver does to client-node: create, get, replace (409 when stale), list, delete', async () => {
    const coordination = api.kubeConfig().makeApiClient(CoordinationV1Api);
    const created: V1Lease = await coordination.createNamespacedLease({
      namespace: 'default',
      body: { metadata: { name: 'l' }, spec: { holderIdentity: 'a', leaseDurationSeconds: 15 } },
    });
    expect(created.metadata?.resourceVersion).toBeDefined();
    const got = await coordination.readNamespacedLease({ name: 'l', namespace: 'default' });
    expect(got.spec?.holderIdentity).toBe('a');
    const renewed = await coordination.replaceNamespacedLease({ name: 'l', namespace: 'default', body: { ...got, spec: { ...got.spec, holderIdentity: 'b' } } });
    expect(renewed.metadata?.resourceVersion).not.toBe(got.metadata?.resourceVersion);
    let stale: unknown;
    try {
      await coordination.replaceNamespacedLease({ name: 'l', namespace: 'default', body: { ...got, spec: { ...got.spec, holderIdentity: 'c' } } });
    } catch (e) {
      stale = e;
    }
    expect(status(stale)).toBe(409);
    const list = await coordination.listNamespacedLease({ namespace: 'default' });
    expect(list.items.map((l) => [l.metadata?.name, l.spec?.holderIdentity])).toEqual([['l', 'b']]);
    await coordination.deleteNamespacedLease({ name: 'l', namespace: 'default' });
    expect(api.get('leases.coordination.k8s.io', 'default', 'l')).toBeUndefined();
  });

  it('watches Leases: a change made meanwhile arrives as MODIFIED', async () => {
    api.create('leases.coordination.k8s.io', { metadata: { name: 'w', namespace: 'default' }, spec: { holderIdentity: 'a' } });
    const lw = listWatch<V1Lease>(transport(DEFAULT_TOKEN), leasesResource, { namespace: 'default' });
    const page = await firstValueFrom(lw.list({}));
    const events = firstValueFrom(lw.watch({ resourceVersion: page.resourceVersion }).pipe(filter((e) => e.type === 'MODIFIED'), take(1), toArray()));
    await api.waitForWatches(1, 'leases.coordination.k8s.io');
    api.patch('leases.coordination.k8s.io', 'default', 'w', { spec: { holderIdentity: 'b' } });
    const [modified] = await events;
    expect((modified as { object: V1Lease }).object.spec?.holderIdentity).toBe('b');
  });

  it('leaseLock: 404 reads as no Lease, a stale update and a second create are LeaseConflictErrors, labels are kept', async () => {
    const lock = leaseLock(transport('token-a'), 'default', 'lk', { labels: { 'rxkube.io/shard-of': 'x' } });
    expect(await firstValueFrom(lock.get())).toBeUndefined();
    const record = { holderIdentity: 'a', leaseDurationSeconds: 15, acquireTime: Date.UTC(2026, 0, 1), renewTime: Date.UTC(2026, 0, 1, 0, 0, 0, 123), leaderTransitions: 0 };
    const created = await firstValueFrom(lock.create(record));
    expect(created.record).toEqual(record);
    expect(api.get<{ spec: object; metadata: { labels: object } }>('leases.coordination.k8s.io', 'default', 'lk')).toMatchObject({
      metadata: { labels: { 'rxkube.io/shard-of': 'x' } },
      spec: { holderIdentity: 'a', leaseDurationSeconds: 15, leaseTransitions: 0, acquireTime: '2026-01-01T00:00:00.000000Z', renewTime: '2026-01-01T00:00:00.123000Z' },
    });
    await expect(firstValueFrom(lock.create(record))).rejects.toBeInstanceOf(LeaseConflictError);
    const updated = await firstValueFrom(lock.update({ ...record, renewTime: record.renewTime + 1000 }, created.resourceVersion));
    await expect(firstValueFrom(lock.update(record, created.resourceVersion))).rejects.toBeInstanceOf(LeaseConflictError);
    expect((await firstValueFrom(lock.get()))?.resourceVersion).toBe(updated.resourceVersion);
  });

  it("partition: a cut-off user's requests are held (reset on heal) or reset at once, the others are served; heal restores it", async () => {
    const a = leaseLock(transport('token-a'), 'default', 'p');
    const b = leaseLock(transport('token-b'), 'default', 'p');
    api.faults.partition({ user: 'a', mode: 'hang' });
    let settled = false;
    const hung = firstValueFrom(a.get()).finally(() => (settled = true));
    expect(await firstValueFrom(b.get())).toBeUndefined(); // b is served meanwhile
    await waitFor(() => api.faults.hungRequests() === 1, 5_000, "a's request to be held");
    expect(settled).toBe(false);
    // Healing resets what was held: the client sees a broken connection, never a late answer.
    expect(api.faults.heal({ user: 'a' })).toBe(1);
    await expect(hung).rejects.toBeInstanceOf(TransportError);

    api.faults.partition({ user: 'a', mode: 'reset' });
    await expect(firstValueFrom(a.get())).rejects.toBeInstanceOf(TransportError);
    expect(api.faults.heal()).toBe(0);
    expect(await firstValueFrom(a.get())).toBeUndefined();
  });

  it('partition and heal over HTTP (remoteFaults), as for a server in another process', async () => {
    const faults = remoteFaults(api.url, { token: DEFAULT_TOKEN, ca: api.caCert });
    await faults.partition({ user: 'b', mode: 'reset' });
    const b = leaseLock(transport('token-b'), 'default', 'r');
    await expect(firstValueFrom(b.get())).rejects.toBeInstanceOf(TransportError);
    await faults.heal({ user: 'b' });
    expect(await firstValueFrom(b.get())).toBeUndefined();
  });
});
