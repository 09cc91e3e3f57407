import type { ControllerStatus } from './controllerMetrics.js';
import {
  IDLE_WORKER,
  NO_KEYS,
  TAKING_WORKER,
  acceptsKey,
  type ControllerEffect,
  type ControllerInput,
  type ControllerState,
  type ControllerTransition,
  type GotInput,
  type KeyFilter,
  type ReconcilingWorker,
  type WorkerState,
} from './controllerState.js';
import { requeueOf } from './requeue.js';

const NO_EFFECTS: ReadonlyArray<ControllerEffect> = Object.freeze([]);
const BEGIN: ControllerEffect = Object.freeze({ kind: 'begin' });
const SYNCED: ControllerEffect = Object.freeze({ kind: 'synced' });
const TEAR_DOWN: ControllerEffect = Object.freeze({ kind: 'tearDown' });
const DRAIN: ControllerEffect = Object.freeze({ kind: 'drain' });
const COMPLETE: ControllerEffect = Object.freeze({ kind: 'complete' });
const SYNC_TIMED_OUT: ControllerEffect = Object.freeze({ kind: 'syncTimedOut' });
const statusEffects = new Map<ControllerStatus, ControllerEffect>();
// One `take` effect per worker index (and the effects of a step that is only that), made once: a
// worker asks for its next key on every reconcile.
const takeEffects: ControllerEffect[] = [];
const takeOnly: Array<ReadonlyArray<ControllerEffect>> = [];
const reconcileOnly: Array<ReadonlyArray<ControllerEffect>> = [];

const status = (s: ControllerStatus): ControllerEffect => {
  let effect = statusEffects.get(s);
  if (effect === undefined) statusEffects.set(s, (effect = Object.freeze({ kind: 'status', status: s })));
  return effect;
};
const take = (worker: number): ControllerEffect => (takeEffects[worker] ??= Object.freeze({ kind: 'take', worker }));
const onlyTake = (worker: number): ReadonlyArray<ControllerEffect> => (takeOnly[worker] ??= Object.freeze([take(worker)]));
const reconcileEffect = (worker: number): ControllerEffect => (reconcileOnly[worker] ??= Object.freeze([Object.freeze({ kind: 'reconcile', worker })]))[0];
const onlyReconcile = (worker: number): ReadonlyArray<ControllerEffect> => (reconcileEffect(worker), reconcileOnly[worker]);
const stay = (state: ControllerState): ControllerTransition => ({ state, effects: NO_EFFECTS });

/**
 * A controller's life as a pure step (controller-runtime's `Controller.Start` and worker loop,
 * kube-rs' applier, as data): given the state and one input, the next state and the effects its
 * edge performs, in order. It calls no reconcile, reads no queue and starts no timer.
 *
 * ```text
 * input:    start--synced--ready--got(a)----reconciled(a)--ready--got(b)...
 * phase:    W------R-------R------R---------R--------------R------R...      W waitingForSync, R running
 * worker 0: i------i-------t------r(a)------i--------------t------r(b)      i idle, t taking, r reconciling
 * effects:  begin  .       take   reconcile finish         take   reconcile
 * ```
 *
 * - Workers take keys only while `running`, when the queue has some ready: a worker that finishes
 *   takes the next one itself, and a worker that gets a key lets the next idle worker ask for one,
 *   so ready keys fill the workers.
 * - A key is reconciled only if it is this replica's (`keyFilter`); one that is not is dropped.
 * - A key whose last reconcile wrote waits for its own writes first (`awaitingWrites`), holding its
 *   worker as a reconcile does.
 * - `stop` (and `syncTimedOut` before the informers synced) drains: no key is taken, keys waiting
 *   for their writes are let go, the reconciles in flight finish and are reported, then `stopped`
 *   (or `failed`).
 *
 * @example
 * ```ts
 * let s = initialControllerState(1, false);
 * ({ state: s } = controllerStep(s, { type: 'start' }));   // waitingForSync; effects: status, begin
 * ({ state: s } = controllerStep(s, { type: 'synced' }));  // running; effects: synced, status, take(0)
 * ```
 */
export function controllerStep(state: ControllerState, input: ControllerInput): ControllerTransition {
  switch (input.type) {
    case 'start':
      return state.phase === 'idle'
        ? { state: { phase: 'waitingForSync', leading: true, accepts: state.accepts, workers: state.workers }, effects: [status('waitingForSync'), BEGIN] }
        : stay(state);
    case 'stop':
      return stop(state, 'stopped', NO_EFFECTS);
    case 'syncTimedOut':
      return state.phase === 'waitingForSync' ? stop(state, 'failed', [SYNC_TIMED_OUT]) : stay(state);
    case 'synced':
      return synced(state);
    case 'leading':
      return leading(state, input.leading, NO_EFFECTS);
    case 'keyFilter':
      return keyFilter(state, input.accepts, true, NO_EFFECTS);
    case 'inputFailed': {
      // The safe side, kept until the controller is restarted: not leading, or no keys.
      const failed: ControllerEffect = { kind: 'inputFailed', input: input.input, error: input.error };
      return input.input === 'leading$' ? leading(state, false, [failed]) : keyFilter(state, NO_KEYS, false, [failed]);
    }
    case 'ready':
      return ready(state);
    case 'got':
      return got(state, input);
    case 'writesSeen':
      return writesSeen(state, input.worker, input.waitedSeconds, input.now);
    case 'reconciled':
      return reconciled(state, input);
    case 'drained':
      return state.phase === 'draining'
        ? { state: { phase: state.final, workers: state.workers }, effects: [status(state.final), COMPLETE] }
        : stay(state);
  }
}

function synced(state: ControllerState): ControllerTransition {
  if (state.phase !== 'waitingForSync') return stay(state);
  const { accepts, workers } = state;
  if (!state.leading) return { state: { phase: 'standby', accepts, workers }, effects: [SYNCED, status('standby')] };
  const next: ControllerState = { phase: 'running', accepts, workers };
  return { state: next, effects: pushNextTake(workers, [SYNCED, status('running')]) };
}

function leading(state: ControllerState, value: boolean, before: ReadonlyArray<ControllerEffect>): ControllerTransition {
  const { phase } = state;
  if (phase === 'waitingForSync') return { state: { ...state, leading: value }, effects: before };
  if (phase === 'running' && !value) {
    // Workers busy are left alone: each finishes, and takes no next key while not leading.
    return { state: { phase: 'standby', accepts: state.accepts, workers: state.workers }, effects: [status('standby'), ...before] };
  }
  if (phase === 'standby' && value) {
    const next: ControllerState = { phase: 'running', accepts: state.accepts, workers: state.workers };
    return { state: next, effects: pushNextTake(state.workers, [status('running'), ...before]) };
  }
  return { state, effects: before };
}

function keyFilter(state: ControllerState, accepts: KeyFilter, claim: boolean, before: ReadonlyArray<ControllerEffect>): ControllerTransition {
  if (!('accepts' in state)) return stay(state);
  const effects = claim ? [...before, { kind: 'claim', previous: state.accepts, next: accepts } as const] : before;
  return { state: { ...state, accepts }, effects };
}

function ready(state: ControllerState): ControllerTransition {
  if (state.phase !== 'running') return stay(state);
  const idle = takeIdle(state.workers);
  return idle < 0 ? stay(state) : { state, effects: onlyTake(idle) };
}

function got(state: ControllerState, input: GotInput): ControllerTransition {
  const { worker, item } = input;
  const workers = state.workers;
  workers[worker] = IDLE_WORKER;
  if (item === undefined) return stay(state);
  const { key, priority } = item;
  switch (state.phase) {
    case 'running':
      break;
    case 'waitingForSync':
    case 'standby':
      // Taken just as the controller stopped leading: queued again, for the leader's next term.
      return { state, effects: [{ kind: 'putBack', key, priority }] };
    default:
      return { state, effects: [{ kind: 'release', key }] };
  }
  if (!state.accepts(key)) {
    // No longer this replica's: another replica reconciles it. This worker asks again.
    workers[worker] = TAKING_WORKER;
    return { state, effects: [{ kind: 'drop', key }, take(worker)] };
  }
  // More keys ready: the next idle worker asks for one (so that ready keys fill the workers).
  const more = input.more;
  if (input.waits) {
    workers[worker] = { kind: 'awaitingWrites', key, priority, retries: input.retries };
    const effects: ControllerEffect[] = [{ kind: 'awaitWrites', worker, key }];
    return { state, effects: more ? pushNextTake(workers, effects) : effects };
  }
  workers[worker] = { kind: 'reconciling', key, priority, retries: input.retries, startedAt: input.now, waitedSeconds: 0 };
  return { state, effects: more ? pushNextTake(workers, [reconcileEffect(worker)]) : onlyReconcile(worker) };
}

function writesSeen(state: ControllerState, worker: number, waitedSeconds: number, now: number): ControllerTransition {
  const waiting = state.workers[worker];
  if (waiting?.kind !== 'awaitingWrites') return stay(state);
  // Reconciled even if leadership was lost meanwhile: the key was taken while leading, and its
  // wait held the worker as its reconcile will.
  const run: ReconcilingWorker = { kind: 'reconciling', key: waiting.key, priority: waiting.priority, retries: waiting.retries, startedAt: now, waitedSeconds };
  state.workers[worker] = run;
  return { state, effects: onlyReconcile(worker) };
}

function reconciled(state: ControllerState, input: Extract<ControllerInput, { type: 'reconciled' }>): ControllerTransition {
  const { worker, outcome, now } = input;
  const run = state.workers[worker];
  if (run?.kind !== 'reconciling') return stay(state);
  const requeue = requeueOf(outcome, acceptsKey(state, run.key), state.phase === 'draining');
  const finish: ControllerEffect = { kind: 'finish', worker, run, outcome, seconds: (now - run.startedAt) / 1000, requeue };
  if (state.phase !== 'running' || !input.more) {
    // Idle until the queue says a key is ready (finishing may make one ready: it says so then).
    state.workers[worker] = IDLE_WORKER;
    return { state, effects: [finish] };
  }
  // The worker takes its next key itself once this one is done.
  state.workers[worker] = TAKING_WORKER;
  return { state, effects: [finish, take(worker)] };
}

function stop(state: ControllerState, final: 'stopped' | 'failed', before: ReadonlyArray<ControllerEffect>): ControllerTransition {
  const { phase, workers } = state;
  if (phase === 'draining' || phase === 'stopped' || phase === 'failed') return stay(state);
  const effects: ControllerEffect[] = [...before, TEAR_DOWN];
  // Keys waiting for their own writes are let go unreconciled, as keys still queued are.
  workers.forEach((w, i) => {
    if (w.kind !== 'awaitingWrites') return;
    workers[i] = IDLE_WORKER;
    effects.push({ kind: 'release', key: w.key });
  });
  if (phase !== 'idle') effects.push(status('stopping'));
  effects.push(DRAIN);
  return { state: { phase: 'draining', final, workers }, effects };
}

/** The first idle worker, now marked taking, or -1. */
function takeIdle(workers: WorkerState[]): number {
  const idle = workers.indexOf(IDLE_WORKER);
  if (idle >= 0) workers[idle] = TAKING_WORKER;
  return idle;
}

/** `effects` (made for this step), with a `take` for the first idle worker (marked taking), if any. */
function pushNextTake(workers: WorkerState[], effects: ControllerEffect[]): ReadonlyArray<ControllerEffect> {
  const idle = takeIdle(workers);
  if (idle >= 0) effects.push(take(idle));
  return effects;
}
