import type { KubeConfig } from '@kubernetes/client-node';
import { createWriteStream } from 'node:fs';
import {
  asyncScheduler, catchError, concat, defer, expand, ignoreElements, map, merge, of, reduce, Subject, tap, timer,
  type Observable, type SchedulerLike, type Subscription,
} from 'rxjs';
import { RxkubeError } from '../../errors.js';
import { listWatch } from '../../listwatch/createListWatch.js';
import type { ListWatch } from '../../listwatch/listWatch.js';
import type { Resource } from '../../listwatch/resource.js';
import type { WatchEvent } from '../../listwatch/watchEvent.js';
import type { Transport } from '../../transport/transport.js';
import { redactSecret, SECRET_REDACTIONS } from './redaction.js';
import { RECORDING_FORMAT, resourceVersionOf, type RecordedEvent, type RecordedObject, type RecordedStream, type RecordingEntry } from './recording.js';

/**
 * Options of {@link recordTraffic}.
 *
 * @example
 * ```ts
 * const options: RecordTrafficOptions = { pageSize: 200, watchTimeoutSeconds: 120, redactSecrets: true };
 * ```
 */
export interface RecordTrafficOptions {
  /** Page size of the lists. Default 500 (client-go's). */
  readonly pageSize?: number;
  /** `timeoutSeconds` of each watch; the recorder re-watches from the last resourceVersion. Default 300. */
  readonly watchTimeoutSeconds?: number;
  /** Wait before relisting after a failed request (network, 5xx). Default 1000 ms. */
  readonly retryDelayMs?: number;
  /**
   * Replace every copy of Secrets' values with `""`, keys kept: `data`, `stringData`, and the same
   * two inside kubectl's `kubectl.kubernetes.io/last-applied-configuration` annotation. The header's
   * `redacted` says what was blanked. Default true: a recording is a file that travels (into bug
   * reports, into a repository).
   */
  readonly redactSecrets?: boolean;
  /** The clock of the times written and of the retry delay. Default `asyncScheduler`. */
  readonly scheduler?: SchedulerLike;
}

/**
 * A running recording.
 *
 * @example
 * ```ts
 * const rec = recordTraffic(kc, [pods], 'pods.jsonl');
 * await firstValueFrom(rec.entries$.pipe(filter((e) => e.type === 'event')));
 * await rec.stop();
 * ```
 */
export interface TrafficRecorder {
  /** Every line as it is written (header first, `end` last); hot. */
  readonly entries$: Observable<RecordingEntry>;
  /** Failed requests (the recorder relists after `retryDelayMs`); they are not written. */
  readonly errors$: Observable<unknown>;
  /** Stops listing and watching, writes the `end` line and closes the file. Idempotent. Rejects with `RecordingWriteError` if the file could not be written. */
  stop(): Promise<void>;
}

/**
 * What to record: a resource (all namespaces) or a stream with namespace and selectors.
 *
 * @example
 * ```ts
 * const specs: TrafficSpec[] = [builtInResources.nodes, { resource: builtInResources.pods, namespace: 'shop', labelSelector: 'app=web' }];
 * ```
 */
export type TrafficSpec = Resource | RecordedStream;

const isStream = (s: TrafficSpec): s is RecordedStream => 'resource' in s;

type Step = { readonly next: 'list' } | { readonly next: 'watch'; readonly rv: string };

/** What one stream's recording loop needs. */
interface StreamContext {
  readonly lw: ListWatch<RecordedObject>;
  readonly stream: number;
  readonly spec: RecordedStream;
  readonly write: (e: RecordingEntry) => void;
  /** Milliseconds since the recording started. */
  readonly t: () => number;
  readonly clean: (o: RecordedObject) => RecordedObject;
  readonly onError: (e: unknown) => void;
  readonly options: RecordTrafficOptions;
  readonly scheduler: SchedulerLike;
}

/**
 * One stream's loop, as a step machine: list (all pages, written as one entry), then watch from
 * the list's resourceVersion; when the server ends the watch, watch again from the last one seen;
 * after an ERROR event, or after a failed request and `retryDelayMs`, list again. Never completes.
 */
function streamTraffic({ lw, stream, spec, write, t, clean, onError, options, scheduler }: StreamContext): Observable<never> {
  const { resource } = spec;
  const typed = (o: RecordedObject): RecordedObject =>
    clean(resource.kind && o['kind'] === undefined ? { apiVersion: resource.group ? `${resource.group}/${resource.version}` : resource.version, kind: resource.kind, ...o } : o);
  const list$ = lw.list({ limit: options.pageSize ?? 500 }).pipe(
    reduce((acc: { rv: string; items: RecordedObject[] }, page) => ({ rv: page.resourceVersion, items: [...acc.items, ...page.items] }), { rv: '', items: [] }),
    map(({ rv, items }): Step => {
      write({ type: 'list', stream, t: t(), resourceVersion: rv, items: items.map(typed) });
      return { next: 'watch', rv };
    }),
  );
  const watch$ = (rv: string): Observable<Step> =>
    defer(() => {
      let last = rv;
      let expired = false;
      const record = (e: WatchEvent<RecordedObject>): void => {
        const event: RecordedEvent = e.type === 'MALFORMED' ? { type: 'MALFORMED', line: e.line } : { type: e.type, object: e.type === 'ERROR' ? (e.object as unknown as RecordedObject) : typed(e.object) };
        write({ type: 'event', stream, t: t(), event });
        if (e.type === 'ERROR') expired = true;
        else if (e.type !== 'MALFORMED') last = resourceVersionOf(e.object) ?? last;
      };
      return concat(
        lw.watch({ resourceVersion: rv, allowWatchBookmarks: true, timeoutSeconds: options.watchTimeoutSeconds ?? 300 }).pipe(tap(record), ignoreElements()),
        defer(() => of<Step>(expired ? { next: 'list' } : { next: 'watch', rv: last })),
      );
    });
  const step = (s: Step): Observable<Step> =>
    (s.next === 'list' ? list$ : watch$(s.rv)).pipe(
      catchError((err: unknown) => {
        onError(err);
        return timer(options.retryDelayMs ?? 1000, scheduler).pipe(map((): Step => ({ next: 'list' })));
      }),
    );
  return of<Step>({ next: 'list' }).pipe(expand(step, 1), ignoreElements());
}

/**
 * Records a cluster's list and watch traffic for `resources` into `file` (JSON lines, see
 * {@link RecordingEntry}), through rxkube's own transport: each stream is listed (paged), then
 * watched from the list's resourceVersion with bookmarks, re-watched when the server ends the
 * watch, relisted after an `ERROR` event (410 Expired) or a failed request. Only what the server
 * sent is written, and the resource descriptors: never the kubeconfig, a token, a certificate or
 * a header. Items of a list lack `apiVersion`/`kind` on a real server; they are filled in from the
 * resource. Replay the file with {@link replayListWatch} or `api.replay`.
 *
 * @example
 * ```ts
 * const kc = new KubeConfig();
 * kc.loadFromDefault();
 * const rec = recordTraffic(kc, [{ group: '', version: 'v1', plural: 'pods', kind: 'Pod', namespaced: true }], 'incident.jsonl');
 * process.on('SIGINT', () => void rec.stop());
 * ```
 */
export function recordTraffic(source: KubeConfig | Transport, resources: ReadonlyArray<TrafficSpec>, file: string, options: RecordTrafficOptions = {}): TrafficRecorder {
  const scheduler = options.scheduler ?? asyncScheduler;
  const streams: RecordedStream[] = resources.map((r) => (isStream(r) ? r : { resource: r }));
  const start = scheduler.now();
  const out = createWriteStream(file, { mode: 0o600 });
  const entries$ = new Subject<RecordingEntry>();
  const errors$ = new Subject<unknown>();
  // A file that cannot be written (a missing folder, a full disk) stops the recording; never an
  // unhandled 'error' event, which would end the process.
  let fileError: unknown;
  out.on('error', (e) => {
    fileError ??= e;
    errors$.next(e);
    sub.unsubscribe(); // the event comes asynchronously, after sub is set
  });
  const write = (e: RecordingEntry): void => {
    out.write(`${JSON.stringify(e)}\n`);
    entries$.next(e);
  };
  const redacting = options.redactSecrets !== false;
  const clean = (obj: RecordedObject): RecordedObject => (redacting ? redactSecret(obj) : obj);
  write({ type: 'header', format: RECORDING_FORMAT, version: 1, startedAt: new Date(start).toISOString(), streams, ...(redacting ? { redacted: SECRET_REDACTIONS } : {}) });

  const sub: Subscription = merge(
    ...streams.map((spec, stream) =>
      streamTraffic({
        lw: listWatch<RecordedObject>(source, spec.resource, { namespace: spec.namespace, labelSelector: spec.labelSelector, fieldSelector: spec.fieldSelector }),
        stream,
        spec,
        write,
        t: () => scheduler.now() - start,
        clean,
        onError: (e) => errors$.next(e),
        options,
        scheduler,
      }),
    ),
  ).subscribe();

  let stopped: Promise<void> | undefined;
  return {
    entries$: entries$.asObservable(),
    errors$: errors$.asObservable(),
    stop: () =>
      (stopped ??= new Promise<void>((resolve, reject) => {
        sub.unsubscribe();
        if (fileError === undefined) write({ type: 'end', t: scheduler.now() - start });
        entries$.complete();
        errors$.complete();
        const failed = (): RxkubeError =>
          new RxkubeError('RecordingWriteError', `recordTraffic: cannot write ${file}: ${(fileError as { message?: unknown } | undefined)?.message ?? 'the file is closed'}`, { cause: fileError });
        if (fileError !== undefined || out.destroyed) {
          reject(failed());
          return;
        }
        out.end(() => (fileError === undefined ? resolve() : reject(failed())));
      })),
  };
}
