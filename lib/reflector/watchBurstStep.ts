import { KeyError } from '../errors.js';
import type { WatchEvent } from '../listwatch/watchEvent.js';
import { metaNamespaceKeyFunc } from '../meta/keys.js';
import type { KubeObjectLike } from '../meta/kubeObject.js';
import { WatchEndedError } from './reflectorError.js';
import type { ReflectorEvent } from './reflectorEvent.js';
import type { StepContext, StepResult } from './reflectorInput.js';
import { initialEventsEndAnnotation } from './reflectorOptions.js';
import type { ReflectorOutput } from './reflectorOutput.js';
import type { InitialEvents, ReflectorCarried, ReflectorState, WatchingPhase } from './reflectorState.js';
import { endWatch, pushStatus } from './reflectorTransitions.js';
import { isValidResourceVersion } from './relistResourceVersion.js';
import { watchErrorEventError } from './unexpectedObjectError.js';

type Watching<T> = WatchingPhase<T> & ReflectorCarried;

/**
 * A burst being applied: the step's local, mutable working copy (one per burst, never shared), so
 * that the per-event work is what it always was (a push and an RV check) and the new state is
 * built once per burst.
 */
interface Draft<T> {
  mode: 'watch' | 'watchList';
  start: number;
  count: number;
  synthetic: boolean;
  lastSyncResourceVersion: string;
  unavailable: boolean;
  /** This burst's initial events of a streaming list. */
  chunk: WatchEvent<T>[] | undefined;
  initial: InitialEvents<T> | undefined;
  readonly outputs: ReflectorOutput<T>[];
  /** Events since the last flush, and the RVs they moved to. */
  events: ReflectorEvent<T>[];
  resourceVersions: string[];
}

/**
 * One watch burst (the events of one chunk) applied to a watching state: the events become one
 * `events` output with the RVs they moved to. An event that ends the watch (an `ERROR`, a malformed
 * line, an event the reflector cannot handle) flushes what came before it, decides what comes next,
 * and drops the rest of the burst: it comes again from the RV the next watch starts at. Pure.
 *
 * @example
 * ```ts
 * const { state, outputs } = watchBurstStep(watching, [{ type: 'ADDED', object: pod }], ctx);
 * ```
 */
export function watchBurstStep<T extends KubeObjectLike>(
  s: Watching<T>,
  events: ReadonlyArray<WatchEvent<T>>,
  ctx: StepContext,
): StepResult<T> {
  const d: Draft<T> = {
    mode: s.mode,
    start: s.start,
    count: s.count,
    synthetic: s.synthetic,
    lastSyncResourceVersion: s.rv.lastSyncResourceVersion,
    unavailable: s.rv.unavailable,
    chunk: undefined,
    initial: s.initial,
    outputs: [],
    events: [],
    resourceVersions: [],
  };
  for (const event of events) {
    let ended: ReflectorState<T> | undefined;
    try {
      ended = applyEvent(s, d, event, ctx);
    } catch (err) {
      // Nothing the server sends may end the process: an event the reflector cannot handle ends
      // this watch like a malformed line (re-watch from the last good RV, relist if it repeats).
      const message = `could not handle a ${String((event as { type?: unknown } | null)?.type)} event: ${String(err)}`;
      ended = end(s, d, new WatchEndedError('malformed', message, { cause: err }), ctx);
    }
    if (ended) return { state: ended, outputs: d.outputs, entered: true };
  }
  flush(d);
  return { state: settle(s, d), outputs: d.outputs, entered: false };
}

/** Applies one event; returns the phase entered when it ended the watch. */
function applyEvent<T extends KubeObjectLike>(
  s: Watching<T>,
  d: Draft<T>,
  event: WatchEvent<T>,
  ctx: StepContext,
): ReflectorState<T> | undefined {
  switch (event.type) {
    case 'ERROR':
      return end(s, d, watchErrorEventError(event.object), ctx);
    case 'ADDED':
    case 'MODIFIED':
    case 'DELETED': {
      const object = event.object;
      const rv = object.metadata?.resourceVersion;
      d.count++;
      if (d.mode === 'watchList') {
        (d.chunk ??= []).push(event);
        return undefined;
      }
      d.events.push({
        type: event.type === 'ADDED' ? 'add' : event.type === 'MODIFIED' ? 'update' : 'delete',
        object,
      });
      if (d.synthetic && event.type === 'ADDED') return undefined;
      d.synthetic = false;
      moveResourceVersion(d, rv);
      return undefined;
    }
    case 'BOOKMARK': {
      const rv = event.object.metadata?.resourceVersion;
      d.count++;
      if (d.mode === 'watchList') {
        if (event.object.metadata?.annotations?.[initialEventsEndAnnotation] !== 'true') return undefined;
        if (!isValidResourceVersion(rv))
          return end(
            s,
            d,
            new WatchEndedError('malformed', 'the initial-events-end bookmark has no resourceVersion'),
            ctx,
          );
        completeInitialEvents(d, rv, ctx);
        return undefined;
      }
      // A bookmark says only "you are at this RV": without a valid one it says nothing.
      if (!isValidResourceVersion(rv)) return undefined;
      d.events.push({ type: 'bookmark', resourceVersion: rv });
      d.synthetic = false;
      moveResourceVersion(d, rv);
      return undefined;
    }
    case 'MALFORMED':
      // The change that line carried is unknown: stop here and re-watch from the last good RV, so
      // the server sends it again (a second bad line at the same RV relists instead).
      return end(s, d, new WatchEndedError('malformed', event.error.message, { cause: event.error }), ctx);
    default: {
      const type = (event as { type?: unknown }).type;
      return end(
        s,
        d,
        new WatchEndedError('malformed', `unexpected watch event type ${JSON.stringify(type)}`),
        ctx,
      );
    }
  }
}

/** The initial events are complete at `rv`: one Replace, then the same watch goes on as a watch. */
function completeInitialEvents<T extends KubeObjectLike>(d: Draft<T>, rv: string, ctx: StepContext): void {
  d.unavailable = false;
  d.events.push({ type: 'replace', items: Object.freeze(initialItems(d)), resourceVersion: rv });
  d.chunk = undefined;
  d.initial = undefined;
  moveResourceVersion(d, rv);
  d.mode = 'watch';
  d.start = ctx.now();
  d.count = 0;
  flush(d);
  pushStatus(d.outputs, { state: 'watching', resourceVersion: rv });
}

/**
 * The streaming list's objects by key, in the order a Map keeps them, then those without a key
 * (passed on: the FIFO reports a KeyError for each and skips it, as for a watch event).
 */
function initialItems<T extends KubeObjectLike>(d: Draft<T>): T[] {
  const bursts: ReadonlyArray<WatchEvent<T>>[] = d.chunk ? [d.chunk] : [];
  for (let node = d.initial; node; node = node.previous) bursts.push(node.events);
  const byKey = new Map<string, T>();
  const keyless: T[] = [];
  for (let i = bursts.length - 1; i >= 0; i--) {
    for (const event of bursts[i]) {
      if (event.type !== 'ADDED' && event.type !== 'MODIFIED' && event.type !== 'DELETED') continue;
      let key: string;
      try {
        key = metaNamespaceKeyFunc(event.object);
      } catch (err) {
        if (!(err instanceof KeyError)) throw err;
        if (event.type !== 'DELETED') keyless.push(event.object);
        continue;
      }
      if (event.type === 'DELETED') byKey.delete(key);
      else byKey.set(key, event.object);
    }
  }
  return [...byKey.values(), ...keyless];
}

/** Moves the RV, only ever to a valid one from the server: a re-watch from `''` would lose deletions. */
function moveResourceVersion<T>(d: Draft<T>, rv: unknown): void {
  if (!isValidResourceVersion(rv)) return;
  d.lastSyncResourceVersion = rv;
  d.resourceVersions.push(rv);
}

/** Hands on the events gathered so far as one burst: before any status or error, to keep order. */
function flush<T>(d: Draft<T>): void {
  if (d.events.length === 0) return;
  d.outputs.push({ type: 'events', events: d.events, resourceVersions: d.resourceVersions });
  d.events = [];
  d.resourceVersions = [];
}

function end<T>(s: Watching<T>, d: Draft<T>, err: unknown, ctx: StepContext): ReflectorState<T> {
  flush(d);
  return endWatch(settle(s, d), err, ctx, d.outputs);
}

/** The watching state after the events applied so far. */
function settle<T>(s: Watching<T>, d: Draft<T>): Watching<T> {
  const rv =
    d.lastSyncResourceVersion === s.rv.lastSyncResourceVersion && d.unavailable === s.rv.unavailable
      ? s.rv
      : {
          lastSyncResourceVersion: d.lastSyncResourceVersion,
          unavailable: d.unavailable,
          paginatedResult: s.rv.paginatedResult,
        };
  // The same key order as enterWatch's (docs/PERFORMANCE.md, "One shape per state").
  return {
    rv,
    malformedAt: s.malformedAt,
    backoff: s.backoff,
    phase: 'watching',
    mode: d.mode,
    request: s.request,
    start: d.start,
    count: d.count,
    synthetic: d.synthetic,
    initial: d.chunk ? { events: d.chunk, previous: d.initial } : d.initial,
  };
}
