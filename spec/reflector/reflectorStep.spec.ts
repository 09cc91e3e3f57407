import { describe, expect, it } from '@jest/globals';
import type { WatchEvent } from '../../lib/listwatch/watchEvent.js';
import { MalformedWatchEventError } from '../../lib/listwatch/malformedWatchEventError.js';
import { backoffSettings, initialBackoffState, nextBackoff } from '../../lib/reflector/backoff.js';
import type { ReflectorInput, StepContext, StepResult } from '../../lib/reflector/reflectorInput.js';
import type { ReflectorOutput } from '../../lib/reflector/reflectorOutput.js';
import { WatchEndedError } from '../../lib/reflector/reflectorError.js';
import {
  reflectorConfig,
  type ReflectorState,
  type WatchingPhase,
} from '../../lib/reflector/reflectorState.js';
import { reflectorStart, reflectorStep } from '../../lib/reflector/reflectorStep.js';
import type { ReflectorOptions } from '../../lib/reflector/reflectorOptions.js';
import type { ReflectorStatus } from '../../lib/reflector/reflectorStatus.js';
import { apiError, bookmark, pod, status, type Pod } from './scriptedListWatch.js';

// The reflector's step on its own: states and inputs in, states and outputs out. No Observable, no
// scheduler: the clock and the random source are plain values the test moves.

type E = WatchEvent<Pod>;
const added = (p: Pod): E => ({ type: 'ADDED', object: p });
const modified = (p: Pod): E => ({ type: 'MODIFIED', object: p });
const deleted = (p: Pod): E => ({ type: 'DELETED', object: p });

/** A step driver with a clock the test sets. */
function driver(options: ReflectorOptions = {}, random = 0) {
  const clock = { now: 0 };
  const ctx: StepContext = {
    config: reflectorConfig({ expectedTypeName: 'Pod', ...options }),
    now: () => clock.now,
    random: () => random,
  };
  let last: StepResult<Pod> = reflectorStart<Pod>(ctx);
  return {
    clock,
    ctx,
    get state(): ReflectorState<Pod> {
      return last.state;
    },
    first: last,
    step(input: ReflectorInput<Pod>, at = clock.now): StepResult<Pod> {
      clock.now = at;
      last = reflectorStep(last.state, input, ctx);
      return last;
    },
  };
}

const listed = (resourceVersion: string, items: Pod[] = [], paginated = false): ReflectorInput<Pod> => ({
  type: 'listed',
  result: { items, resourceVersion, paginated },
});
const burst = (...events: E[]): ReflectorInput<Pod> => ({ type: 'burst', events });
const closed: ReflectorInput<Pod> = { type: 'watchClosed' };
const failed = (error: unknown): ReflectorInput<Pod> => ({ type: 'watchFailed', error });
const fired: ReflectorInput<Pod> = { type: 'timerFired' };

/** A status as one word: `listing@rv`, `backingOff:ms`. */
const showStatus = (s: ReflectorStatus): string =>
  s.state === 'backingOff'
    ? `backingOff:${s.delayMs}`
    : s.state === 'idle'
      ? 'idle'
      : `${s.state}@${s.resourceVersion}`;

/** One word per output: the events' types, a status, or error:<action>. */
const show = (outputs: ReadonlyArray<ReflectorOutput<Pod>>): string[] =>
  outputs.map((o) =>
    o.type === 'events'
      ? `events:${o.events.map((e) => e.type).join(',')}`
      : o.type === 'status'
        ? showStatus(o.status)
        : `error:${o.error.action}`,
  );

const watching = (s: ReflectorState<Pod>): WatchingPhase<Pod> => {
  if (s.phase !== 'watching') throw new Error(`expected watching, got ${s.phase}`);
  return s;
};

describe('reflectorStep: listing', () => {
  it('starts with a list at "0", paged by 500', () => {
    const d = driver();
    expect(d.first.entered).toBe(true);
    expect(d.state).toMatchObject({ phase: 'listing', resourceVersion: '0', fromLatest: false });
    expect(d.state.phase === 'listing' && d.state.options).toEqual({ resourceVersion: '0', limit: 500 });
    expect(show(d.first.outputs)).toEqual(['listing@0']);
  });

  it('list ok -> a replace at its RV, then watching from it (bookmarks, timeoutSeconds from random)', () => {
    const d = driver({}, 0.5);
    d.clock.now = 42;
    const r = d.step(listed('10', [pod('a', '3')]));
    expect(r.entered).toBe(true);
    expect(r.outputs[0]).toEqual({
      type: 'events',
      events: [{ type: 'replace', items: [pod('a', '3')], resourceVersion: '10' }],
      resourceVersions: ['10'],
    });
    expect(show(r.outputs)).toEqual(['events:replace', 'watching@10']);
    const w = watching(r.state);
    expect(w).toMatchObject({ mode: 'watch', start: 42, count: 0, synthetic: false });
    expect(w.request.options).toEqual({
      resourceVersion: '10',
      allowWatchBookmarks: true,
      timeoutSeconds: 450,
    });
    // bookmarks expected every 60 s, plus the 10 s grace
    expect(w.request.silenceMs).toBe(70_000);
    expect(r.state.rv.lastSyncResourceVersion).toBe('10');
  });

  it('list 410 -> listFromLatest: at once (no backoff) at "", and a second 410 there backs off and relists', () => {
    const d = driver();
    d.step(listed('10'));
    d.step(failed(apiError(410, 'Expired')));
    d.step(fired, 800);
    const r = d.step({ type: 'listFailed', error: apiError(410, 'Expired') });
    expect(show(r.outputs)).toEqual(['error:listFromLatest', 'listing@']);
    expect(r.state).toMatchObject({ phase: 'listing', resourceVersion: '', fromLatest: true });
    expect(r.state.rv.unavailable).toBe(true);
    const again = d.step({ type: 'listFailed', error: apiError(410, 'Expired') });
    expect(show(again.outputs)).toEqual(['error:relist', 'backingOff:1600']);
    expect(again.state).toMatchObject({ phase: 'backingOff', then: 'listAndWatch' });
  });

  it('a list error backs off one step; the timer starts a new ListAndWatch', () => {
    const d = driver();
    const r = d.step({ type: 'listFailed', error: apiError(500, 'InternalError') });
    expect(show(r.outputs)).toEqual(['error:relist', 'backingOff:800']);
    expect(d.step(fired, 800).state).toMatchObject({ phase: 'listing', resourceVersion: '0' });
  });
});

describe('reflectorStep: watching', () => {
  const watchingAt10 = (options: ReflectorOptions = {}) => {
    const d = driver(options);
    d.step(listed('10'));
    return d;
  };

  it('a burst is one events output with the RVs it moved to; the state counts it', () => {
    const d = watchingAt10();
    const r = d.step(burst(added(pod('a', '11')), modified(pod('a', '12')), bookmark('13')), 5);
    expect(r.entered).toBe(false);
    expect(r.outputs).toEqual([
      {
        type: 'events',
        events: [
          { type: 'add', object: pod('a', '11') },
          { type: 'update', object: pod('a', '12') },
          { type: 'bookmark', resourceVersion: '13' },
        ],
        resourceVersions: ['11', '12', '13'],
      },
    ]);
    expect(watching(r.state).count).toBe(3);
    expect(r.state.rv.lastSyncResourceVersion).toBe('13');
  });

  it('watch clean close (after a second) -> rewatch from the last RV at once, no error', () => {
    const d = watchingAt10();
    d.step(burst(added(pod('a', '11'))), 1500);
    const r = d.step(closed, 1510);
    expect(r.entered).toBe(true);
    expect(show(r.outputs)).toEqual(['watching@11']);
    expect(watching(r.state).request.options.resourceVersion).toBe('11');
    expect(watching(r.state).start).toBe(1510);
  });

  it('very short close (under 1 s, no events) -> error, backoff, then relist', () => {
    const d = watchingAt10();
    const r = d.step(closed, 999);
    expect(show(r.outputs)).toEqual(['error:relist', 'backingOff:800']);
    const error = r.outputs[0].type === 'error' ? r.outputs[0].error : undefined;
    expect((error?.cause as WatchEndedError).kind).toBe('veryShort');
    expect(d.step(fired, 1799).state).toMatchObject({ phase: 'listing', resourceVersion: '10' });
  });

  it('a close after 1 s with no events is not very short', () => {
    const d = watchingAt10();
    expect(show(d.step(closed, 1000).outputs)).toEqual(['watching@10']);
  });

  it('410 during watch (ERROR event) -> the events before it, the error, backoff; then relist at the last RV', () => {
    const d = watchingAt10();
    const r = d.step(
      burst(
        modified(pod('a', '12')),
        { type: 'ERROR', object: status(410, 'Expired') },
        added(pod('b', '13')),
      ),
      10,
    );
    expect(show(r.outputs)).toEqual(['events:update', 'error:relist', 'backingOff:800']);
    expect(r.outputs[1].type === 'error' && r.outputs[1].error.statusCode).toBe(410);
    // the rest of the burst is not passed on and does not move the RV
    expect(r.state.rv.lastSyncResourceVersion).toBe('12');
    expect(r.state).toMatchObject({ phase: 'backingOff', delayMs: 800, then: 'listAndWatch' });
    const relist = d.step(fired, 810);
    expect(relist.state).toMatchObject({
      phase: 'listing',
      resourceVersion: '12',
      options: { resourceVersion: '12' },
    });
  });

  it('429 with Retry-After -> backoff of at least Retry-After, then rewatch from the same RV (no relist)', () => {
    const d = watchingAt10();
    const r = d.step(failed(apiError(429, 'TooManyRequests', 5)), 0);
    expect(show(r.outputs)).toEqual(['error:rewatch', 'backingOff:5000']);
    const next = d.step(fired, 5000);
    expect(show(next.outputs)).toEqual(['watching@10']);
    // without Retry-After the step is the backoff's own (the second: 1600 ms)
    const again = d.step(failed(apiError(429, 'TooManyRequests')), 7000);
    expect(show(again.outputs)).toEqual(['error:rewatch', 'backingOff:1600']);
  });

  it('a malformed line re-watches from the last good RV; a second one at the same RV relists', () => {
    const bad: E = { type: 'MALFORMED', line: '{', error: new MalformedWatchEventError('{', 'bad JSON') };
    const d = watchingAt10();
    const first = d.step(burst(added(pod('a', '11')), bad), 5);
    expect(show(first.outputs)).toEqual(['events:add', 'error:rewatch', 'backingOff:800']);
    expect(first.state.malformedAt).toBe('11');
    d.step(fired, 805);
    const second = d.step(burst(bad), 900);
    expect(show(second.outputs)).toEqual(['error:relist', 'backingOff:1600']);
    expect(second.state.malformedAt).toBeUndefined();
    expect(second.state).toMatchObject({ then: 'listAndWatch' });
  });

  it('a malformed line at another RV than the last one re-watches again', () => {
    const bad: E = { type: 'MALFORMED', line: '{', error: new MalformedWatchEventError('{', 'bad JSON') };
    const d = watchingAt10();
    d.step(burst(bad), 5);
    d.step(fired, 805);
    const r = d.step(burst(added(pod('a', '11')), bad), 900);
    expect(show(r.outputs)).toEqual(['events:add', 'error:rewatch', 'backingOff:1600']);
    expect(r.state.malformedAt).toBe('11');
  });

  it('an event the step cannot handle (no object) ends the watch like a malformed line', () => {
    const d = watchingAt10();
    const r = d.step(burst({ type: 'MODIFIED', object: null as unknown as Pod }), 5);
    expect(show(r.outputs)).toEqual(['error:rewatch', 'backingOff:800']);
    expect(r.outputs[0].type === 'error' && (r.outputs[0].error.cause as WatchEndedError).kind).toBe(
      'malformed',
    );
  });

  it('a bookmark without an RV (or without metadata) leaves the RV alone and says nothing', () => {
    const d = watchingAt10();
    const noRv = { type: 'BOOKMARK', object: { apiVersion: 'v1', kind: 'Pod' } } as E;
    const r = d.step(burst(noRv, bookmark('')), 5);
    expect(r.outputs).toEqual([]);
    expect(r.state.rv.lastSyncResourceVersion).toBe('10');
    // and the next watch starts from it
    expect(watching(d.step(closed, 2000).state).request.options.resourceVersion).toBe('10');
  });

  it('an event without metadata is passed on but does not move the RV', () => {
    const d = watchingAt10();
    const bare = { apiVersion: 'v1', kind: 'Pod' } as Pod;
    const r = d.step(burst(modified(bare)), 5);
    expect(r.outputs).toEqual([
      { type: 'events', events: [{ type: 'update', object: bare }], resourceVersions: [] },
    ]);
    expect(r.state.rv.lastSyncResourceVersion).toBe('10');
  });

  it('synthetic ADDED events of a watch at "0" do not move the RV until another event', () => {
    const d = driver();
    d.step(listed('0'));
    expect(watching(d.state).synthetic).toBe(true);
    const r = d.step(burst(added(pod('x', '7')), modified(pod('x', '9')), added(pod('z', '12'))), 5);
    expect(r.outputs[0].type === 'events' && r.outputs[0].resourceVersions).toEqual(['9', '12']);
    expect(watching(r.state).synthetic).toBe(false);
  });

  it('a dead watch (WatchDeadError, a transport error) re-watches after a backoff', () => {
    const d = watchingAt10();
    const r = d.step(failed(new Error('socket hang up')), 70_000);
    expect(show(r.outputs)).toEqual(['error:rewatch', 'backingOff:800']);
    expect(d.step(fired, 70_800).state).toMatchObject({ phase: 'watching', mode: 'watch' });
  });
});

describe('reflectorStep: watch-list', () => {
  const streaming = () => {
    const d = driver({ useWatchList: true });
    expect(show(d.first.outputs)).toEqual(['watchListing@']);
    return d;
  };

  it('starts with a streaming list at ""', () => {
    const w = watching(streaming().state);
    expect(w.mode).toBe('watchList');
    expect(w.request.options).toEqual({
      resourceVersion: '',
      resourceVersionMatch: 'NotOlderThan',
      sendInitialEvents: true,
      allowWatchBookmarks: true,
      timeoutSeconds: 300,
    });
  });

  it('the initial-events-end bookmark -> one replace (deletions applied, keyless last), then watching on the same watch', () => {
    const d = streaming();
    const noName = { apiVersion: 'v1', kind: 'Pod', metadata: { namespace: 'ns' } } as Pod;
    const first = d.step(burst(added(pod('a', '3')), added(noName), added(pod('b', '4'))), 5);
    expect(first.outputs).toEqual([]);
    expect(first.state.rv.lastSyncResourceVersion).toBe('');
    const r = d.step(
      burst(deleted(pod('a', '5')), added(pod('c', '6')), bookmark('10', true), modified(pod('b', '11'))),
      2000,
    );
    expect(r.entered).toBe(false);
    expect(r.outputs).toEqual([
      {
        type: 'events',
        events: [{ type: 'replace', items: [pod('b', '4'), pod('c', '6'), noName], resourceVersion: '10' }],
        resourceVersions: ['10'],
      },
      { type: 'status', status: { state: 'watching', resourceVersion: '10' } },
      { type: 'events', events: [{ type: 'update', object: pod('b', '11') }], resourceVersions: ['11'] },
    ]);
    expect(watching(r.state)).toMatchObject({ mode: 'watch', start: 2000, count: 1, initial: undefined });
    expect(r.state.rv.lastSyncResourceVersion).toBe('11');
  });

  it('an initial object without metadata does not end the streaming list: it travels in the replace (the FIFO reports it)', () => {
    const d = streaming();
    const noMeta = { apiVersion: 'v1', kind: 'Pod' } as Pod;
    const r = d.step(burst(added(noMeta), bookmark('10', true)), 5);
    expect(show(r.outputs)).toEqual(['events:replace', 'watching@10']);
    expect(r.outputs[0]).toMatchObject({ events: [{ type: 'replace', items: [noMeta] }] });
  });

  it('watch-list refused (422) -> fallbackToList: a list at "0" this round', () => {
    const d = streaming();
    const r = d.step(failed(apiError(422, 'Invalid')), 5);
    expect(show(r.outputs)).toEqual(['error:fallbackToList', 'listing@0']);
    expect(r.state).toMatchObject({ phase: 'listing', resourceVersion: '0' });
  });

  it('429 -> back off and restart the streaming list; 410 at a known RV -> restart at once from ""', () => {
    const d = streaming();
    expect(show(d.step(failed(apiError(429, 'TooManyRequests', 2)), 0).outputs)).toEqual([
      'error:restartWatchList',
      'backingOff:2000',
    ]);
    d.step(fired, 2000);
    d.step(burst(bookmark('10', true)), 2001);
    const r = d.step(failed(apiError(410, 'Expired')), 2002);
    expect(show(r.outputs)).toEqual(['error:relist', 'backingOff:1600']);
    d.step(fired, 3602);
    expect(watching(d.state).request.options.resourceVersion).toBe('10');
    const expired = d.step(failed(apiError(410, 'Expired')), 3603);
    expect(show(expired.outputs)).toEqual(['error:restartWatchList', 'watchListing@']);
  });

  it('an initial-events-end bookmark without an RV ends the streaming list as malformed', () => {
    const d = streaming();
    const end = {
      type: 'BOOKMARK',
      object: { metadata: { annotations: { 'k8s.io/initial-events-end': 'true' } } },
    } as E;
    const r = d.step(burst(end), 5);
    expect(show(r.outputs)).toEqual(['error:fallbackToList', 'listing@0']);
  });
});

describe('reflectorStep: determinism and inputs out of place', () => {
  it('the same inputs at the same times give the same states and outputs', () => {
    const run = () => {
      const d = driver({}, 0.25);
      const seen = [d.first];
      seen.push(d.step(listed('10')));
      seen.push(d.step(burst(added(pod('a', '11'))), 3));
      seen.push(d.step(failed(apiError(500, 'InternalError')), 4));
      seen.push(d.step(fired, 2000));
      return seen.map((r) => ({ state: r.state, outputs: show(r.outputs) }));
    };
    expect(run()).toEqual(run());
  });

  it('an input the phase does not expect changes nothing', () => {
    const d = driver();
    const before = d.state;
    const r = d.step(fired);
    expect(r.state).toBe(before);
    expect(r.outputs).toEqual([]);
    expect(r.entered).toBe(false);
  });
});

describe('nextBackoff (pure)', () => {
  const settings = backoffSettings({});

  it('800, 1600, ... capped at 30 s; jitter from random; a step more than 2 min after the previous starts over', () => {
    let state = initialBackoffState(settings);
    const delays: number[] = [];
    for (const [now, random] of [
      [0, 0],
      [1, 0],
      [2, 0.5],
      [120_002, 0],
      [240_003, 0],
    ] as const) {
      const step = nextBackoff(settings, state, now, () => random);
      delays.push(step.delayMs);
      state = step.state;
    }
    expect(delays).toEqual([800, 1600, 3200 * 1.5, 6400, 800]);
  });

  it('stays at the cap once reached', () => {
    const s = backoffSettings({ initialMs: 10, factor: 10, capMs: 50, jitter: 0 });
    const a = nextBackoff(s, initialBackoffState(s), 0, () => 0);
    const b = nextBackoff(s, a.state, 1, () => 0);
    const c = nextBackoff(s, b.state, 2, () => 0);
    expect([a.delayMs, b.delayMs, c.delayMs]).toEqual([10, 50, 50]);
    expect(c.state.capped).toBe(true);
  });
});
