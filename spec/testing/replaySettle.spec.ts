// docs/testing.md's replayListWatch example stops the informer on virtual time: it must not stop
// before the last relist the recording causes has landed, whatever the reflector's backoff and its
// jitter draw. replaySettleTime gives that time.
import { describe, expect, it } from '@jest/globals';
import { TestScheduler } from 'rxjs/testing';
import { builtInResources } from '../../lib/factory/builtInResources.js';
import { informer } from '../../lib/informer/informer.js';
import { parseRecording, replayListWatch, replaySettleTime, type Recording } from '../../lib/testing/index.js';
import { listedPod } from '../support/pods.js';

type Pod = ReturnType<typeof listedPod>;
const pod = (name: string, rv: string): Pod => listedPod(name, rv, { uid: `uid-${name}` });
const lines = (...entries: object[]) => entries.map((e) => JSON.stringify(e)).join('\n');
const HEADER = { type: 'header', format: 'rxkube-traffic', version: 1, startedAt: '2026-01-01T00:00:00.000Z', streams: [{ resource: builtInResources.pods, namespace: 'ns' }] };
const EXPIRED = { kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'Expired', code: 410, message: 'too old resource version' };

// The watch expires twice near the end; c and d were created while it was down.
const recording: Recording = parseRecording(
  lines(
    HEADER,
    { type: 'list', stream: 0, t: 0, resourceVersion: '5', items: [pod('a', '5')] },
    { type: 'event', stream: 0, t: 500, event: { type: 'ADDED', object: pod('b', '6') } },
    { type: 'event', stream: 0, t: 980, event: { type: 'ERROR', object: EXPIRED } },
    { type: 'list', stream: 0, t: 985, resourceVersion: '8', items: [pod('a', '5'), pod('b', '6'), pod('c', '8')] },
    { type: 'event', stream: 0, t: 990, event: { type: 'ERROR', object: EXPIRED } },
    { type: 'list', stream: 0, t: 995, resourceVersion: '9', items: [pod('a', '5'), pod('b', '6'), pod('c', '8'), pod('d', '9')] },
    { type: 'end', t: 1000 },
  ),
);

/** The informer's keys when stopped at `stopAt`, its reflector drawing `draw` for every jitter. */
function keysWhenStoppedAt(stopAt: number, draw: number): string[] {
  const ts = new TestScheduler((a, e) => expect(a).toEqual(e));
  let keys: string[] = [];
  ts.run(({ flush }) => {
    const inf = informer(replayListWatch<Pod>(recording, { stream: builtInResources.pods }), { reflector: { random: () => draw } });
    inf.start();
    ts.schedule(() => {
      keys = [...inf.listKeys()].sort();
      void inf.stop();
    }, stopAt);
    flush();
  });
  return keys;
}

describe('replaySettleTime', () => {
  it('stopping one second after the end (the old example) can miss the last relists', () => {
    expect(keysWhenStoppedAt((recording.endedAt ?? 0) + 1000, 0.99)).not.toContain('ns/d');
  });

  it.each([0, 0.5, 0.999])('is late enough for every relist to land (jitter draw %p)', (draw) => {
    expect(keysWhenStoppedAt(replaySettleTime(recording), draw)).toEqual(['ns/a', 'ns/b', 'ns/c', 'ns/d']);
  });

  it('is the end plus the longest backoff before each recorded relist, from the given backoff options', () => {
    // Two relists (one per expiry; the lists they lead to are the same relists): 800·2 + 1600·2 after the end.
    expect(replaySettleTime(recording)).toBe(1000 + 1600 + 3200);
    expect(replaySettleTime(recording, { backoff: { initialMs: 10, jitter: 0 } })).toBe(1000 + 10 + 20);
    expect(replaySettleTime(recording, { backoff: { initialMs: 20_000, capMs: 30_000 } })).toBe(1000 + 40_000 + 60_000);
  });
});
