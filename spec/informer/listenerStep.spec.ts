// The listener's pure step, its lag and its sync tracker, tested as functions (internals on
// purpose): no informer, no handler, no scheduler but TestScheduler's virtual clock for the marbles.
import { describe, expect, it } from '@jest/globals';
import { map, scan } from 'rxjs';
import { listenerLag } from '../../lib/informer/listenerLag.js';
import {
  closeInput,
  closedState,
  idleState,
  inlineState,
  replayReadyInput,
  settledInput,
  awaitingInput,
  type ListenerConfig,
  type ListenerEffect,
  type ListenerInput,
  type ListenerState,
  type ListenerTransition,
} from '../../lib/informer/listenerState.js';
import { listenerStep } from '../../lib/informer/listenerStep.js';
import { addNotification, updateNotification } from '../../lib/informer/notification.js';
import { BatchNotification } from '../../lib/informer/processDeltas.js';
import { Replay, type ReplaySource } from '../../lib/informer/replay.js';
import { resyncLook, resyncSchedule } from '../../lib/informer/resyncSchedule.js';
import {
  initialSyncTracker,
  settleSync,
  trackDropped,
  trackFinished,
  trackStart,
  trackUpstreamSynced,
} from '../../lib/informer/syncTracker.js';
import { describeNotification } from '../../lib/testing/marbles.js';
import { pod, testScheduler, type Pod } from './support.js';

type Clock = { t: number };
const config = (
  clock: Clock,
  bufferSize = Infinity,
  overflow: 'error' | 'dropAndResync' = 'error',
): ListenerConfig => ({
  bufferSize,
  overflow,
  now: () => clock.t,
});
const add = (name: string, initial = false): BatchNotification<Pod> =>
  new BatchNotification(addNotification(pod(name, '1'), initial), `ns/${name}`, false);
const snapshot = (...names: string[]): ReplaySource<Pod> => {
  const m = new Map<string, Pod>(names.map((n) => [`ns/${n}`, pod(n, '1')]));
  return { listKeys: () => [...m.keys()], getByKey: (k) => m.get(k) };
};
const replayOf = (names: string[], initial: boolean, at: number, deferred: boolean): ListenerInput<Pod> => ({
  type: 'replay',
  replay: new Replay(snapshot(...names), undefined, initial, at),
  deferred,
});

/** An effect in words: what the listener is asked to do. */
function describeEffect(e: ListenerEffect<Pod>): string {
  switch (e.kind) {
    case 'deliver':
      return `deliver ${describeNotification(e.notification)}${e.counted ? '' : ' (replayed)'}`;
    case 'catchUp':
      return `catchUp [${e.dropped.map((n) => describeNotification(n)).join(', ')}]${e.initial ? ' initial' : ''}`;
    default:
      return e.kind;
  }
}

/** A state in words: its kind, what is with the handler (since when) and how many wait. */
function describeState(s: ListenerState<Pod>): string {
  switch (s.kind) {
    case 'delivering':
      return `delivering since ${s.since}, ${s.waiting?.length ?? 0} waiting`;
    case 'replaying':
      return `replaying ${s.ready ? 'ready' : 'deferred'}, ${s.replay.remaining()} left, in flight ${String(s.inFlight)}, ${s.waiting?.length ?? 0} waiting`;
    default:
      return s.kind;
  }
}

/** Steps each input from `start` (the clock set to each input's time), recording state and effect. */
function run(
  inputs: Array<[number, ListenerInput<Pod>]>,
  cfg: (clock: Clock) => ListenerConfig = (c) => config(c),
  start: ListenerState<Pod> = idleState,
): string[] {
  const clock = { t: 0 };
  const c = cfg(clock);
  let state = start;
  const out: string[] = [];
  for (const [t, input] of inputs) {
    clock.t = t;
    const next: ListenerTransition<Pod> = listenerStep(state, input, c);
    state = next.state;
    out.push(`${describeState(state)}: ${describeEffect(next.effect)}`);
  }
  return out;
}

describe('listenerStep (pure): one handler delivery, input by input', () => {
  it.each<[string, Array<[number, ListenerInput<Pod>]>, string[]]>([
    [
      'an idle handler is given a notification at once; done with it, it is idle again',
      [
        [0, add('a')],
        [0, settledInput],
      ],
      ['delivering since -1, 0 waiting: deliverInput', 'idle: none'],
    ],
    [
      'what arrives while the handler is busy waits, in order, and comes out when it is done',
      [
        [0, add('a')],
        [1, awaitingInput],
        [2, add('b')],
        [3, add('c')],
        [5, settledInput],
        [6, settledInput],
        [7, settledInput],
      ],
      [
        'delivering since -1, 0 waiting: deliverInput',
        'delivering since 1, 0 waiting: none',
        'delivering since 1, 1 waiting: none',
        'delivering since 1, 2 waiting: none',
        'delivering since 2, 1 waiting: deliver add ns/b@1',
        'delivering since 3, 0 waiting: deliver add ns/c@1',
        'idle: none',
      ],
    ],
    [
      'a deferred replay delivers nothing until its start has run, then goes before what waits',
      [
        [0, replayOf(['x', 'y'], true, 0, true)],
        [1, add('b')],
        [2, replayReadyInput],
        [3, settledInput],
        [4, settledInput],
        [5, settledInput],
      ],
      [
        'replaying deferred, 2 left, in flight undefined, 0 waiting: none',
        'replaying deferred, 2 left, in flight undefined, 1 waiting: none',
        'replaying ready, 1 left, in flight 0, 1 waiting: deliver add ns/x@1 initial (replayed)',
        'replaying ready, 0 left, in flight 0, 1 waiting: deliver add ns/y@1 initial (replayed)',
        'delivering since 1, 0 waiting: deliver add ns/b@1',
        'idle: none',
      ],
    ],
    [
      'a replay started while the handler is busy begins when it is done',
      [
        [0, add('a')],
        [1, awaitingInput],
        [2, replayOf(['x'], false, 2, false)],
        [3, settledInput],
        [4, settledInput],
      ],
      [
        'delivering since -1, 0 waiting: deliverInput',
        'delivering since 1, 0 waiting: none',
        'replaying ready, 1 left, in flight 1, 0 waiting: none',
        'replaying ready, 0 left, in flight 2, 0 waiting: deliver add ns/x@1 (replayed)',
        'idle: none',
      ],
    ],
    [
      'a replay replacing one whose deferred start has not run waits for that start too',
      [
        [0, replayOf(['x'], true, 0, true)],
        [1, replayOf(['y'], false, 1, false)],
        [2, replayReadyInput],
      ],
      [
        'replaying deferred, 1 left, in flight undefined, 0 waiting: none',
        'replaying deferred, 1 left, in flight undefined, 0 waiting: none',
        'replaying ready, 0 left, in flight 1, 0 waiting: deliver add ns/y@1 (replayed)',
      ],
    ],
    [
      'closing is final: it asks once for the teardown, then nothing more happens',
      [
        [0, add('a')],
        [0, closeInput],
        [1, add('b')],
        [2, settledInput],
        [3, closeInput],
      ],
      [
        'delivering since -1, 0 waiting: deliverInput',
        'closed: close',
        'closed: none',
        'closed: none',
        'closed: none',
      ],
    ],
  ])('%s', (_, inputs, expected) => {
    expect(run(inputs)).toEqual(expected);
  });

  it("a bounded buffer with 'error': one more than its size closes the listener with an overflow", () => {
    expect(
      run(
        [
          [0, add('a')],
          [1, add('b')],
          [2, add('c')],
          [3, add('d')],
        ],
        (c) => config(c, 2, 'error'),
      ),
    ).toEqual([
      'delivering since -1, 0 waiting: deliverInput',
      'delivering since -1, 1 waiting: none',
      'delivering since -1, 2 waiting: none',
      'closed: overflow',
    ]);
  });

  it("a bounded buffer with 'dropAndResync': what waits and the new one are dropped for a catch-up", () => {
    expect(
      run(
        [
          [0, add('a')],
          [1, add('b')],
          [2, add('c', true)],
        ],
        (c) => config(c, 1, 'dropAndResync'),
      ),
    ).toEqual([
      'delivering since -1, 0 waiting: deliverInput',
      'delivering since -1, 1 waiting: none',
      'delivering since -1, 0 waiting: catchUp [add ns/b@1, add ns/c@1 initial]',
    ]);
  });

  it('a catch-up that overflows the initial replay restarts it as initial', () => {
    const out = run(
      [
        [0, replayOf(['x'], true, 0, true)],
        [1, add('b')],
        [2, add('c')],
      ],
      (c) => config(c, 1, 'dropAndResync'),
    );
    expect(out[2]).toBe(
      'replaying deferred, 1 left, in flight undefined, 0 waiting: catchUp [add ns/b@1, add ns/c@1] initial',
    );
  });

  it('the inline path allocates nothing: the same shared transition for every idle handler', () => {
    const c = config({ t: 0 });
    const t1 = listenerStep(idleState, add('a'), c);
    const t2 = listenerStep<Pod>(idleState, add('b'), c);
    expect(t1).toBe(t2);
    expect(t1.state).toBe(inlineState);
    expect(listenerStep(t1.state, settledInput, c).state).toBe(idleState);
  });

  it('marbles: notifications (n) and settlings (s) of an asynchronous handler, folded by the step', () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const inputs: Record<string, ListenerInput<Pod>> = {
        a: add('a'),
        b: add('b'),
        c: add('c'),
        w: awaitingInput,
        s: settledInput,
      };
      const c = config({ t: 0 });
      const effects = cold('a-w-b-c---s--s--s-a-s', inputs).pipe(
        scan((t: ListenerTransition<Pod>, input) => listenerStep(t.state, input, c), {
          state: idleState,
          effect: { kind: 'none' },
        } as ListenerTransition<Pod>),
        map((t) =>
          t.effect.kind === 'deliver'
            ? describeNotification(t.effect.notification).split(' ')[1]!
            : t.effect.kind,
        ),
      );
      expectObservable(effects).toBe('D-N-N-N---B--C--N-D-N', {
        D: 'deliverInput',
        N: 'none',
        B: 'ns/b@1',
        C: 'ns/c@1',
      });
    });
  });
});

describe('listenerLag (pure)', () => {
  it('counts what waits, what is left to replay and the one with the handler; the oldest sets the age', () => {
    const clock = { t: 0 };
    const c = config(clock);
    let s: ListenerState<Pod> = listenerStep(idleState, add('a'), c).state;
    expect(listenerLag(s, 10)).toEqual({ queued: 1, oldestAgeMs: 0 }); // a synchronous call: no age yet
    clock.t = 4;
    s = listenerStep(s, awaitingInput, c).state;
    clock.t = 6;
    s = listenerStep(s, add('b'), c).state;
    expect(listenerLag(s, 10)).toEqual({ queued: 2, oldestAgeMs: 6 });
    s = listenerStep(s, replayOf(['x', 'y'], false, 7, false), c).state;
    expect(listenerLag(s, 10)).toEqual({ queued: 4, oldestAgeMs: 6 });
    expect(listenerLag(idleState, 10)).toEqual({ queued: 0, oldestAgeMs: 0 });
    expect(listenerLag(closedState, 10)).toEqual({ queued: 0, oldestAgeMs: 0 });
  });
});

describe("syncTracker (pure, client-go's synctrack)", () => {
  const initialAdd = addNotification(pod('a', '1'), true);
  const laterAdd = addNotification(pod('b', '1'), false);
  const update = updateNotification(pod('a', '1'), pod('a', '2'));

  it('synced once the informer has synced and every initial-list notification given was delivered', () => {
    let t = trackStart(initialSyncTracker, initialAdd);
    t = trackStart(t, update); // not of the initial list: not counted
    t = trackUpstreamSynced(t);
    expect(settleSync(t, false).synced).toBe(false);
    t = trackFinished(t, initialAdd);
    expect(t.pending).toBe(0);
    expect(settleSync(t, true).synced).toBe(false); // a replay still running
    expect(settleSync(t, false).synced).toBe(true);
  });

  it('not synced before the informer is, even with nothing pending', () => {
    expect(
      settleSync(trackFinished(trackStart(initialSyncTracker, initialAdd), initialAdd), false).synced,
    ).toBe(false);
    expect(settleSync(trackUpstreamSynced(initialSyncTracker), false).synced).toBe(true);
  });

  it('dropped initial-list notifications count as finished; synced latches', () => {
    let t = trackUpstreamSynced(trackStart(trackStart(initialSyncTracker, initialAdd), initialAdd));
    t = trackDropped(t, 2);
    t = settleSync(t, false);
    expect(t.synced).toBe(true);
    expect(trackStart(t, initialAdd)).toBe(t);
    expect(trackStart(initialSyncTracker, laterAdd)).toBe(initialSyncTracker);
  });
});

describe('resyncSchedule (pure)', () => {
  it.each<[number, number, boolean, number]>([
    // [period, now, syncing after the look, next due]
    [1000, 999, false, 1000],
    [1000, 1000, true, 2000],
    [1000, 5000, true, 6000],
    [0, 5000, false, 0],
  ])('period %d, look at %d: syncing %s, next due at %d', (period, now, syncing, next) => {
    const s = resyncLook(resyncSchedule(0, period), now, period);
    expect(s).toEqual({ syncing, nextResync: next });
  });

  it('syncing lasts until the next look', () => {
    const due = resyncLook(resyncSchedule(0, 1000), 1000, 1000);
    expect(resyncLook(due, 1500, 1000)).toEqual({ syncing: false, nextResync: 2000 });
  });
});
