// Record a (fake, over HTTPS) cluster's list and watch traffic, then replay it: as a ListWatch on
// virtual time under an informer, and into another fake server that an informer watches.
import { afterEach, describe, expect, it } from '@jest/globals';
import '../../lib/transport/clientNode.js'; // registers the KubeConfig transport, as importing 'rxkube' does
import { CoreV1Api } from '@kubernetes/client-node';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { firstValueFrom, map, VirtualTimeScheduler } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { builtInResources } from '../../lib/factory/builtInResources.js';
import { informer, type Informer } from '../../lib/informer/informer.js';
import { listWatch } from '../../lib/listwatch/createListWatch.js';
import {
  describeNotification,
  parseRecording,
  readRecording,
  recordTraffic,
  replayListWatch,
  startFakeApiServer,
  type FakeApiServer,
  type Recording,
  type RecordingEntry,
} from '../../lib/testing/index.js';
import { listedPod } from '../support/pods.js';
import { waitFor } from '../support/waitFor.js';

interface Obj {
  apiVersion?: string;
  kind?: string;
  metadata: { name: string; namespace?: string; resourceVersion?: string; uid?: string; labels?: Record<string, string> };
  data?: Record<string, string>;
}
const pod = (name: string, rv: string, labels: Record<string, string> = {}): Obj => listedPod(name, rv, { uid: `uid-${name}`, labels });
const lines = (...entries: object[]) => entries.map((e) => JSON.stringify(e)).join('\n');
const HEADER = { type: 'header', format: 'rxkube-traffic', version: 1, startedAt: '2026-01-01T00:00:00.000Z', streams: [{ resource: builtInResources.pods, namespace: 'ns' }] };
const SECRET_TOKEN = 'very-secret-recording-token-4711';

const servers: FakeApiServer[] = [];
let inf: Informer<Obj> | undefined;
afterEach(async () => {
  await inf?.stop();
  inf = undefined;
  await Promise.all(servers.splice(0).map((s) => s.close()));
});
const server = async (...args: Parameters<typeof startFakeApiServer>) => {
  const s = await startFakeApiServer(...args);
  servers.push(s);
  return s;
};

describe('recordTraffic', () => {
  it('records lists and watch events of several streams as JSON lines, with no credential and Secrets redacted', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rxkube-record-'));
    try {
      const api = await server({ namespaces: ['ns', 'other'] });
      api.addToken({ token: SECRET_TOKEN, user: 'admin' });
      api.create('pods', { metadata: { name: 'a', namespace: 'ns' }, spec: { containers: [{ name: 'c', image: 'nginx' }] } });
      api.create('secrets', { metadata: { name: 's', namespace: 'ns' }, data: { password: Buffer.from('hunter2').toString('base64') } });
      const file = join(dir, 'traffic.jsonl');
      const rec = recordTraffic(api.kubeConfig({ token: SECRET_TOKEN }), [{ resource: builtInResources.pods, namespace: 'ns' }, builtInResources.secrets], file);
      const seen: RecordingEntry[] = [];
      rec.entries$.subscribe((e) => seen.push(e));
      await api.waitForWatches(2);
      api.create('pods', { metadata: { name: 'b', namespace: 'ns' }, spec: { containers: [{ name: 'c', image: 'nginx' }] } });
      api.patch('pods', 'ns', 'a', { metadata: { labels: { v: '2' } } });
      api.delete('pods', 'ns', 'b');
      api.create('pods', { metadata: { name: 'elsewhere', namespace: 'other' }, spec: { containers: [{ name: 'c', image: 'nginx' }] } });
      await waitFor(() => seen.some((e) => e.type === 'event' && e.event.type === 'DELETED'), 'the DELETED event to be recorded');
      await rec.stop();

      const text = readFileSync(file, 'utf8');
      expect(text).not.toContain(SECRET_TOKEN);
      expect(text).not.toMatch(/authorization|bearer|BEGIN CERTIFICATE|PRIVATE KEY|hunter2|aHVudGVyMg/i);
      expect(text).not.toContain(api.caCert!.split('\n')[1]);
      const recording = parseRecording(text);
      expect(recording.streams).toEqual([{ resource: builtInResources.pods, namespace: 'ns' }, { resource: builtInResources.secrets }]);
      expect(recording.endedAt).toBeGreaterThanOrEqual(0);
      const lists = recording.entries.filter((e) => e.type === 'list');
      expect(lists.map((l) => [l.stream, l.items.map((i) => (i.metadata as { name: string }).name)])).toEqual(
        expect.arrayContaining([
          [0, ['a']],
          [1, ['s']],
        ]),
      );
      const secret = lists.find((l) => l.stream === 1)!.items[0];
      expect(secret).toMatchObject({ apiVersion: 'v1', kind: 'Secret', data: { password: '' } });
      const podEvents = recording.entries.filter((e) => e.type === 'event' && e.stream === 0 && e.event.type !== 'BOOKMARK');
      expect(podEvents.map((e) => (e.type === 'event' && e.event.type !== 'MALFORMED' ? `${e.event.type} ${(e.event.object.metadata as { name: string }).name}` : ''))).toEqual([
        'ADDED b',
        'MODIFIED a',
        'DELETED b',
      ]);
      const times = recording.entries.map((e) => e.t);
      expect([...times].sort((x, y) => x - y)).toEqual(times);
      expect(await readRecording(file)).toEqual(recording);

      // The same file, replayed under an informer on virtual time, ends where the cluster did.
      const ts = new TestScheduler((x, y) => expect(x).toEqual(y));
      ts.run(({ flush }) => {
        const i = informer(replayListWatch<Obj>(recording, { stream: builtInResources.pods }), { reflector: { random: () => 0 } });
        i.start();
        ts.schedule(() => void i.stop(), recording.endedAt! + 1000);
        flush();
        expect(i.listKeys()).toEqual(['ns/a']);
        expect(i.getByKey('ns/a')?.metadata.labels).toEqual({ v: '2' });
        expect(i.getByKey('ns/a')?.metadata.resourceVersion).toBe(api.get('pods', 'ns', 'a')?.metadata.resourceVersion);
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a file that cannot be written stops the recording with an error on errors$ and a rejected stop(), never a crash', async () => {
    const api = await server();
    const rec = recordTraffic(api.kubeConfig(), [builtInResources.pods], join(tmpdir(), 'no-such-dir-rxkube', 'x', 'traffic.jsonl'));
    const err = await firstValueFrom(rec.errors$);
    expect(String(err)).toContain('ENOENT');
    await expect(rec.stop()).rejects.toThrow(/ENOENT/);
  });
});

describe('parseRecording', () => {
  it('refuses what is not a recording, and keeps what was complete of one cut short', () => {
    expect(() => parseRecording('{"kind":"PodList"}')).toThrow('not an rxkube traffic recording: line 1');
    expect(() => parseRecording(lines({ ...HEADER, version: 2 }))).toThrow('version 2 is not supported');
    expect(() => parseRecording(lines(HEADER, { type: 'list', stream: 3, t: 0, resourceVersion: '1', items: [] }))).toThrow('line 2: no time or no known stream');
    const cut = `${lines(HEADER, { type: 'list', stream: 0, t: 0, resourceVersion: '1', items: [] })}\n{"type":"event","str`;
    expect(parseRecording(cut).entries).toHaveLength(1);
    expect(parseRecording(cut).endedAt).toBeUndefined();
  });
});

describe('replayListWatch (virtual time)', () => {
  const recording: Recording = parseRecording(
    lines(
      HEADER,
      { type: 'list', stream: 0, t: 10, resourceVersion: '5', items: [pod('a', '4')] },
      { type: 'event', stream: 0, t: 30, event: { type: 'ADDED', object: pod('b', '6') } },
      { type: 'event', stream: 0, t: 50, event: { type: 'MODIFIED', object: pod('a', '7', { v: '2' }) } },
      { type: 'event', stream: 0, t: 70, event: { type: 'ERROR', object: { kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'Expired', code: 410, message: 'too old resource version' } } },
      { type: 'list', stream: 0, t: 75, resourceVersion: '9', items: [pod('a', '7', { v: '2' }), pod('c', '9')] },
      { type: 'event', stream: 0, t: 90, event: { type: 'DELETED', object: pod('a', '10') } },
      { type: 'end', t: 100 },
    ),
  );

  it('an informer on the replay sees the recorded story at the recorded times, the 410 relist included', () => {
    const ts = new TestScheduler((a, e) => expect(a).toEqual(e));
    ts.run(({ expectObservable }) => {
      const i = informer(replayListWatch<Obj>(recording), { reflector: { random: () => 0, backoff: { initialMs: 1, capMs: 1, jitter: 0 } } });
      expectObservable(i.events$.pipe(map((n) => describeNotification(n))), '^ 120ms !').toBe('10ms a 19ms b 19ms u 24ms (cx) 11ms d', {
        a: 'add ns/a@4 initial',
        b: 'add ns/b@6',
        u: 'update ns/a@4->7',
        // The relist after the recorded 410 lists c, and no longer b (deleted while the watch was down).
        c: 'add ns/c@9',
        x: 'delete ns/b@6 tombstone',
        d: 'delete ns/a@10',
      });
      i.start();
      ts.schedule(() => void i.stop(), 200); // the informer's own timers would run virtual time for ever
    });
  });

  it('the store holds the recorded state at each point of the timeline', () => {
    const ts = new TestScheduler((a, e) => expect(a).toEqual(e));
    ts.run(({ flush }) => {
      const i = informer(replayListWatch<Obj>(recording, { stream: builtInResources.pods }), { reflector: { random: () => 0, backoff: { initialMs: 1, capMs: 1, jitter: 0 } } });
      const seen: Record<number, string[]> = {};
      for (const t of [5, 15, 35, 55, 80, 95]) ts.schedule(() => (seen[t] = i.listKeys().slice().sort()), t);
      i.start();
      ts.schedule(() => void i.stop(), 200); // the informer's own timers would run virtual time for ever
      flush();
      expect(seen).toEqual({ 5: [], 15: ['ns/a'], 35: ['ns/a', 'ns/b'], 55: ['ns/a', 'ns/b'], 80: ['ns/a', 'ns/c'], 95: ['ns/c'] });
      expect(i.getByKey('ns/c')?.metadata.resourceVersion).toBe('9');
    });
  });

  it('names a stream the recording lacks in a clear error', () => {
    expect(() => replayListWatch(recording, { stream: builtInResources.configMaps })).toThrow('the recording has no stream configmaps; it has pods');
  });
});

describe('api.replay (into a fake API server)', () => {
  const recording: Recording = parseRecording(
    lines(
      { ...HEADER, streams: [{ resource: builtInResources.pods, namespace: 'ns' }, { resource: { group: 'example.com', version: 'v1', plural: 'widgets', kind: 'Widget', namespaced: false } }] },
      { type: 'list', stream: 0, t: 10, resourceVersion: '5', items: [pod('a', '4')] },
      { type: 'list', stream: 1, t: 12, resourceVersion: '5', items: [{ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w', uid: 'uid-w', resourceVersion: '3' }, spec: { size: 1 } }] },
      { type: 'event', stream: 0, t: 30, event: { type: 'ADDED', object: pod('b', '6') } },
      { type: 'event', stream: 0, t: 50, event: { type: 'MODIFIED', object: pod('a', '7', { v: '2' }) } },
      { type: 'event', stream: 1, t: 55, event: { type: 'MODIFIED', object: { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w', uid: 'uid-w', resourceVersion: '8' }, spec: { size: 2 } } } },
      { type: 'event', stream: 0, t: 60, event: { type: 'DELETED', object: pod('b', '9') } },
    ),
  );

  it('seeds the first lists at once (uids kept, resource types registered) and plays the events on the given clock; an informer sees them', async () => {
    const api = await server();
    const clock = new VirtualTimeScheduler();
    const replay = api.replay(recording, { scheduler: clock });
    expect(api.get('pods', 'ns', 'a')?.metadata.uid).toBe('uid-a');
    expect(api.get<{ spec: { size: number } }>('widgets.example.com', '', 'w')?.spec.size).toBe(1);
    inf = informer(listWatch<Obj>(api.kubeConfig(), builtInResources.pods, { namespace: 'ns' }), { reflector: { random: () => 0 } });
    const events: string[] = [];
    inf.events$.subscribe((n) => events.push(describeNotification(n).replace(/@\d+(->\d+)?/, '')));
    inf.start();
    await waitFor(() => inf!.hasSynced(), 'the informer to sync');
    await api.waitForWatches(1, 'pods');
    clock.flush();
    await replay.done;
    await waitFor(() => events.length >= 4, 'the replayed events to reach the informer');
    // Per object in recorded order (the DeltaFIFO hands a burst over key by key, as client-go's does).
    expect(events.filter((e) => e.includes('ns/a'))).toEqual(['add ns/a initial', 'update ns/a']);
    expect(events.filter((e) => e.includes('ns/b'))).toEqual(['add ns/b', 'delete ns/b']);
    expect(events).toHaveLength(4);
    expect(inf.getByKey('ns/a')?.metadata.labels).toEqual({ v: '2' });
    expect(inf.getByKey('ns/a')?.metadata.resourceVersion).not.toBe('7'); // the server's own revisions
    const pods = await api.kubeConfig().makeApiClient(CoreV1Api).listNamespacedPod({ namespace: 'ns' });
    expect(pods.items.map((p) => p.metadata?.name)).toEqual(['a']);
    expect(api.get<{ spec: { size: number } }>('widgets.example.com', '', 'w')?.spec.size).toBe(2);
  });

  it('startFakeApiServer({ replay }) serves the recording from the start', async () => {
    const api = await server({ replay: parseRecording(lines(HEADER, { type: 'list', stream: 0, t: 0, resourceVersion: '5', items: [pod('a', '4'), pod('b', '5')] })) });
    const pods = await api.kubeConfig().makeApiClient(CoreV1Api).listNamespacedPod({ namespace: 'ns' });
    expect(pods.items.map((p) => [p.metadata?.name, p.metadata?.uid])).toEqual([
      ['a', 'uid-a'],
      ['b', 'uid-b'],
    ]);
  });
});

