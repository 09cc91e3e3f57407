import { ApiStatusError } from '../errors.js';
import type { WatchOptions } from '../listwatch/listWatch.js';
import { nextBackoff } from './backoff.js';
import {
  isExpiredError,
  isTooLargeResourceVersionError,
  isTooManyRequestsError,
  isWatchErrorRetriable,
} from './errorClassification.js';
import {
  ReflectorError,
  WatchEndedError,
  type ReflectorAction,
  type ReflectorOperation,
} from './reflectorError.js';
import type { StepContext } from './reflectorInput.js';
import type { ReflectorOutput } from './reflectorOutput.js';
import type {
  ReflectorCarried,
  ReflectorState,
  Resume,
  WatchingPhase,
  WatchRequest,
} from './reflectorState.js';
import type { ReflectorStatus } from './reflectorStatus.js';
import { listOptionsFor, relistResourceVersion, rewatchResourceVersion } from './relistResourceVersion.js';
import { UnexpectedObjectError } from './unexpectedObjectError.js';

// The reflector's transitions, pure: each takes what is carried, appends what to tell the
// subscriber to `out`, and returns the phase entered. The step (reflectorStep.ts) calls them.

type Out<T> = ReflectorOutput<T>[];

const veryShortWatchMs = 1000;

/** Appends a status; frozen, since every subscriber of `status$` shares it. */
export function pushStatus<T>(out: Out<T>, status: ReflectorStatus): void {
  out.push({ type: 'status', status: Object.freeze(status) });
}

/** Appends the error met and what is done about it (an `error` output: the reflector's `errors$` carries it). */
export function report<T>(
  ctx: StepContext,
  out: Out<T>,
  operation: ReflectorOperation,
  action: ReflectorAction,
  cause: unknown,
): ReflectorError {
  const error = new ReflectorError(ctx.config.typeName, operation, action, cause);
  out.push({ type: 'error', error });
  return error;
}

const carry = (c: ReflectorCarried): ReflectorCarried => ({
  rv: c.rv,
  malformedAt: c.malformedAt,
  backoff: c.backoff,
});

/** A new ListAndWatch: a streaming list with `useWatchList`, else a list. */
export function enterListAndWatch<T>(c: ReflectorCarried, ctx: StepContext, out: Out<T>): ReflectorState<T> {
  return ctx.config.useWatchList ? enterWatchList(c, ctx, out) : enterListing(c, false, ctx, out);
}

/** A list at client-go's `relistResourceVersion`; `fromLatest`: the one retry at `""`. */
export function enterListing<T>(
  c: ReflectorCarried,
  fromLatest: boolean,
  ctx: StepContext,
  out: Out<T>,
): ReflectorState<T> {
  const resourceVersion = relistResourceVersion(c.rv);
  const options = listOptionsFor(resourceVersion, ctx.config.pageSize, c.rv);
  pushStatus(out, { state: 'listing', resourceVersion });
  return { ...carry(c), phase: 'listing', resourceVersion, options, fromLatest };
}

/** A watch from the last RV, with bookmarks. */
export function enterWatch<T>(c: ReflectorCarried, ctx: StepContext, out: Out<T>): ReflectorState<T> {
  const resourceVersion = c.rv.lastSyncResourceVersion;
  const timeoutSeconds = watchTimeoutSeconds(ctx);
  pushStatus(out, { state: 'watching', resourceVersion });
  return watching(c, ctx, 'watch', { resourceVersion, allowWatchBookmarks: true, timeoutSeconds });
}

/** A streaming list: from `""` the first time or after an unavailable RV, else from the last RV. */
export function enterWatchList<T>(c: ReflectorCarried, ctx: StepContext, out: Out<T>): ReflectorState<T> {
  const resourceVersion = rewatchResourceVersion(c.rv);
  const timeoutSeconds = watchTimeoutSeconds(ctx);
  pushStatus(out, { state: 'watchListing', resourceVersion });
  return watching(c, ctx, 'watchList', {
    resourceVersion,
    resourceVersionMatch: 'NotOlderThan',
    sendInitialEvents: true,
    allowWatchBookmarks: true,
    timeoutSeconds,
  });
}

/** client-go's spread of watch restarts: `timeoutSeconds` in `[min, 2 * min)`. */
function watchTimeoutSeconds(ctx: StepContext): number {
  return Math.floor(ctx.config.minWatchTimeoutSeconds * (ctx.random() + 1));
}

function watching<T>(
  c: ReflectorCarried,
  ctx: StepContext,
  mode: 'watch' | 'watchList',
  options: WatchOptions,
): ReflectorState<T> {
  const rv = options.resourceVersion ?? '';
  return {
    rv: c.rv,
    malformedAt: c.malformedAt,
    backoff: c.backoff,
    phase: 'watching',
    mode,
    request: watchRequest(options, ctx),
    start: ctx.now(),
    count: 0,
    synthetic: mode === 'watch' && (rv === '' || rv === '0'),
    initial: undefined,
  };
}

/**
 * The dead-watch bound (R12): its `timeoutSeconds` plus the grace (the server ends it by then), or,
 * with bookmarks asked for and expected, one bookmark interval plus the grace, whichever is shorter.
 */
function watchRequest(options: WatchOptions, ctx: StepContext): WatchRequest {
  const { graceMs, bookmarkIntervalMs } = ctx.config;
  const byTimeout = (options.timeoutSeconds ?? 0) * 1000 + graceMs;
  const byBookmarks =
    options.allowWatchBookmarks && bookmarkIntervalMs > 0 ? bookmarkIntervalMs + graceMs : Infinity;
  const silenceMs = Math.min(byTimeout, byBookmarks);
  const expected =
    silenceMs < byTimeout
      ? `a bookmark every ${bookmarkIntervalMs / 1000} s plus ${graceMs / 1000} s`
      : `the watch timeout (${options.timeoutSeconds} s) plus ${graceMs / 1000} s`;
  return { options, silenceMs, expected };
}

/** The longest `Retry-After` a reflector honours: 5 minutes, ten times the backoff's cap. */
export const MAX_RETRY_AFTER_MS = 300_000;

/** Waits one backoff step (at least `Retry-After` when the server said, up to 5 minutes), then `then`. */
export function backOff<T>(
  c: ReflectorCarried,
  reason: ReflectorError | undefined,
  then: Resume,
  ctx: StepContext,
  out: Out<T>,
): ReflectorState<T> {
  const said = (reason?.cause instanceof ApiStatusError ? (reason.cause.retryAfterSeconds ?? 0) : 0) * 1000;
  // Bounded: a Retry-After of days would leave the informer unsynced that long after the server
  // recovered (and one past 2^31-1 ms fired at once: a hot loop against a server asking for less).
  const retryAfterMs = Number.isFinite(said) ? Math.min(Math.max(said, 0), MAX_RETRY_AFTER_MS) : 0;
  const step = nextBackoff(ctx.config.backoff, c.backoff, ctx.now(), ctx.random);
  const delayMs = Math.max(step.delayMs, retryAfterMs);
  pushStatus(out, reason ? { state: 'backingOff', delayMs, reason } : { state: 'backingOff', delayMs });
  return { rv: c.rv, malformedAt: c.malformedAt, backoff: step.state, phase: 'backingOff', delayMs, then };
}

/** The backoff is over: enter what it was waiting for. */
export function resume<T>(
  c: ReflectorCarried,
  then: Resume,
  ctx: StepContext,
  out: Out<T>,
): ReflectorState<T> {
  if (then === 'rewatch') return enterWatch(c, ctx, out);
  if (then === 'restartWatchList') return enterWatchList(c, ctx, out);
  return enterListAndWatch(c, ctx, out);
}

/**
 * The watch ended, cleanly (`err` undefined) or not. A clean close goes on from the last RV at once,
 * unless the watch lasted under a second with no events ("very short": an error).
 */
export function endWatch<T>(
  s: WatchingPhase<T> & ReflectorCarried,
  err: unknown,
  ctx: StepContext,
  out: Out<T>,
): ReflectorState<T> {
  if (err === undefined) {
    const veryShort = ctx.now() - s.start < veryShortWatchMs && s.count === 0;
    if (!veryShort) return s.mode === 'watch' ? enterWatch(s, ctx, out) : enterWatchList(s, ctx, out);
    err = new WatchEndedError(
      'veryShort',
      'very short watch: unexpected watch close - watch lasted less than a second and no items received',
    );
  }
  return s.mode === 'watchList' ? watchListFailed(s, err, ctx, out) : watchFailed(s, err, ctx, out);
}

function watchFailed<T>(c: ReflectorCarried, err: unknown, ctx: StepContext, out: Out<T>): ReflectorState<T> {
  const malformed = err instanceof WatchEndedError && err.kind === 'malformed';
  if (isExpiredError(err))
    return backOff(c, report(ctx, out, 'watch', 'relist', err), 'listAndWatch', ctx, out);
  if (isTooManyRequestsError(err))
    return backOff(c, report(ctx, out, 'watch', 'rewatch', err), 'rewatch', ctx, out);
  if (
    err instanceof ApiStatusError ||
    err instanceof UnexpectedObjectError ||
    (err instanceof WatchEndedError && err.kind === 'veryShort')
  ) {
    // 500, 401, 403, 504, ...: client-go's ListAndWatch returns; relist after a backoff step.
    return backOff(c, report(ctx, out, 'watch', 'relist', err), 'listAndWatch', ctx, out);
  }
  const rv = c.rv.lastSyncResourceVersion;
  if (malformed && c.malformedAt === rv) {
    // The same RV gave a bad line twice: the server may keep sending it; a relist gets past it.
    const error = report(ctx, out, 'watch', 'relist', err);
    return backOff({ ...carry(c), malformedAt: undefined }, error, 'listAndWatch', ctx, out);
  }
  // Transport errors, a dead connection, a malformed line: nothing says the RV is bad, so re-watch
  // from it after a backoff step. Anything missed is sent again from that RV.
  const error = report(ctx, out, 'watch', 'rewatch', err);
  return backOff(malformed ? { ...carry(c), malformedAt: rv } : c, error, 'rewatch', ctx, out);
}

function watchListFailed<T>(
  c: ReflectorCarried,
  err: unknown,
  ctx: StepContext,
  out: Out<T>,
): ReflectorState<T> {
  if (isWatchErrorRetriable(err))
    return backOff(c, report(ctx, out, 'watchList', 'restartWatchList', err), 'restartWatchList', ctx, out);
  if ((isExpiredError(err) || isTooLargeResourceVersionError(err)) && rewatchResourceVersion(c.rv) !== '') {
    report(ctx, out, 'watchList', 'restartWatchList', err);
    return enterWatchList({ ...carry(c), rv: { ...c.rv, unavailable: true } }, ctx, out);
  }
  report(ctx, out, 'watchList', 'fallbackToList', err);
  return enterListing(c, false, ctx, out);
}
