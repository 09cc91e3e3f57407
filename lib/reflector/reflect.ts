import { asyncScheduler, map, Observable, Subscription, type Subscriber } from 'rxjs';
import { ApiStatusError, KeyError } from '../errors.js';
import type { ListWatch, WatchOptions } from '../listwatch/listWatch.js';
import type { WatchEvent } from '../listwatch/watchEvent.js';
import type { KubeObject } from '../meta/kubeObject.js';
import { metaNamespaceKeyFunc } from '../meta/keys.js';
import { detectDeadWatch } from '../listwatch/detectDeadWatch.js';
import { exponentialBackoff } from './backoff.js';
import {
  isExpiredError,
  isTooLargeResourceVersionError,
  isTooManyRequestsError,
  isWatchErrorRetriable,
} from './errorClassification.js';
import { listAll } from './listAll.js';
import type { ReflectorEvent } from './reflectorEvent.js';
import {
  ReflectorError,
  WatchEndedError,
  type ReflectorAction,
  type ReflectorOperation,
} from './reflectorError.js';
import {
  defaultExpectedBookmarkIntervalMs,
  initialEventsEndAnnotation,
  type ReflectorOptions,
} from './reflectorOptions.js';
import type { ReflectorOutput } from './reflectorOutput.js';
import type { ReflectorStatus } from './reflectorStatus.js';
import {
  isValidResourceVersion,
  listOptionsFor,
  relistResourceVersion,
  rewatchResourceVersion,
  type ResourceVersionState,
} from './relistResourceVersion.js';
import { UnexpectedObjectError, watchErrorEventError } from './unexpectedObjectError.js';

/** One watch request in flight, and how it is being read. */
interface WatchStream<T> {
  /** `watchList`: collecting the initial events of a streaming list; then `watch`. */
  mode: 'watchList' | 'watch';
  /** When the current watch (or its watch phase) started, on the scheduler's clock. */
  start: number;
  /** Events received since `start`. */
  count: number;
  /** Watch started at `""`/`"0"`: its ADDED events are synthetic and do not move the RV (R9). */
  synthetic: boolean;
  /** The streaming list's objects so far, by key. */
  readonly initial: Map<string, T>;
  /** The streaming list's objects without a key: passed on in the Replace, for the FIFO to report and skip. */
  readonly keyless: T[];
  ended: boolean;
  subscription: Subscription | undefined;
}

const veryShortWatchMs = 1000;

/**
 * How long a watch may stay silent before it is dead: its `timeoutSeconds` plus the grace (the
 * server ends it by then), or, with bookmarks asked for and expected, one bookmark interval plus
 * the grace, whichever is shorter.
 */
function deadWatchSilenceMs(watchOptions: WatchOptions, bookmarkIntervalMs: number, graceMs: number): number {
  const byTimeout = (watchOptions.timeoutSeconds ?? 0) * 1000 + graceMs;
  if (!watchOptions.allowWatchBookmarks || bookmarkIntervalMs <= 0) return byTimeout;
  return Math.min(byTimeout, bookmarkIntervalMs + graceMs);
}

/**
 * The reflector's loop as one cold Observable: each subscription runs its own ListAndWatch (client-go's
 * Reflector: list, watch from the list's RV, re-watch after a clean close, relist after 410 or a
 * server error, back off after failures and after every ListAndWatch, follow bookmarks, replace
 * dead watches, optionally start with a streaming list) and tells its subscriber everything on one
 * stream: bursts of events, its status and the errors it recovered from. Unsubscribing aborts the
 * request in flight and every timer. It never errors and never completes.
 *
 * ```text
 * list(rv=0)   --p1--p2|
 * watch(rv=10)         ----[A,M]--B--(ERROR 410)
 * backoff                                    ~~~~~~
 * list(rv=40)                                      --p|
 * output       l-------Rw--[a,u]--[b]-----E--b-------l--R-w...   (l, w, b: status; E: error)
 * ```
 *
 * @example
 * ```ts
 * const sub = reflect(listWatch<V1Pod>(kc, pods), { expectedTypeName: 'Pod' }).subscribe((out) => {
 *   if (out.type === 'events') for (const e of out.events) console.log(e.type);
 * });
 * ```
 */
export function reflect<T extends KubeObject>(
  listWatch: ListWatch<T>,
  options: ReflectorOptions = {},
): Observable<ReflectorOutput<T>> {
  return new Observable<ReflectorOutput<T>>((subscriber) => runReflector(listWatch, options, subscriber));
}

function runReflector<T extends KubeObject>(
  lw: ListWatch<T>,
  options: ReflectorOptions,
  subscriber: Subscriber<ReflectorOutput<T>>,
): () => void {
  const scheduler = options.scheduler ?? asyncScheduler;
  const random = options.random ?? Math.random;
  const typeName = options.expectedTypeName ?? '<unspecified>';
  const minWatchTimeoutSeconds = options.minWatchTimeoutSeconds ?? 300;
  const graceMs = (options.deadWatchGraceSeconds ?? 10) * 1000;
  const bookmarkIntervalMs = options.expectedBookmarkIntervalMs ?? defaultExpectedBookmarkIntervalMs;
  const backoff = exponentialBackoff(options.backoff, scheduler, random);

  // Mutable, and changed in place: it is set on every watch event, and only read where it lives.
  const rvState: { -readonly [K in keyof ResourceVersionState]: ResourceVersionState[K] } = {
    lastSyncResourceVersion: '',
    unavailable: false,
    paginatedResult: false,
  };
  let request: Subscription | undefined;
  let stream: WatchStream<T> | undefined;
  let timer: Subscription | undefined;
  let stopped = false;
  let malformedAt: string | undefined;

  // Events are gathered into the current burst and handed on together (flush): at the end of each
  // watch chunk, after a list, and before any status or error, so that the output keeps its order.
  // Records are readonly by type, not frozen: freezing costs per event on the hot path.
  let burst: ReflectorEvent<T>[] = [];
  let burstResourceVersions: string[] = [];
  const emit = (event: ReflectorEvent<T>): void => void burst.push(event);
  const flush = (): void => {
    if (burst.length === 0) return;
    const events = burst;
    const resourceVersions = burstResourceVersions;
    burst = [];
    burstResourceVersions = [];
    subscriber.next({ type: 'events', events, resourceVersions });
  };
  const setStatus = (status: ReflectorStatus): void => {
    flush();
    subscriber.next({ type: 'status', status: Object.freeze(status) });
  };
  /** Moves the RV, only ever to a valid one from the server: a re-watch from `''` would lose deletions. */
  const setResourceVersion = (rv: unknown): void => {
    if (!isValidResourceVersion(rv)) return;
    rvState.lastSyncResourceVersion = rv;
    burstResourceVersions.push(rv);
  };
  const report = (operation: ReflectorOperation, action: ReflectorAction, cause: unknown): ReflectorError => {
    const error = new ReflectorError(typeName, operation, action, cause);
    flush();
    subscriber.next({ type: 'error', error });
    try {
      options.watchErrorHandler?.(error);
    } catch {
      // A throwing handler must not stop the reflector; the error is already on errors$.
    }
    return error;
  };
  /**
   * Aborts a watch on the next scheduler turn, not now: this is often called from inside the
   * stream's own callback (an ERROR event, or a subscriber that unsubscribes while handling an
   * event), and aborting a response that has just ended, from within its last chunk, can surface as
   * an uncaught AbortError in Node's http client. Events that arrive meanwhile are ignored (`ended`).
   */
  const abortSoon = (subscription: Subscription | undefined): void => {
    if (subscription && !subscription.closed) scheduler.schedule(() => subscription.unsubscribe(), 0);
  };
  const stopRequest = (): void => {
    if (stream) stream.ended = true;
    abortSoon(stream?.subscription);
    stream = undefined;
    request?.unsubscribe();
    request = undefined;
  };
  const after = (delayMs: number, reason: ReflectorError | undefined, next: () => void): void => {
    stopRequest();
    if (stopped) return;
    setStatus(reason ? { state: 'backingOff', delayMs, reason } : { state: 'backingOff', delayMs });
    timer?.unsubscribe();
    timer = scheduler.schedule(() => {
      timer = undefined;
      if (!stopped) next();
    }, delayMs);
  };
  /** Waits one backoff step (at least `Retry-After` when the server said), then runs `next`. */
  const backOffThen = (reason: ReflectorError | undefined, next: () => void): void => {
    const retryAfterMs =
      (reason?.cause instanceof ApiStatusError ? (reason.cause.retryAfterSeconds ?? 0) : 0) * 1000;
    after(Math.max(backoff.next(), retryAfterMs), reason, next);
  };
  /** ListAndWatch returned: client-go's BackoffUntil waits one step after every return (R7). */
  const endListAndWatch = (reason: ReflectorError | undefined): void => backOffThen(reason, listAndWatch);

  function listAndWatch(): void {
    if (options.useWatchList) watchList();
    else list(false);
  }

  function list(fromLatestRetry: boolean): void {
    if (stopped) return; // a subscriber unsubscribed from inside an event
    stopRequest();
    const rv = relistResourceVersion(rvState);
    const listOptions = listOptionsFor(rv, options.pageSize, rvState);
    setStatus({ state: 'listing', resourceVersion: rv });
    // Registered before subscribing, so that a list that answers synchronously (and whose handler
    // starts the next request) still leaves `request` pointing at the newest one.
    const current = new Subscription();
    request = current;
    const subscription = listAll(lw, listOptions).subscribe({
      next: (result) => {
        if (request === current) request = undefined;
        if (rv === '0' && result.paginated) rvState.paginatedResult = true;
        rvState.unavailable = false;
        emit({
          type: 'replace',
          items: Object.freeze(result.items), // listAll's own fresh array
          resourceVersion: result.resourceVersion,
        });
        setResourceVersion(result.resourceVersion);
        flush();
        watch();
      },
      error: (err: unknown) => {
        if (request === current) request = undefined;
        if ((isExpiredError(err) || isTooLargeResourceVersionError(err)) && !fromLatestRetry) {
          // The RV is compacted or ahead of this server: list once more, consistently, at "".
          rvState.unavailable = true;
          report('list', 'listFromLatest', err);
          list(true);
          return;
        }
        endListAndWatch(report('list', 'relist', err));
      },
    });
    current.add(subscription);
  }

  function watchTimeoutSeconds(): number {
    return Math.floor(minWatchTimeoutSeconds * (random() + 1));
  }

  function watch(): void {
    if (stopped) return; // a subscriber unsubscribed from inside an event
    stopRequest();
    const rv = rvState.lastSyncResourceVersion;
    const timeoutSeconds = watchTimeoutSeconds();
    setStatus({ state: 'watching', resourceVersion: rv });
    openStream({ resourceVersion: rv, allowWatchBookmarks: true, timeoutSeconds }, 'watch');
  }

  function watchList(): void {
    if (stopped) return; // a subscriber unsubscribed from inside an event
    stopRequest();
    const rv = rewatchResourceVersion(rvState);
    const timeoutSeconds = watchTimeoutSeconds();
    setStatus({ state: 'watchListing', resourceVersion: rv });
    openStream(
      {
        resourceVersion: rv,
        resourceVersionMatch: 'NotOlderThan',
        sendInitialEvents: true,
        allowWatchBookmarks: true,
        timeoutSeconds,
      },
      'watchList',
    );
  }

  function openStream(watchOptions: WatchOptions, mode: 'watch' | 'watchList'): void {
    const rv = watchOptions.resourceVersion ?? '';
    const s: WatchStream<T> = {
      mode,
      start: scheduler.now(),
      count: 0,
      synthetic: mode === 'watch' && (rv === '' || rv === '0'),
      initial: new Map(),
      keyless: [],
      ended: false,
      subscription: undefined,
    };
    stream = s;
    // Dead-connection detection (R12), rxkube's one mechanism: silence between bursts longer than
    // the bound (a bookmark interval, or the watch timeout, plus the grace) errors the stream with
    // WatchDeadError and aborts the request; onWatchError re-watches from the last RV.
    const silenceMs = deadWatchSilenceMs(watchOptions, bookmarkIntervalMs, graceMs);
    const expected =
      silenceMs < (watchOptions.timeoutSeconds ?? 0) * 1000 + graceMs
        ? `a bookmark every ${bookmarkIntervalMs / 1000} s plus ${graceMs / 1000} s`
        : `the watch timeout (${watchOptions.timeoutSeconds} s) plus ${graceMs / 1000} s`;
    const bursts$ = (
      lw.watchBursts ? lw.watchBursts(watchOptions) : lw.watch(watchOptions).pipe(map((event) => [event]))
    ).pipe(detectDeadWatch(silenceMs, scheduler, `${typeName} watch`, expected));
    const subscription = bursts$.subscribe({
      next: (events) => {
        if (s.ended) return;
        for (const event of events) {
          try {
            onEvent(s, event);
          } catch (err) {
            // Nothing the server sends may end the process: an event the reflector cannot handle
            // ends this watch like a malformed line (re-watch from the last good RV, relist if it repeats).
            endStream(
              s,
              new WatchEndedError(
                'malformed',
                `could not handle a ${String(event.type)} event: ${String(err)}`,
                { cause: err },
              ),
            );
          }
          if (s.ended) break; // the rest of the burst comes again from the RV the next watch starts at
        }
        flush();
      },
      error: (err: unknown) => {
        if (!s.ended) endStream(s, err);
      },
      complete: () => {
        if (!s.ended) endStream(s, undefined);
      },
    });
    if (s.ended) subscription.unsubscribe();
    else s.subscription = subscription;
  }

  function onEvent(s: WatchStream<T>, event: WatchEvent<T>): void {
    switch (event.type) {
      case 'ERROR':
        endStream(s, watchErrorEventError(event.object));
        return;
      case 'ADDED':
      case 'MODIFIED':
      case 'DELETED': {
        const object = event.object;
        const rv = object.metadata?.resourceVersion;
        s.count++;
        if (s.mode === 'watchList') {
          collectInitial(s, event.type, object);
          return;
        }
        emit({
          type: event.type === 'ADDED' ? 'add' : event.type === 'MODIFIED' ? 'update' : 'delete',
          object,
        });
        if (s.synthetic && event.type === 'ADDED') return;
        s.synthetic = false;
        setResourceVersion(rv);
        return;
      }
      case 'BOOKMARK': {
        const rv = event.object.metadata?.resourceVersion;
        s.count++;
        if (s.mode === 'watchList') {
          if (event.object.metadata?.annotations?.[initialEventsEndAnnotation] !== 'true') return;
          if (!isValidResourceVersion(rv)) {
            endStream(
              s,
              new WatchEndedError('malformed', 'the initial-events-end bookmark has no resourceVersion'),
            );
            return;
          }
          // The initial events are complete at this RV: one Replace, then the same watch goes on.
          rvState.unavailable = false;
          emit({
            type: 'replace',
            items: Object.freeze([...s.initial.values(), ...s.keyless]),
            resourceVersion: rv,
          });
          s.initial.clear();
          s.keyless.length = 0;
          setResourceVersion(rv);
          s.mode = 'watch';
          s.start = scheduler.now();
          s.count = 0;
          setStatus({ state: 'watching', resourceVersion: rv });
          return;
        }
        // A bookmark says only "you are at this RV": without a valid one it says nothing.
        if (!isValidResourceVersion(rv)) return;
        emit({ type: 'bookmark', resourceVersion: rv });
        s.synthetic = false;
        setResourceVersion(rv);
        return;
      }
      case 'MALFORMED':
        // The change that line carried is unknown: stop here and re-watch from the last good RV, so
        // the server sends it again (a second bad line at the same RV relists instead).
        endStream(s, new WatchEndedError('malformed', event.error.message, { cause: event.error }));
        return;
      default: {
        const type = (event as { type?: unknown }).type;
        endStream(s, new WatchEndedError('malformed', `unexpected watch event type ${JSON.stringify(type)}`));
      }
    }
  }

  function collectInitial(s: WatchStream<T>, type: 'ADDED' | 'MODIFIED' | 'DELETED', object: T): void {
    let key: string;
    try {
      key = metaNamespaceKeyFunc(object);
    } catch (err) {
      if (!(err instanceof KeyError)) throw err;
      // Passed on: the FIFO reports a KeyError for it and skips it, as for a watch event.
      if (type !== 'DELETED') s.keyless.push(object);
      return;
    }
    if (type === 'DELETED') s.initial.delete(key);
    else s.initial.set(key, object);
  }

  function endStream(s: WatchStream<T>, err: unknown): void {
    flush();
    s.ended = true;
    abortSoon(s.subscription);
    if (stream === s) stream = undefined;
    const veryShort = scheduler.now() - s.start < veryShortWatchMs && s.count === 0;
    if (err === undefined) {
      if (!veryShort) {
        // A clean close (the server's timeout): go on from the last RV, without a relist.
        if (s.mode === 'watch') watch();
        else watchList();
        return;
      }
      err = new WatchEndedError(
        'veryShort',
        'very short watch: unexpected watch close - watch lasted less than a second and no items received',
      );
    }
    if (s.mode === 'watchList') onWatchListError(err);
    else onWatchError(err);
  }

  function onWatchError(err: unknown): void {
    if (isExpiredError(err)) {
      endListAndWatch(report('watch', 'relist', err));
    } else if (isTooManyRequestsError(err)) {
      backOffThen(report('watch', 'rewatch', err), watch);
    } else if (
      err instanceof ApiStatusError ||
      err instanceof UnexpectedObjectError ||
      (err instanceof WatchEndedError && err.kind === 'veryShort')
    ) {
      // 500, 401, 403, 504, ...: client-go's ListAndWatch returns; relist after a backoff step.
      endListAndWatch(report('watch', 'relist', err));
    } else if (
      err instanceof WatchEndedError &&
      err.kind === 'malformed' &&
      malformedAt === rvState.lastSyncResourceVersion
    ) {
      // The same RV gave a bad line twice: the server may keep sending it; a relist gets past it.
      malformedAt = undefined;
      endListAndWatch(report('watch', 'relist', err));
    } else {
      // Transport errors, a dead connection, a malformed line: nothing says the RV is bad, so
      // re-watch from it after a backoff step. Anything missed is sent again from that RV.
      if (err instanceof WatchEndedError && err.kind === 'malformed')
        malformedAt = rvState.lastSyncResourceVersion;
      backOffThen(report('watch', 'rewatch', err), watch);
    }
  }

  function onWatchListError(err: unknown): void {
    if (isWatchErrorRetriable(err)) {
      backOffThen(report('watchList', 'restartWatchList', err), watchList);
    } else if (
      (isExpiredError(err) || isTooLargeResourceVersionError(err)) &&
      rewatchResourceVersion(rvState) !== ''
    ) {
      rvState.unavailable = true;
      report('watchList', 'restartWatchList', err);
      watchList();
    } else {
      report('watchList', 'fallbackToList', err);
      list(false);
    }
  }

  listAndWatch();
  return () => {
    stopped = true;
    stopRequest();
    timer?.unsubscribe();
    timer = undefined;
  };
}
