// Replaying overlapping streams into a fake API server: a label-selector stream gets DELETED when an
// object stops matching (kube sends the old content with the change's resourceVersion), which is no
// deletion. The replay deletes only when no other stream and no later entry says the object lives,
// so it ends with exactly the state the recording shows.
import { afterEach, describe, expect, it } from '@jest/globals';
import '../../lib/transport/clientNode.js'; // registers the KubeConfig transport, as importing 'rxkube' does
import { VirtualTimeScheduler } from 'rxjs';
import { builtInResources } from '../../lib/factory/builtInResources.js';
import { informer, type Informer } from '../../lib/informer/informer.js';
import { listWatch } from '../../lib/listwatch/createListWatch.js';
import { describeNotification, parseRecording, startFakeApiServer, type FakeApiServer, type Recording } from '../../lib/testing/index.js';
import { stateAfter, streamEntries } from '../../lib/testing/record/timeline.js';
import { waitFor } from '../support/waitFor.js';

interface Pod {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace: string; uid: string; resourceVersion: string; labels: Record<string, string> };
  spec: { containers: Array<{ name: string; image: string }> };
}
const pod = (namespace: string, name: string, rv: number, app: string): Pod => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace, uid: `uid-${name}`, resourceVersion: String(rv), labels: { app } },
  spec: { containers: [{ name: 'c', image: 'nginx' }] },
});
const event = (stream: number, t: number, type: 'ADDED' | 'MODIFIED' | 'DELETED', object: Pod) => ({ type: 'event', stream, t, event: { type, object } });
const lines = (...entries: object[]) => entries.map((e) => JSON.stringify(e)).join('\n');

// Stream 0 sees every pod of namespace ns; stream 1 sees the app=web pods of every namespace.
const recording: Recording = parseRecording(
  lines(
    {
      type: 'header',
      format: 'rxkube-traffic',
      version: 1,
      startedAt: '2026-01-01T00:00:00.000Z',
      streams: [{ resource: builtInResources.pods, namespace: 'ns' }, { resource: builtInResources.pods, labelSelector: 'app=web' }],
    },
    { type: 'list', stream: 0, t: 0, resourceVersion: '5', items: [pod('ns', 'x', 2, 'web'), pod('ns', 'y', 3, 'web')] },
    { type: 'list', stream: 1, t: 1, resourceVersion: '5', items: [pod('ns', 'x', 2, 'web'), pod('ns', 'y', 3, 'web'), pod('other', 'z', 4, 'web'), pod('other', 'w', 5, 'web')] },
    // x is relabelled: stream 0 sees the change, stream 1 sees x leave (old content, new revision).
    event(0, 10, 'MODIFIED', pod('ns', 'x', 6, 'api')),
    event(1, 10, 'DELETED', pod('ns', 'x', 6, 'web')),
    // y is deleted: both streams say so, the selector stream first.
    event(1, 20, 'DELETED', pod('ns', 'y', 7, 'web')),
    event(0, 20, 'DELETED', pod('ns', 'y', 7, 'web')),
    // z, seen only by stream 1, is deleted (or leaves: nothing says it lives).
    event(1, 30, 'DELETED', pod('other', 'z', 8, 'web')),
    // w leaves the selector and comes back: a later event says it lives.
    event(1, 40, 'DELETED', pod('other', 'w', 9, 'web')),
    event(1, 50, 'ADDED', pod('other', 'w', 10, 'web')),
    // Stream 1 relists (after a 410): x is not in it, and lives on in stream 0.
    { type: 'event', stream: 1, t: 60, event: { type: 'ERROR', object: { kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'Expired', code: 410, message: 'too old' } } },
    { type: 'list', stream: 1, t: 61, resourceVersion: '10', items: [pod('other', 'w', 10, 'web')] },
    { type: 'end', t: 70 },
  ),
);

const servers: FakeApiServer[] = [];
let inf: Informer<Pod> | undefined;
afterEach(async () => {
  await inf?.stop();
  inf = undefined;
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function replayed(): Promise<{ api: FakeApiServer; events: string[] }> {
  const api = await startFakeApiServer();
  servers.push(api);
  const clock = new VirtualTimeScheduler();
  const replay = api.replay(recording, { scheduler: clock });
  inf = informer(listWatch<Pod>(api.kubeConfig(), builtInResources.pods), { reflector: { random: () => 0 } });
  const events: string[] = [];
  inf.events$.subscribe((n) => events.push(describeNotification(n).replace(/@\d+(->\d+)?/, '')));
  inf.start();
  await waitFor(() => inf!.hasSynced(), 'the informer to sync');
  await api.waitForWatches(1, 'pods');
  clock.flush();
  await replay.done;
  await waitFor(() => events.some((e) => e.startsWith('delete other/z')), 'the replayed deletion of z to reach the informer');
  return { api, events };
}

const names = (pods: ReadonlyArray<{ metadata?: unknown }>) =>
  pods.map((p) => {
    const m = p.metadata as Pod['metadata'];
    return `${m.namespace}/${m.name} app=${m.labels.app} ${m.uid}`;
  });

describe('api.replay with a label-selector stream', () => {
  it('keeps an object that only left the selector while another stream shows it', async () => {
    const { api } = await replayed();
    expect(api.get<Pod>('pods', 'ns', 'x')?.metadata.labels).toEqual({ app: 'api' });
  });

  it('never deletes an object a later entry shows alive: the watchers see no DELETED for it', async () => {
    const { events } = await replayed();
    expect(events.filter((e) => e.startsWith('delete'))).toEqual(['delete ns/y', 'delete other/z']);
    // w was written again (the recorded cluster changed it twice), never deleted.
    expect(events.filter((e) => e.includes('other/w'))[0]).toBe('add other/w initial');
    expect(events.filter((e) => e.includes('other/w') && !e.startsWith('update'))).toEqual(['add other/w initial']);
  });

  it('deletes what every stream that saw it says is gone, and ends with exactly the state the streams show', async () => {
    const { api } = await replayed();
    expect(api.get('pods', 'ns', 'y')).toBeUndefined();
    expect(api.get('pods', 'other', 'z')).toBeUndefined();
    const shown = new Map<string, { metadata?: unknown }>();
    recording.streams.forEach((_s, i) => {
      const entries = streamEntries(recording, i);
      for (const o of stateAfter(entries, entries.length - 1).items) {
        const m = o.metadata as Pod['metadata'];
        const key = `${m.namespace}/${m.name}`;
        const seen = shown.get(key)?.metadata as Pod['metadata'] | undefined;
        if (!seen || Number(seen.resourceVersion) < Number(m.resourceVersion)) shown.set(key, o);
      }
    });
    expect(names([...api.list<Pod>('pods').items]).sort()).toEqual(names([...shown.values()]).sort());
    expect(names([...shown.values()]).sort()).toEqual(['ns/x app=api uid-x', 'other/w app=web uid-w']);
  });
});
