// The controller's pure step, as a function: a table of (state, input) -> (next state, effects),
// and a marble test of a run folded through it. No queue, no informer, no reconcile.
import { describe, expect, it } from '@jest/globals';
import { map, scan } from 'rxjs';
import {
  ALL_KEYS,
  IDLE_WORKER,
  NO_KEYS,
  TAKING_WORKER,
  initialControllerState,
  type ControllerEffect,
  type ControllerInput,
  type ControllerState,
  type KeyFilter,
  type WorkerState,
} from '../../lib/controller/controllerState.js';
import { controllerStep } from '../../lib/controller/controllerStep.js';
import type { ReconcileOutcome } from '../../lib/controller/reconcileOutcome.js';
import { testScheduler } from './support.js';

// Workers in words: i idle, t taking, w:KEY awaiting its writes, r:KEY reconciling (since when, after a wait).
const idle = IDLE_WORKER;
const taking = TAKING_WORKER;
const awaiting = (key: string, priority = 0): WorkerState => ({ kind: 'awaitingWrites', key, priority, retries: 0 });
const running = (key: string, startedAt = 0, priority = 0, waitedSeconds = 0): WorkerState => ({
  kind: 'reconciling',
  key,
  priority,
  retries: 0,
  startedAt,
  waitedSeconds,
});

const onlyA: KeyFilter = (key) => key === 'a';

/** A state: its phase and workers (every key accepted unless said). */
function state(phase: ControllerState['phase'], workers: WorkerState[], extra: { leading?: boolean; accepts?: KeyFilter; final?: 'stopped' | 'failed' } = {}): ControllerState {
  const accepts = extra.accepts ?? ALL_KEYS;
  switch (phase) {
    case 'waitingForSync':
      return { phase, leading: extra.leading ?? true, accepts, workers };
    case 'draining':
      return { phase, final: extra.final ?? 'stopped', workers };
    case 'stopped':
    case 'failed':
      return { phase, workers };
    default:
      return { phase, accepts, workers };
  }
}

function describeWorker(w: WorkerState): string {
  switch (w.kind) {
    case 'idle':
      return 'i';
    case 'taking':
      return 't';
    case 'awaitingWrites':
      return `w:${w.key}`;
    case 'reconciling':
      return `r:${w.key}@${w.startedAt}${w.waitedSeconds > 0 ? `+${w.waitedSeconds}` : ''}`;
  }
}

function describeState(s: ControllerState): string {
  const extra =
    s.phase === 'waitingForSync' ? (s.leading ? '' : ' not leading') : s.phase === 'draining' ? ` to ${s.final}` : '';
  const keys = 'accepts' in s && s.accepts !== ALL_KEYS ? (s.accepts === NO_KEYS ? ' no keys' : ' some keys') : '';
  return `${s.phase}${extra}${keys} [${s.workers.map(describeWorker).join(' ')}]`;
}

function describeEffect(e: ControllerEffect, s: ControllerState): string {
  switch (e.kind) {
    case 'status':
      return `status ${e.status}`;
    case 'take':
      return `take ${e.worker}`;
    case 'awaitWrites':
      return `awaitWrites ${e.worker} ${e.key}`;
    case 'reconcile': {
      const w = s.workers[e.worker];
      return `reconcile ${e.worker} ${w.kind === 'reconciling' ? w.key : `(${w.kind})`}`;
    }
    case 'finish':
      return `finish ${e.worker} ${e.run.key} ${e.outcome.result} ${e.seconds}s ${e.requeue.kind}`;
    case 'drop':
    case 'release':
      return `${e.kind} ${e.key}`;
    case 'putBack':
      return `putBack ${e.key}@${e.priority}`;
    case 'inputFailed':
      return `inputFailed ${e.input}`;
    default:
      return e.kind;
  }
}

const got = (worker: number, key: string | undefined, extra: { waits?: boolean; more?: boolean; now?: number; priority?: number } = {}): ControllerInput => ({
  type: 'got',
  worker,
  item: key === undefined ? undefined : { key, priority: extra.priority ?? 0 },
  retries: 0,
  waits: extra.waits ?? false,
  more: extra.more ?? false,
  now: extra.now ?? 0,
});
const success: ReconcileOutcome = { result: 'success' };
const failure: ReconcileOutcome = { result: 'error', error: new Error('boom'), terminal: false, priority: 0 };
const reconciled = (worker: number, outcome: ReconcileOutcome, more = false, now = 10): ControllerInput => ({ type: 'reconciled', worker, outcome, more, now });

describe('controllerStep (the controller as a pure step)', () => {
  it.each<[string, ControllerState, ControllerInput, string, string[]]>([
    // Start, sync, leadership.
    ['start: waits for sync, then begins', state('idle', [idle]), { type: 'start' }, 'waitingForSync [i]', ['status waitingForSync', 'begin']],
    ['start twice: nothing more', state('running', [idle]), { type: 'start' }, 'running [i]', []],
    ['synced while leading: running, one worker asks for a key', state('waitingForSync', [idle, idle]), { type: 'synced' }, 'running [t i]', ['synced', 'status running', 'take 0']],
    ['synced while not leading: standby', state('waitingForSync', [idle], { leading: false }), { type: 'synced' }, 'standby [i]', ['synced', 'status standby']],
    ['leading false before sync: remembered, no status', state('waitingForSync', [idle]), { type: 'leading', leading: false }, 'waitingForSync not leading [i]', []],
    ['leading false while running: standby; a busy worker is left alone', state('running', [running('a')]), { type: 'leading', leading: false }, 'standby [r:a@0]', ['status standby']],
    ['leading true in standby: running, an idle worker asks', state('standby', [running('a'), idle]), { type: 'leading', leading: true }, 'running [r:a@0 t]', ['status running', 'take 1']],
    ['leading true again while running: no extra worker', state('running', [running('a')]), { type: 'leading', leading: true }, 'running [r:a@0]', []],
    // Keys.
    ['ready with an idle worker: it asks', state('running', [running('a'), idle]), { type: 'ready' }, 'running [r:a@0 t]', ['take 1']],
    ['ready with every worker busy or asking: nothing', state('running', [running('a'), taking]), { type: 'ready' }, 'running [r:a@0 t]', []],
    ['ready in standby: nothing', state('standby', [idle]), { type: 'ready' }, 'standby [i]', []],
    ['got a key: reconcile it; more ready: the next idle worker asks', state('running', [taking, idle]), got(0, 'a', { more: true, now: 5 }), 'running [r:a@5 t]', ['reconcile 0 a', 'take 1']],
    ['got a key, nothing more ready: no one else asks', state('running', [taking, idle]), got(0, 'a', { now: 5 }), 'running [r:a@5 i]', ['reconcile 0 a']],
    ['got a key whose last reconcile wrote: wait for the writes first', state('running', [taking]), got(0, 'a', { waits: true }), 'running [w:a]', ['awaitWrites 0 a']],
    ['got nothing: idle', state('running', [taking]), got(0, undefined), 'running [i]', []],
    ['got a key no longer ours: dropped, ask again', state('running', [taking], { accepts: onlyA }), got(0, 'b'), 'running some keys [t]', ['drop b', 'take 0']],
    ['got a key just as leadership was lost: put back', state('standby', [taking]), got(0, 'a', { priority: -100 }), 'standby [i]', ['putBack a@-100']],
    ['got a key while draining: let go', state('draining', [taking]), got(0, 'a'), 'draining to stopped [i]', ['release a']],
    ['writes seen: reconcile, with the wait', state('running', [awaiting('a')]), { type: 'writesSeen', worker: 0, waitedSeconds: 0.02, now: 30 }, 'running [r:a@30+0.02]', ['reconcile 0 a']],
    ['writes seen in standby: reconcile (the key was taken while leading)', state('standby', [awaiting('a')]), { type: 'writesSeen', worker: 0, waitedSeconds: 0, now: 30 }, 'standby [r:a@30]', ['reconcile 0 a']],
    // Reconciles ending.
    ['success, more ready: reported and forgotten, the worker takes the next', state('running', [running('a')]), reconciled(0, success, true), 'running [t]', ['finish 0 a success 0.01s forget', 'take 0']],
    ['success, nothing ready: the worker is idle', state('running', [running('a')]), reconciled(0, success), 'running [i]', ['finish 0 a success 0.01s forget']],
    ['an error: requeued rate-limited', state('running', [running('a')]), reconciled(0, failure), 'running [i]', ['finish 0 a error 0.01s addRateLimited']],
    ['an error of a key no longer ours: not requeued', state('running', [running('b')], { accepts: onlyA }), reconciled(0, failure), 'running some keys [i]', ['finish 0 b error 0.01s none']],
    ['requeueAfter: forgotten, then queued again after that long', state('running', [running('a')]), reconciled(0, { result: 'requeue_after', ms: 50, priority: 0 }), 'running [i]', ['finish 0 a requeue_after 0.01s forgetAndAddAfter']],
    ['ended while draining: reported, nothing requeued, no next key', state('draining', [running('a')]), reconciled(0, failure, true), 'draining to stopped [i]', ['finish 0 a error 0.01s none']],
    ['in standby: reported, no next key', state('standby', [running('a')]), reconciled(0, success, true), 'standby [i]', ['finish 0 a success 0.01s forget']],
    // Stopping.
    ['stop: tear down, let waiting keys go, drain the reconciles in flight', state('running', [running('a'), awaiting('b'), idle]), { type: 'stop' }, 'draining to stopped [r:a@0 i i]', ['tearDown', 'release b', 'status stopping', 'drain']],
    ['stop before start: no stopping status', state('idle', [idle]), { type: 'stop' }, 'draining to stopped [i]', ['tearDown', 'drain']],
    ['stop twice: nothing more', state('draining', [running('a')]), { type: 'stop' }, 'draining to stopped [r:a@0]', []],
    ['drained: final', state('draining', [idle], { final: 'failed' }), { type: 'drained' }, 'failed [i]', ['status failed', 'complete']],
    ['the informers did not sync in time: reported, then drain to failed', state('waitingForSync', [idle]), { type: 'syncTimedOut' }, 'draining to failed [i]', ['syncTimedOut', 'tearDown', 'status stopping', 'drain']],
    ['the sync timer after sync: nothing', state('running', [idle]), { type: 'syncTimedOut' }, 'running [i]', []],
    ['nothing restarts a stopped controller', state('stopped', [idle]), { type: 'start' }, 'stopped [i]', []],
    // Inputs.
    ['keyFilter: the new filter, and the keys it newly accepts claimed', state('running', [idle]), { type: 'keyFilter', accepts: onlyA }, 'running some keys [i]', ['claim']],
    ['leading$ failed: not leading, for good', state('running', [idle]), { type: 'inputFailed', input: 'leading$', error: new Error('x') }, 'standby [i]', ['status standby', 'inputFailed leading$']],
    ['keyFilter$ failed: no keys, for good', state('running', [idle]), { type: 'inputFailed', input: 'keyFilter$', error: new Error('x') }, 'running no keys [i]', ['inputFailed keyFilter$']],
  ])('%s', (_what, before, input, after, effects) => {
    const t = controllerStep(before, input);
    expect(describeState(t.state)).toBe(after);
    expect(t.effects.map((e) => describeEffect(e, t.state))).toEqual(effects);
  });

  it('a new controller: idle, every key accepted, or none until keyFilter$ says which', () => {
    expect(describeState(initialControllerState(3, false))).toBe('idle [i i i]');
    expect(describeState(initialControllerState(1, true))).toBe('idle no keys [i]');
  });

  it('a run folded through the step (marbles): keys fill the workers, each finishing worker takes the next, stop drains', () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const inputs: Record<string, ControllerInput> = {
        s: { type: 'start' },
        y: { type: 'synced' },
        a: got(0, 'a', { more: true, now: 3 }),
        b: got(1, 'b', { now: 3 }),
        r: reconciled(1, success, true, 6),
        c: got(1, 'c', { now: 6 }),
        x: { type: 'stop' },
        q: reconciled(0, failure, false, 9),
        z: reconciled(1, success, false, 9),
        d: { type: 'drained' },
      };
      const run$ = cold('s-y(ab)-(rc)-x(qz)d', inputs).pipe(
        scan((t, input) => controllerStep(t.state, input), { state: initialControllerState(2, false), effects: [] as ReadonlyArray<ControllerEffect> }),
        map((t) => `${describeState(t.state)} | ${t.effects.map((e) => describeEffect(e, t.state)).join(', ')}`),
      );
      expectObservable(run$).toBe('s-y(ab)-(rc)-x(qz)d', {
        s: 'waitingForSync [i i] | status waitingForSync, begin',
        y: 'running [t i] | synced, status running, take 0',
        a: 'running [r:a@3 t] | reconcile 0 a, take 1',
        b: 'running [r:a@3 r:b@3] | reconcile 1 b',
        r: 'running [r:a@3 t] | finish 1 b success 0.003s forget, take 1',
        c: 'running [r:a@3 r:c@6] | reconcile 1 c',
        x: 'draining to stopped [r:a@3 r:c@6] | tearDown, status stopping, drain',
        q: 'draining to stopped [i r:c@6] | finish 0 a error 0.006s none',
        z: 'draining to stopped [i i] | finish 1 c success 0.003s none',
        d: 'stopped [i i] | status stopped, complete',
      });
    });
  });
});
