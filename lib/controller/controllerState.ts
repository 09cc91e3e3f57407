import type { QueueItem } from '../workqueue/queueItem.js';
import type { ControllerStatus } from './controllerMetrics.js';
import type { ReconcileOutcome } from './reconcileOutcome.js';
import type { Requeue } from './requeue.js';

/**
 * Which keys this replica reconciles (the `keyFilter$` option, sharding): a predicate of the key.
 *
 * @example
 * ```ts
 * const ours: KeyFilter = (key) => key.startsWith('shop/');
 * ```
 */
export type KeyFilter = (key: string) => boolean;

/** @internal Every key: a controller without `keyFilter$`. */
export const ALL_KEYS: KeyFilter = () => true;
/** @internal No key: before `keyFilter$`'s first filter, and after it failed. */
export const NO_KEYS: KeyFilter = () => false;

/**
 * One worker, as data (client-go's `processNextWorkItem` loop, one per `concurrency`):
 * - `idle`: holds no key and has asked for none;
 * - `taking`: has asked the queue for a key (the edge answers with `got`);
 * - `awaitingWrites`: holds `key`, waiting until the informers show the writes its last reconcile
 *   made (read-your-own-writes);
 * - `reconciling`: holds `key`, its reconcile running since `startedAt` (the controller's clock),
 *   after waiting `waitedSeconds` for its own writes.
 *
 * @example
 * ```ts
 * const busy = (w: WorkerState) => w.kind === 'awaitingWrites' || w.kind === 'reconciling';
 * ```
 */
export type WorkerState =
  | { readonly kind: 'idle' }
  | { readonly kind: 'taking' }
  | { readonly kind: 'awaitingWrites'; readonly key: string; readonly priority: number; readonly retries: number }
  | ReconcilingWorker;

/**
 * A worker whose reconcile runs: see {@link WorkerState}.
 *
 * @example
 * ```ts
 * const w: ReconcilingWorker = { kind: 'reconciling', key: 'ns/a', priority: 0, retries: 0, startedAt: 5, waitedSeconds: 0 };
 * ```
 */
export interface ReconcilingWorker {
  readonly kind: 'reconciling';
  readonly key: string;
  readonly priority: number;
  readonly retries: number;
  readonly startedAt: number;
  readonly waitedSeconds: number;
}

/** @internal The idle worker (one for all). */
export const IDLE_WORKER: WorkerState = Object.freeze({ kind: 'idle' });
/** @internal The worker that has asked for a key (one for all). */
export const TAKING_WORKER: WorkerState = Object.freeze({ kind: 'taking' });

/**
 * Where a controller is in its life (the `status$` it reports is `phase`), with what matters there:
 * - `idle`: made, not started;
 * - `waitingForSync`: started, its informers listing; `leading` and `accepts` as told so far;
 * - `running`: synced and leading: workers take keys;
 * - `standby`: synced, not leading: keys are queued, no reconcile starts;
 * - `draining`: stopping: no key is taken, the reconciles in flight finish, then `final`;
 * - `stopped`, `failed` (its informers did not sync in time): final.
 *
 * `workers` (one state per worker) is owned by the state: the step may replace an entry in place
 * and hand the same array on in the next state, so a state given to the step is not used again
 * (as a listener's buffer, lib/informer/listenerState.ts).
 *
 * @example
 * ```ts
 * const reconciling = (s: ControllerState) => s.phase === 'running' || s.phase === 'standby' || s.phase === 'draining';
 * ```
 */
export type ControllerState =
  | { readonly phase: 'idle'; readonly accepts: KeyFilter; readonly workers: WorkerState[] }
  | { readonly phase: 'waitingForSync'; readonly leading: boolean; readonly accepts: KeyFilter; readonly workers: WorkerState[] }
  | { readonly phase: 'running'; readonly accepts: KeyFilter; readonly workers: WorkerState[] }
  | { readonly phase: 'standby'; readonly accepts: KeyFilter; readonly workers: WorkerState[] }
  | { readonly phase: 'draining'; readonly final: 'stopped' | 'failed'; readonly workers: WorkerState[] }
  | { readonly phase: 'stopped' | 'failed'; readonly workers: WorkerState[] };

/**
 * What moves a controller (each from its edge: the queue, a worker's reconcile, an input stream):
 * - `start`, `stop`;
 * - `synced`: every informer source has synced; `syncTimedOut`: `cacheSyncTimeout` passed first;
 * - `leading` (from `leading$`), `keyFilter` (from `keyFilter$`), `inputFailed` (one of them errored);
 * - `ready`: the queue has a key ready;
 * - `got`: the queue's answer to a worker's `take` (`item` undefined: none ready), with the key's
 *   retry count, whether it has writes to wait for (`waits`, read-your-own-writes), whether more
 *   keys are ready (`more`) and the clock;
 * - `writesSeen`: a worker's wait for its own writes ended after `waitedSeconds`;
 * - `reconciled`: a worker's reconcile ended with `outcome`; `more`: keys are ready for it to take;
 * - `drained`: no key is held any more (after `stop`).
 *
 * @example
 * ```ts
 * const input: ControllerInput = { type: 'leading', leading: false };
 * ```
 */
export type ControllerInput =
  | { readonly type: 'start' }
  | { readonly type: 'stop' }
  | { readonly type: 'synced' }
  | { readonly type: 'syncTimedOut' }
  | { readonly type: 'leading'; readonly leading: boolean }
  | { readonly type: 'keyFilter'; readonly accepts: KeyFilter }
  | { readonly type: 'inputFailed'; readonly input: 'leading$' | 'keyFilter$'; readonly error: unknown }
  | { readonly type: 'ready' }
  | GotInput
  | { readonly type: 'writesSeen'; readonly worker: number; readonly waitedSeconds: number; readonly now: number }
  | { readonly type: 'reconciled'; readonly worker: number; readonly outcome: ReconcileOutcome; readonly more: boolean; readonly now: number }
  | { readonly type: 'drained' };

/**
 * The queue's answer to worker `worker`'s `take`: see {@link ControllerInput}.
 *
 * @example
 * ```ts
 * const got: GotInput = { type: 'got', worker: 0, item: { key: 'ns/a', priority: 0 }, retries: 0, waits: false, more: false, now: 5 };
 * ```
 */
export interface GotInput {
  readonly type: 'got';
  readonly worker: number;
  readonly item: QueueItem<string> | undefined;
  readonly retries: number;
  /** The key's last reconcile recorded writes: its next one waits until the informers show them. */
  readonly waits: boolean;
  /** More keys are ready: the next idle worker may ask for one. */
  readonly more: boolean;
  readonly now: number;
}

/**
 * What the edge does after a step (in order):
 * - `status`: report the new status on `status$`;
 * - `begin`: subscribe `leading$`, `keyFilter$` and the cache sync timer, then the sources;
 * - `synced`: cancel the cache sync timer;
 * - `take`: ask the queue for a key for `worker` (answer with `got`);
 * - `awaitWrites`: wait until the informers show the writes recorded for `key` (answer with
 *   `writesSeen`);
 * - `reconcile`: run the reconcile of the key `worker` holds (its `reconciling` state says which;
 *   answer with `reconciled`);
 * - `finish`: report the reconcile of `run` (`results$`), requeue its key as `requeue` says, and
 *   let the key go (`done`);
 * - `drop`: let `key` go unreconciled, forgetting its retries and recorded writes (no longer this
 *   replica's);
 * - `release`: let `key` go unreconciled (the controller stops);
 * - `putBack`: queue `key` again (taken while the controller stopped leading), and let it go;
 * - `claim`: queue at low priority the primary's keys that `next` accepts and `previous` did not;
 * - `inputFailed`: report that `input` errored;
 * - `syncTimedOut`: report that the informers did not sync in time;
 * - `tearDown`: unsubscribe the sources, inputs and timers, end the waits for own writes;
 * - `drain`: shut the queue down and answer `drained` once no key is held;
 * - `complete`: complete `status$`, `results$`, `errors$` and `metrics$`.
 *
 * @example
 * ```ts
 * const effect: ControllerEffect = { kind: 'take', worker: 0 };
 * ```
 */
export type ControllerEffect =
  | { readonly kind: 'status'; readonly status: ControllerStatus }
  | { readonly kind: 'begin' }
  | { readonly kind: 'synced' }
  | { readonly kind: 'take'; readonly worker: number }
  | { readonly kind: 'awaitWrites'; readonly worker: number; readonly key: string }
  | { readonly kind: 'reconcile'; readonly worker: number }
  | FinishEffect
  | { readonly kind: 'drop'; readonly key: string }
  | { readonly kind: 'release'; readonly key: string }
  | { readonly kind: 'putBack'; readonly key: string; readonly priority: number }
  | { readonly kind: 'claim'; readonly previous: KeyFilter; readonly next: KeyFilter }
  | { readonly kind: 'inputFailed'; readonly input: 'leading$' | 'keyFilter$'; readonly error: unknown }
  | { readonly kind: 'syncTimedOut' }
  | { readonly kind: 'tearDown' }
  | { readonly kind: 'drain' }
  | { readonly kind: 'complete' };

/**
 * The reconcile of worker `worker` ended: see {@link ControllerEffect}. `seconds` is how long it ran.
 *
 * @example
 * ```ts
 * if (effect.kind === 'finish') console.log(effect.run.key, effect.outcome.result, effect.seconds);
 * ```
 */
export interface FinishEffect {
  readonly kind: 'finish';
  readonly worker: number;
  readonly run: ReconcilingWorker;
  readonly outcome: ReconcileOutcome;
  readonly seconds: number;
  readonly requeue: Requeue;
}

/**
 * One step's result: the next state and what to do, in order.
 *
 * @example
 * ```ts
 * const { state, effects } = controllerStep(initialControllerState(2, false), { type: 'start' });
 * ```
 */
export interface ControllerTransition {
  readonly state: ControllerState;
  readonly effects: ReadonlyArray<ControllerEffect>;
}

/**
 * A new controller's state: `idle`, `concurrency` idle workers, every key accepted unless a
 * `keyFilter$` is to say which (none until it does).
 *
 * @example
 * ```ts
 * const s = initialControllerState(4, false); // { phase: 'idle', accepts: ALL_KEYS, workers: [idle x 4] }
 * ```
 */
export function initialControllerState(concurrency: number, filtered: boolean): ControllerState {
  return { phase: 'idle', accepts: filtered ? NO_KEYS : ALL_KEYS, workers: Array.from({ length: concurrency }, () => IDLE_WORKER) };
}

/**
 * The keys the controller queues now: none once it stops (or before a `keyFilter$` said which).
 *
 * @example
 * ```ts
 * if (acceptsKey(state, key)) queue.add(key);
 * ```
 */
export function acceptsKey(state: ControllerState, key: string): boolean {
  return 'accepts' in state && state.accepts(key);
}

/**
 * Workers reconciling now (`controller_runtime_active_workers`).
 *
 * @example
 * ```ts
 * ctl.stats().activeWorkers === activeWorkers(state);
 * ```
 */
export function activeWorkers(state: ControllerState): number {
  let n = 0;
  for (const w of state.workers) if (w.kind === 'reconciling') n++;
  return n;
}
