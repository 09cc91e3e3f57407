// The tutorial's test (docs/tutorial.md, "4. The test"), on the tutorial's own files: the CRD
// comes from the definition (startFakeApiServer({ crds: [backups] })), nothing else is written twice.
import { afterEach, beforeEach, expect, test } from '@jest/globals';
import { CustomObjectsApi, type EventsV1Event, type V1ConfigMap } from '@kubernetes/client-node';
import { startFakeApiServer, waitFor, type FakeApiServer } from 'rxkube/testing';
import { backups, GROUP, PLURAL, VERSION, type Backup } from './backup.js';
import { backupController, FINALIZER, type BackupController, type BackupStore } from './backupController.js';

let api: FakeApiServer;
let ctl: BackupController;
// Longer than waitFor's 5 s default: the suite runs beside others on a shared, loaded machine.
const patiently = { timeout: 20_000 };
const deleted: string[] = [];
const store: BackupStore = { deleteAll: async (backup) => void deleted.push(backup) };

beforeEach(async () => {
  api = await startFakeApiServer({ crds: [backups] });
  ctl = backupController(api.kubeConfig(), store);
  ctl.start();
});

afterEach(async () => {
  await ctl.stop();
  await api.close();
});

test('a Backup gets its ConfigMap, status and Event; deleting it cleans up', async () => {
  const custom = api.kubeConfig().makeApiClient(CustomObjectsApi);
  const backup: Backup = {
    apiVersion: `${GROUP}/${VERSION}`,
    kind: 'Backup',
    metadata: { name: 'nightly', namespace: 'default' },
    spec: { schedule: '0 3 * * *' },
  };
  await custom.createNamespacedCustomObject({ group: GROUP, version: VERSION, plural: PLURAL, namespace: 'default', body: backup });

  const configMap = await waitFor(() => api.get<V1ConfigMap>('configmaps', 'default', 'nightly-backup'), patiently);
  expect(configMap.data).toEqual({ schedule: '0 3 * * *' });
  expect(configMap.metadata.ownerReferences).toEqual([expect.objectContaining({ kind: 'Backup', name: 'nightly', controller: true })]);

  const stored = await waitFor(() => {
    const b = api.get<Backup>('backups.example.com', 'default', 'nightly');
    return b?.status?.configMap ? b : undefined;
  }, patiently);
  expect(stored.status).toEqual({ configMap: 'nightly-backup', observedGeneration: 1 });
  expect(stored.metadata.finalizers).toEqual([FINALIZER]);

  const event = await waitFor(() =>
    api.list<EventsV1Event>('events.events.k8s.io', 'default').items.find((e) => e.reason === 'ConfigMapCreated'),
  patiently);
  expect(event.regarding).toMatchObject({ kind: 'Backup', name: 'nightly' });

  await custom.deleteNamespacedCustomObject({ group: GROUP, version: VERSION, plural: PLURAL, namespace: 'default', name: 'nightly' });
  await waitFor(() => deleted.includes('default/nightly'), { ...patiently, description: 'the backups outside the cluster to be deleted' });
  await waitFor(() => api.get('backups.example.com', 'default', 'nightly') === undefined, { ...patiently, description: 'the Backup to be gone' });
  await waitFor(() => api.get('configmaps', 'default', 'nightly-backup') === undefined, { ...patiently, description: 'the ConfigMap to be collected' });
}, 90_000);

test('the server refuses a Backup the definition refuses, with the rule\'s message', async () => {
  const custom = api.kubeConfig().makeApiClient(CustomObjectsApi);
  const bad = backups.object({ metadata: { name: 'weekly', namespace: 'default' }, spec: { schedule: 'weekly' } });
  expect(backups.validate(bad).map((p) => `${p.field}: ${p.message}`)).toEqual(['spec: Invalid value: schedule must be a cron schedule of five fields']);
  const refused = await custom
    .createNamespacedCustomObject({ group: GROUP, version: VERSION, plural: PLURAL, namespace: 'default', body: bad })
    .then(() => undefined, (e: { code?: number; body?: string }) => e);
  expect(refused?.code).toBe(422);
  expect(refused?.body).toContain('spec: Invalid value: schedule must be a cron schedule of five fields');
});
