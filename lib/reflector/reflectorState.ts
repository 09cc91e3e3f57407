import type { ListOptions, WatchOptions } from '../listwatch/listWatch.js';
import type { WatchEvent } from '../listwatch/watchEvent.js';
import { backoffSettings, initialBackoffState, type BackoffOptions, type BackoffState } from './backoff.js';
import { defaultExpectedBookmarkIntervalMs, type ReflectorOptions } from './reflectorOptions.js';
import type { ResourceVersionState } from './relistResourceVersion.js';

/**
 * The reflector's settings, resolved from {@link ReflectorOptions} once per run: plain data the
 * step reads (no scheduler, no callbacks).
 *
 * @example
 * ```ts
 * const config = reflectorConfig({ expectedTypeName: 'Pod' }); // config.minWatchTimeoutSeconds === 300
 * ```
 */
export interface ReflectorConfig {
  readonly typeName: string;
  readonly pageSize: number | undefined;
  readonly useWatchList: boolean;
  readonly minWatchTimeoutSeconds: number;
  readonly graceMs: number;
  readonly bookmarkIntervalMs: number;
  readonly backoff: Required<BackoffOptions>;
}

/**
 * {@link ReflectorConfig} from the options, with client-go's defaults.
 *
 * @example
 * ```ts
 * reflectorConfig({ deadWatchGraceSeconds: 1 }).graceMs; // 1000
 * ```
 */
export function reflectorConfig(options: ReflectorOptions): ReflectorConfig {
  return {
    typeName: options.expectedTypeName ?? '<unspecified>',
    pageSize: options.pageSize,
    useWatchList: options.useWatchList ?? false,
    minWatchTimeoutSeconds: options.minWatchTimeoutSeconds ?? 300,
    graceMs: (options.deadWatchGraceSeconds ?? 10) * 1000,
    bookmarkIntervalMs: options.expectedBookmarkIntervalMs ?? defaultExpectedBookmarkIntervalMs,
    backoff: backoffSettings(options.backoff),
  };
}

/**
 * What the reflector carries from phase to phase: the resource versions (client-go's
 * `lastSyncResourceVersion` and friends), the RV at which a watch last carried a malformed line
 * (a second one at the same RV relists), and where the backoff is in its sequence.
 *
 * @example
 * ```ts
 * const carried: ReflectorCarried = { rv: { lastSyncResourceVersion: '10', unavailable: false, paginatedResult: false }, malformedAt: undefined, backoff };
 * ```
 */
export interface ReflectorCarried {
  readonly rv: ResourceVersionState;
  readonly malformedAt: string | undefined;
  readonly backoff: BackoffState;
}

/**
 * A LIST (all pages) at `resourceVersion` is in flight. `fromLatest`: this is the one retry at `""`
 * after the RV asked for was expired or too large (a second such error ends the ListAndWatch).
 *
 * @example
 * ```ts
 * if (state.phase === 'listing') console.log(state.options);
 * ```
 */
export interface ListingPhase {
  readonly phase: 'listing';
  readonly resourceVersion: string;
  readonly options: ListOptions;
  readonly fromLatest: boolean;
}

/**
 * The watch request a watching phase opened, and how long it may stay silent before it is dead
 * (`expected` says why, in the dead-watch error's message).
 *
 * @example
 * ```ts
 * bursts$.pipe(detectDeadWatch(request.silenceMs, scheduler, 'Pod watch', request.expected));
 * ```
 */
export interface WatchRequest {
  readonly options: WatchOptions;
  readonly silenceMs: number;
  readonly expected: string;
}

/**
 * The initial events of a streaming list so far, newest burst first: one node per burst, so that
 * collecting costs nothing per burst beyond the burst's own array. Keyed once, at the bookmark
 * that ends them.
 *
 * @example
 * ```ts
 * const collected: InitialEvents<V1Pod> = { events: [added], previous: undefined };
 * ```
 */
export interface InitialEvents<T> {
  readonly events: ReadonlyArray<WatchEvent<T>>;
  readonly previous: InitialEvents<T> | undefined;
}

/**
 * A watch is open. `mode`: `watchList` while it collects a streaming list's initial events, then
 * `watch`. `start` and `count` (on the scheduler's clock; events since `start`) decide a "very
 * short watch"; `synthetic`: it started at `""`/`"0"` and has seen only ADDED events so far, which
 * do not move the RV (R9); `initial`: the streaming list's events so far.
 *
 * @example
 * ```ts
 * if (state.phase === 'watching' && state.mode === 'watchList') console.log('collecting');
 * ```
 */
export interface WatchingPhase<T> {
  readonly phase: 'watching';
  readonly mode: 'watch' | 'watchList';
  readonly request: WatchRequest;
  readonly start: number;
  readonly count: number;
  readonly synthetic: boolean;
  readonly initial: InitialEvents<T> | undefined;
}

/**
 * What a backoff leads to: a new ListAndWatch (list, or streaming list), a watch from the last RV,
 * or a streaming list started over.
 *
 * @example
 * ```ts
 * const then: Resume = 'rewatch';
 * ```
 */
export type Resume = 'listAndWatch' | 'rewatch' | 'restartWatchList';

/**
 * Waiting `delayMs` (a timer on the injected scheduler) before `then`.
 *
 * @example
 * ```ts
 * if (state.phase === 'backingOff') console.log(`${state.then} in ${state.delayMs} ms`);
 * ```
 */
export interface BackingOffPhase {
  readonly phase: 'backingOff';
  readonly delayMs: number;
  readonly then: Resume;
}

/**
 * The reflector's state: exactly one phase (each needs one piece of I/O: a list, a watch or a
 * timer) plus what is carried across phases. kube-rs' `watcher` `State` enum is the model.
 *
 * ```text
 *            +--------- listed ----------+
 *            v                           |
 * start -> listing --(410/too large)--> listing(fromLatest)
 *   |        |  \--(error)--> backingOff --(timer)--> listing | watching | watching(watchList)
 *   |        v                    ^
 *   +--> watching(watchList) --bookmark--> watching(watch) --(clean close)--> watching(watch)
 *                 \------------------(errors)-------------------/
 * ```
 *
 * @example
 * ```ts
 * const describe = (s: ReflectorState<V1Pod>) => (s.phase === 'backingOff' ? `waiting ${s.delayMs} ms` : s.phase);
 * ```
 */
export type ReflectorState<T> = (ListingPhase | WatchingPhase<T> | BackingOffPhase) & ReflectorCarried;

/**
 * What is carried into the first phase: nothing listed yet, the backoff at its start.
 *
 * @example
 * ```ts
 * const carried = initialCarried(reflectorConfig({}));
 * ```
 */
export function initialCarried(config: ReflectorConfig): ReflectorCarried {
  return {
    rv: { lastSyncResourceVersion: '', unavailable: false, paginatedResult: false },
    malformedAt: undefined,
    backoff: initialBackoffState(config.backoff),
  };
}
