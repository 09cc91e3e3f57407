// The replay's rule for a recorded DELETED, as a pure decision: a stream without selectors deletes;
// a selector stream deletes only when no later entry shows the object (same uid) and no other
// stream of the type shows it at that point.
import { describe, expect, it } from '@jest/globals';
import { builtInResources } from '../../lib/factory/builtInResources.js';
import { Liveness, refOf } from '../../lib/testing/record/liveness.js';
import type { RecordedStream, RecordedTraffic } from '../../lib/testing/record/recording.js';

const pod = (name: string, uid = `uid-${name}`) => ({ metadata: { namespace: 'ns', name, uid } });
const streams: RecordedStream[] = [
  { resource: builtInResources.pods },
  { resource: builtInResources.pods, labelSelector: 'app=web' },
  { resource: builtInResources.pods, fieldSelector: 'spec.nodeName=n1' },
  { resource: builtInResources.configMaps, labelSelector: 'app=web' },
];
const typeIdOf = (s: number) => (s === 3 ? 'configmaps' : 'pods');
const entries: RecordedTraffic[] = [
  { type: 'list', stream: 0, t: 0, resourceVersion: '1', items: [pod('a')] },
  { type: 'event', stream: 1, t: 1, event: { type: 'DELETED', object: pod('a') } },
  { type: 'event', stream: 1, t: 2, event: { type: 'DELETED', object: pod('b') } },
  { type: 'event', stream: 1, t: 3, event: { type: 'MODIFIED', object: pod('b') } },
  { type: 'event', stream: 1, t: 4, event: { type: 'ADDED', object: pod('c', 'uid-c2') } },
];
const ref = (name: string, uid = `uid-${name}`) => refOf('pods', pod(name, uid));

describe('Liveness', () => {
  it('a stream without selectors always deletes', () => {
    expect(new Liveness(entries, typeIdOf, streams).isDeletion(0, 1, ref('b'))).toBe(true);
  });

  it('a selector stream keeps what a later entry shows alive, with the same uid', () => {
    const live = new Liveness(entries, typeIdOf, streams);
    expect(live.isDeletion(1, 2, ref('b'))).toBe(false);
    expect(live.isDeletion(1, 3, ref('b'))).toBe(true); // nothing after entry 3 shows b
    expect(live.isDeletion(1, 1, ref('c'))).toBe(true); // c comes back later as another object (uid-c2)
    expect(live.isDeletion(1, 1, ref('c', 'uid-c2'))).toBe(false);
  });

  it('a selector stream (label or field) keeps what another stream of the type shows now', () => {
    const live = new Liveness(entries, typeIdOf, streams);
    live.show(0, ref('a'));
    expect(live.isDeletion(1, 1, ref('a'))).toBe(false);
    expect(live.isDeletion(2, 1, ref('a'))).toBe(false);
    expect(live.isDeletion(1, 1, ref('a', 'other-uid'))).toBe(true);
    live.hide(0, ref('a'));
    expect(live.isDeletion(1, 1, ref('a'))).toBe(true);
  });

  it('another type’s stream says nothing about the object', () => {
    const live = new Liveness(entries, typeIdOf, streams);
    live.show(3, refOf('configmaps', pod('a')));
    expect(live.isDeletion(1, 1, ref('a'))).toBe(true);
  });
});
