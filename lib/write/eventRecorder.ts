import { Subject, asyncScheduler, catchError, defer, from, retry, throwError, timer, type Observable, type SchedulerLike, type Subscription } from 'rxjs';
import { can, declarePermissions } from '../rbac/permission.js';
import { EventRecordError } from './eventRecordError.js';
import type { EventSink, KubeEvent } from './eventSink.js';
import type { EventInput } from './eventInput.js';
import { invalidEventInput } from './invalidEventInput.js';
import type { ObjectReference } from './objectReference.js';
import { truncateUtf8 } from './truncateUtf8.js';

export type { EventInput } from './eventInput.js';


/**
 * The options of {@link eventRecorder}.
 *
 * @example
 * ```ts
 * const options: EventRecorderOptions = { sink, reportingController: 'example.com/labeller', reportingInstance: 'labeller-0' };
 * ```
 */
export interface EventRecorderOptions {
  readonly sink: EventSink;
  /** The controller's name, e.g. `example.com/labeller`. */
  readonly reportingController: string;
  /** This replica, e.g. the pod name. */
  readonly reportingInstance: string;
  /** Repeats within this long of the last occurrence join its series (default 6 min, client-go's). */
  readonly seriesWindowMs?: number;
  /** Tries per write for transport errors and 5xx/429 (default 12, client-go's). 4xx is never retried. */
  readonly maxTries?: number;
  /** Between tries (default 10 s, client-go's). */
  readonly retryDelayMs?: number;
  /** Clock and timers (default `asyncScheduler`). */
  readonly scheduler?: SchedulerLike;
}

/**
 * An event recorder. `publish` never throws nor waits: writes happen in the background, one at a
 * time per series, and failures go to `errors$` (so does an input that is not an
 * {@link EventInput}: nothing is written for it).
 *
 * @example
 * ```ts
 * recorder.publish({ type: 'Normal', reason: 'Labelled', action: 'Patch', regarding: ref });
 * recorder.written$.subscribe((ev) => console.log('wrote', ev.metadata.name, ev.series?.count ?? 1));
 * ```
 */
export interface EventRecorder {
  /** Records one occurrence: a new Event, or one more in the series of an equal recent one. */
  publish(event: EventInput): void;
  /** Each Event (or series update) once the API server accepted it. */
  readonly written$: Observable<KubeEvent>;
  /** Writes given up on, and inputs refused. */
  readonly errors$: Observable<EventRecordError>;
  /** Stops: cancels writes in flight and pending retries; later publishes are dropped. */
  close(): void;
}

interface Series {
  readonly key: string;
  readonly base: KubeEvent;
  count: number;
  lastObserved: number;
  /** The count the server has (0: not created yet). */
  written: number;
  writing: boolean;
}

/** RFC 3339 with microseconds (`MicroTime`): the API server rejects other precisions. */
const microTime = (ms: number): string => new Date(ms).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');

const isTransient = (e: unknown): boolean => {
  const code = (e as { statusCode?: number; code?: unknown } | null)?.statusCode ?? (e as { code?: unknown } | null)?.code;
  return typeof code !== 'number' || code === 429 || code >= 500;
};
const isNotFound = (e: unknown): boolean => {
  const err = e as { statusCode?: number; code?: unknown } | null;
  return err?.statusCode === 404 || err?.code === 404;
};

const refKey = (r: ObjectReference | undefined): unknown[] => (r ? [r.apiVersion, r.kind, r.namespace, r.name, r.uid, r.fieldPath] : []);

/** The Event of a series' first occurrence. */
function firstEvent(input: EventInput, now: number, seq: number, reportingController: string, reportingInstance: string): KubeEvent {
  // client-go names Events `<regarding name>.<unix nanos in hex>`; the sequence keeps two Events
  // of one millisecond apart.
  const nanos = BigInt(Math.floor(now)) * 1_000_000n + BigInt(seq % 1_000_000);
  return {
    apiVersion: 'events.k8s.io/v1',
    kind: 'Event',
    metadata: { name: `${input.regarding.name ?? 'unknown'}.${nanos.toString(16)}`, namespace: input.regarding.namespace || 'default' },
    eventTime: microTime(now),
    reportingController,
    reportingInstance,
    type: input.type,
    reason: input.reason,
    action: input.action,
    ...(input.note !== undefined ? { note: truncateUtf8(input.note, 1024) } : {}),
    regarding: input.regarding,
    ...(input.related ? { related: input.related } : {}),
  };
}

/** One try at writing a series' state: create its Event, or JSON-patch its `series`. */
function writeOnce(sink: EventSink, event: KubeEvent, create: boolean): Observable<unknown> {
  const { namespace, name } = event.metadata;
  if (create) return from(sink.create(namespace, event));
  return from(sink.patch(namespace, name, [{ op: 'add', path: '/series', value: event.series }])).pipe(
    // The Event has gone (expired on the server): create it anew, series included.
    catchError((e: unknown) => (isNotFound(e) ? from(sink.create(namespace, event)) : throwError(() => e))),
  );
}

/**
 * An event recorder writing `events.k8s.io/v1` Events, aggregating repeats into series as
 * client-go's `tools/events` broadcaster and kube-rs's `events::Recorder` do: the first occurrence
 * is created as an Event; an equal one (same type, reason, action, note, regarding and related;
 * the regarding object's resourceVersion does not count) within `seriesWindowMs` of the last
 * occurrence sets `series: { count, lastObservedTime }` on that Event with a JSON patch. While a
 * write is in flight, further repeats are merged into the next write (never two writes of one
 * series at once). A series update whose Event has gone (404) creates it anew. Timers and the
 * clock come from the injected scheduler.
 *
 * @example
 * ```ts
 * import { EventsV1Api, KubeConfig, type V1Deployment } from '@kubernetes/client-node';
 * import { clientNodeEventSink, eventRecorder, objectReference } from 'rxkube';
 *
 * declare const kc: KubeConfig;
 * declare const deployment: V1Deployment;
 * const recorder = eventRecorder({
 *   sink: clientNodeEventSink(kc.makeApiClient(EventsV1Api)),
 *   reportingController: 'example.com/labeller',
 *   reportingInstance: 'labeller-0',
 * });
 * recorder.errors$.subscribe((e) => console.warn(e.message));
 * recorder.publish({
 *   type: 'Normal', reason: 'Labelled', action: 'Patch', note: '3 ready pods',
 *   regarding: objectReference(deployment, { apiVersion: 'apps/v1', kind: 'Deployment' }),
 * });
 * ```
 */
export function eventRecorder(options: EventRecorderOptions): EventRecorder {
  const { sink, reportingController, reportingInstance } = options;
  const scheduler = options.scheduler ?? asyncScheduler;
  const windowMs = options.seriesWindowMs ?? 6 * 60_000;
  const maxTries = Math.max(1, options.maxTries ?? 12);
  const retryDelayMs = options.retryDelayMs ?? 10_000;
  const written$ = new Subject<KubeEvent>();
  const errors$ = new Subject<EventRecordError>();
  const series = new Map<string, Series>();
  const inFlight = new Set<Subscription>();
  let seq = 0;
  let closed = false;

  const forget = (now: number) => {
    // Finished series (nothing within the window, nothing in flight) leave the cache.
    for (const [k, s] of series) if (!s.writing && now - s.lastObserved > windowMs) series.delete(k);
  };

  const write = (s: Series) => {
    s.writing = true;
    const count = s.count;
    const event: KubeEvent = count === 1 ? s.base : { ...s.base, series: { count, lastObservedTime: microTime(s.lastObserved) } };
    let tries = 0;
    const send$ = defer(() => {
      tries++;
      return writeOnce(sink, event, s.written === 0);
    });
    const done = (ok: boolean) => {
      s.writing = false;
      if (ok) {
        s.written = count;
        written$.next(event);
      } else if (s.written === 0) {
        series.delete(s.key); // never created: the next occurrence starts afresh
        return;
      } else {
        s.written = count; // given up on these occurrences: only a newer one writes again
      }
      if (!closed && s.count > s.written) write(s);
    };
    const sub = send$
      .pipe(retry({ count: maxTries - 1, delay: (e: unknown) => (isTransient(e) ? timer(retryDelayMs, scheduler) : throwError(() => e)) }))
      .subscribe({
        complete: () => done(true),
        error: (e: unknown) => {
          errors$.next(new EventRecordError(event, tries, e));
          done(false);
        },
      });
    // A synchronous sink has finished inside `subscribe`, before `sub` existed: its callbacks must
    // not touch `sub` (a TDZ ReferenceError there skipped the reset of `writing`), so the
    // bookkeeping is here, and only for a write still in flight.
    if (!sub.closed) {
      inFlight.add(sub);
      sub.add(() => inFlight.delete(sub));
    }
  };

  const recorder: EventRecorder = {
    publish(input: EventInput): void {
      if (closed) return;
      // Checked, not trusted: JavaScript callers (and `as` casts) can pass anything, and this must not throw.
      const problem = invalidEventInput(input);
      if (problem !== undefined) return void errors$.next(new EventRecordError(undefined, 0, problem, input));
      const key = JSON.stringify([input.type, input.reason, input.action, input.note ?? '', refKey(input.regarding), refKey(input.related)]);
      const now = scheduler.now();
      forget(now);
      const s = series.get(key);
      if (s) {
        s.count++;
        s.lastObserved = now;
        if (!s.writing) write(s);
        return;
      }
      const base = firstEvent(input, now, seq++, reportingController, reportingInstance);
      const fresh: Series = { key, base, count: 1, lastObserved: now, written: 0, writing: false };
      series.set(key, fresh);
      write(fresh);
    },
    written$: written$.asObservable(),
    errors$: errors$.asObservable(),
    close(): void {
      if (closed) return;
      closed = true;
      for (const sub of [...inFlight]) sub.unsubscribe();
      inFlight.clear();
      series.clear();
      written$.complete();
      errors$.complete();
    },
  };
  // For RBAC generation (permissionsOf): events.k8s.io Events, created and patched (series).
  declarePermissions(recorder, [can.recordEvents()]);
  return recorder;
}
