// leaseLock against the fake API server through the client-node transport: the lock's labels are
// re-applied on every update (client-go's LeaseLock.Update sets them each time), whatever another
// writer did to them, and the other labels stay as read.
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { firstValueFrom } from 'rxjs';
import { leaseLock } from '../../lib/leaderelection/leaseLock.js';
import { DEFAULT_TOKEN, startFakeApiServer, type FakeApiServer } from '../../lib/testing/index.js';
import { clientNodeTransport, type ClientNodeTransport } from '../../lib/transport/clientNode.js';

const LEASES = 'leases.coordination.k8s.io';
const record = { holderIdentity: 'a', leaseDurationSeconds: 15, acquireTime: Date.UTC(2026, 0, 1), renewTime: Date.UTC(2026, 0, 1), leaderTransitions: 0 };

describe('leaseLock labels', () => {
  let api: FakeApiServer;
  let transport: ClientNodeTransport;
  beforeEach(async () => {
    api = await startFakeApiServer({ tokens: [{ token: DEFAULT_TOKEN, user: 'admin' }] });
    transport = clientNodeTransport(api.kubeConfig());
  });
  afterEach(async () => {
    transport.destroy();
    await api.close();
  });

  it("re-applies the lock's labels on every update, over a value another writer changed; other labels are kept", async () => {
    const lock = leaseLock(transport, 'default', 'lk', { labels: { 'rxkube.io/shard-of': 'x' } });
    await firstValueFrom(lock.create(record));
    // Someone changes the lock's label and adds one of their own.
    api.patch(LEASES, 'default', 'lk', { metadata: { labels: { 'rxkube.io/shard-of': 'tampered', team: 'ops' } } });
    const read = await firstValueFrom(lock.get());
    await firstValueFrom(lock.update({ ...record, renewTime: record.renewTime + 1000 }, read!.resourceVersion));
    expect(api.get<{ metadata: { labels: object } }>(LEASES, 'default', 'lk')?.metadata.labels).toEqual({ 'rxkube.io/shard-of': 'x', team: 'ops' });
  });

  it('sets the labels on an update of a Lease created without them', async () => {
    api.create(LEASES, { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: 'bare', namespace: 'default' }, spec: {} });
    const lock = leaseLock(transport, 'default', 'bare', { labels: { app: 'ctl' } });
    const read = await firstValueFrom(lock.get());
    await firstValueFrom(lock.update(record, read!.resourceVersion));
    expect(api.get<{ metadata: { labels: object } }>(LEASES, 'default', 'bare')?.metadata.labels).toEqual({ app: 'ctl' });
  });
});
