// core/v1 and events.k8s.io/v1 Events are one storage (TESTCLUSTER.md §7): an Event written through
// either API is the same object in both, mapped field by field, and what rxkube's eventRecorder
// writes shows in `kubectl describe` and `kubectl events` (a real kubectl).
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { CoreV1Api, EventsV1Api, type CoreV1Event, type EventsV1Event, type V1Pod } from '@kubernetes/client-node';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { firstValueFrom } from 'rxjs';
import { clientNodeEventSink, eventRecorder, objectReference, type EventRecorder } from '../../lib/index.js';
import { podFixture, startFakeApiServer, type FakeApiServer } from '../../lib/testing/index.js';
import { findKubectl, runKubectl } from './kubectlRunner.js';
import { raw, rawWatch } from './rawClient.js';

describe('fake API server: Events, one storage for core/v1 and events.k8s.io/v1', () => {
  let api: FakeApiServer;
  let core: CoreV1Api;
  let events: EventsV1Api;
  let recorder: EventRecorder;
  let pod: V1Pod;
  beforeEach(async () => {
    api = await startFakeApiServer();
    const kc = api.kubeConfig();
    core = kc.makeApiClient(CoreV1Api);
    events = kc.makeApiClient(EventsV1Api);
    recorder = eventRecorder({ sink: clientNodeEventSink(events), reportingController: 'example.com/backup', reportingInstance: 'backup-0' });
    pod = api.create<V1Pod>('pods', { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web', namespace: 'default' }, spec: { containers: [{ name: 'c', image: 'nginx' }] } });
  });
  afterEach(async () => {
    recorder.close();
    await api.close();
  });

  const record = async (note: string) => {
    const written = firstValueFrom(recorder.written$);
    recorder.publish({ type: 'Warning', reason: 'BackupFailed', action: 'Backup', note, regarding: objectReference(pod, { apiVersion: 'v1', kind: 'Pod' }) });
    return written;
  };

  it('an events.k8s.io/v1 Event (from eventRecorder) is a core/v1 Event with the core field names, same name, uid and resourceVersion', async () => {
    await record('disk full');
    const [v1] = (await events.listNamespacedEvent({ namespace: 'default' })).items;
    const [c] = (await core.listNamespacedEvent({ namespace: 'default' })).items;
    expect(c.metadata).toEqual(v1.metadata);
    expect(c).toMatchObject({
      message: 'disk full',
      reason: 'BackupFailed',
      type: 'Warning',
      action: 'Backup',
      reportingComponent: 'example.com/backup',
      reportingInstance: 'backup-0',
      involvedObject: { kind: 'Pod', name: 'web', namespace: 'default', uid: pod.metadata?.uid },
    });
    expect(c.eventTime).toEqual(v1.eventTime);
  });

  it('a core/v1 Event shows in events.k8s.io/v1 mapped back (note, regarding, deprecatedCount, deprecatedSource, timestamps)', async () => {
    const body: CoreV1Event = {
      metadata: { name: 'web.1', namespace: 'default' },
      involvedObject: { kind: 'Pod', name: 'web', namespace: 'default', uid: pod.metadata?.uid },
      reason: 'Pulled',
      message: 'image pulled',
      type: 'Normal',
      count: 3,
      source: { component: 'kubelet', host: 'node-1' },
      firstTimestamp: new Date('2026-01-01T00:00:00Z'),
      lastTimestamp: new Date('2026-01-01T00:01:00Z'),
    };
    await core.createNamespacedEvent({ namespace: 'default', body });
    const r = await raw(api, '/apis/events.k8s.io/v1/namespaces/default/events/web.1');
    expect(r.json).toMatchObject({
      apiVersion: 'events.k8s.io/v1',
      kind: 'Event',
      note: 'image pulled',
      reason: 'Pulled',
      type: 'Normal',
      regarding: { kind: 'Pod', name: 'web', namespace: 'default' },
      deprecatedCount: 3,
      deprecatedSource: { component: 'kubelet', host: 'node-1' },
      deprecatedFirstTimestamp: '2026-01-01T00:00:00Z',
      deprecatedLastTimestamp: '2026-01-01T00:01:00Z',
    });
    expect(r.json.message).toBeUndefined();
  });

  it('a series update through events.k8s.io shows in core/v1; a delete through core/v1 removes it from both', async () => {
    const ev = await record('again');
    await events.patchNamespacedEvent({ name: ev.metadata.name, namespace: 'default', body: [{ op: 'add', path: '/series', value: { count: 2, lastObservedTime: new Date().toISOString() } }] });
    const c = await core.readNamespacedEvent({ name: ev.metadata.name, namespace: 'default' });
    expect(c.series?.count).toBe(2);
    await core.deleteNamespacedEvent({ name: ev.metadata.name, namespace: 'default' });
    const gone = await raw(api, `/apis/events.k8s.io/v1/namespaces/default/events/${ev.metadata.name}`);
    expect(gone.status).toBe(404);
  });

  it('a watch of core/v1 Events sees what is written through events.k8s.io/v1', async () => {
    const w = await rawWatch(api, '/api/v1/namespaces/default/events', { query: { watch: 'true', resourceVersion: api.resourceVersion } });
    try {
      await record('watched');
      const [e] = await w.until((es) => es.length >= 1);
      expect([e.type, e.object.apiVersion, e.object.message]).toEqual(['ADDED', 'v1', 'watched']);
    } finally {
      w.close();
    }
  });

  it('field selectors of kubectl describe (involvedObject.*) on core/v1, regarding.* on events.k8s.io/v1', async () => {
    await record('mine');
    const other = api.create<V1Pod>('pods', podFixture({ name: 'other' }));
    const written = firstValueFrom(recorder.written$);
    recorder.publish({ type: 'Normal', reason: 'Other', action: 'X', regarding: objectReference(other, { apiVersion: 'v1', kind: 'Pod' }) });
    await written;
    const selector = `involvedObject.uid=${pod.metadata?.uid},involvedObject.name=web,involvedObject.namespace=default,involvedObject.kind=Pod`;
    const mine = await core.listNamespacedEvent({ namespace: 'default', fieldSelector: selector });
    expect(mine.items.map((e) => e.message)).toEqual(['mine']);
    const v1 = await events.listNamespacedEvent({ namespace: 'default', fieldSelector: 'regarding.name=other' });
    expect(v1.items.map((e: EventsV1Event) => e.reason)).toEqual(['Other']);
    const bad = await raw(api, '/apis/events.k8s.io/v1/namespaces/default/events', { query: { fieldSelector: 'involvedObject.name=web' } });
    expect([bad.status, bad.json.message]).toEqual([400, 'field label not supported: involvedObject.name']);
  });

  describe('with kubectl', () => {
    const kubectl = findKubectl();
    let dir: string;
    beforeAll(() => {
      dir = mkdtempSync(join(tmpdir(), 'rxkube-kubectl-events-'));
    });
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    it('kubectl describe pod shows the Event eventRecorder wrote; kubectl events lists it', async () => {
      await api.writeKubeConfig(join(dir, 'config'));
      await record('backup of web failed: disk full');
      const describe = await runKubectl(kubectl, dir, 'describe', 'pod', 'web', '-n', 'default');
      expect(describe).not.toMatch(/Events:\s+<none>/);
      expect(describe).toMatch(/Events:\s*\n\s+Type\s+Reason\s+Age\s+From\s+Message/);
      expect(describe).toMatch(/Warning\s+BackupFailed\s+\S+\s+example\.com\/backup\s+backup of web failed: disk full/);
      const listed = await runKubectl(kubectl, dir, 'events', '-n', 'default');
      expect(listed).toMatch(/Warning\s+BackupFailed\s+pod\/web\s+backup of web failed: disk full/i);
    });
  });
});
