import { Observable, asyncScheduler } from 'rxjs';
import { ApiStatusError } from '../errors.js';
import type { ListOptions, ListPage, ListWatch, WatchOptions } from '../listwatch/listWatch.js';
import type { WatchEvent } from '../listwatch/watchEvent.js';
import type { RequestSpan, RequestSpanStart, TracedRequests, Tracing } from './tracing.js';

/**
 * `lw` with a span per list and per watch request (`list configmaps`, `watch configmaps`): the
 * resourceVersion asked and answered, the pages and items of a list, the events of a watch, the
 * status, and why a list is made (`initial`, or what ended the request before it: `expired` for
 * a 410, `watch error 500`, `list error`, `watch ended`). `sharedInformerFactory(kc, { tracing })`
 * traces its informers so (through `tracing.traceListWatch`); wrap a ListWatch of your own for
 * `informer(lw)`.
 *
 * @example
 * ```ts
 * const lw = tracedListWatch(listWatch<V1Pod>(kc, pods), openTelemetryTracing(), { resource: 'pods', path: '/api/v1/pods' });
 * const pods$ = informer(lw);
 * ```
 */
export function tracedListWatch<T>(lw: ListWatch<T>, tracing: Tracing, options: TracedRequests): ListWatch<T> {
  const scheduler = options.scheduler ?? asyncScheduler;
  let lists = 0;
  let lastEnd: string | undefined;
  const start = (operation: 'list' | 'watch', resourceVersion: string | undefined, reason?: string): RequestSpan => {
    const s: RequestSpanStart = {
      operation,
      resource: options.resource,
      path: options.path,
      startTime: scheduler.now(),
      ...(options.namespace ? { namespace: options.namespace } : {}),
      ...(resourceVersion === undefined ? {} : { resourceVersion }),
      ...(reason === undefined ? {} : { reason }),
    };
    return tracing.startRequest(s);
  };
  // One span per subscription (each is its own request), ended once: by the answer's end, its
  // error, or the unsubscription that aborts it.
  const traced = <E>(operation: 'list' | 'watch', inner: Observable<E>, span: RequestSpan, seen: (e: E) => string | undefined): Observable<E> =>
    new Observable<E>((subscriber) => {
      let ended = false;
      let resourceVersion: string | undefined;
      const end = (status: number | undefined, error?: unknown) => {
        if (ended) return;
        ended = true;
        span.end({ endTime: scheduler.now(), ...(status === undefined ? {} : { status }), ...(resourceVersion === undefined ? {} : { resourceVersion }), ...(error === undefined ? {} : { error }) });
      };
      const sub = inner.subscribe({
        next: (e) => {
          resourceVersion = seen(e) ?? resourceVersion;
          subscriber.next(e);
        },
        error: (err: unknown) => {
          const status = err instanceof ApiStatusError ? err.statusCode : undefined;
          lastEnd = status === 410 ? 'expired' : `${operation} error${status === undefined ? '' : ` ${status}`}`;
          end(status, err);
          subscriber.error(err);
        },
        complete: () => {
          if (operation === 'watch') lastEnd ??= 'watch ended';
          end(200);
          subscriber.complete();
        },
      });
      return () => {
        sub.unsubscribe();
        end(undefined);
      };
    });
  const eventSeen = (span: RequestSpan) => (e: WatchEvent<T>): string | undefined => {
    if (e.type === 'ERROR') lastEnd = e.object.code === 410 ? 'expired' : `watch error ${e.object.code ?? ''}`.trim();
    const rv = e.type === 'ERROR' || e.type === 'MALFORMED' ? undefined : (e.object as { metadata?: { resourceVersion?: string } } | null)?.metadata?.resourceVersion;
    span.event(e.type, rv);
    return rv;
  };
  const watchOf = (o: WatchOptions) => {
    lastEnd = undefined;
    return start('watch', o.resourceVersion);
  };
  return {
    list(o: ListOptions): Observable<ListPage<T>> {
      return new Observable<ListPage<T>>((subscriber) => {
        const reason = lists++ === 0 ? 'initial' : (lastEnd ?? 'relist');
        const span = start('list', o.resourceVersion, reason);
        return traced('list', lw.list(o), span, (page) => {
          span.page(page.items.length, page.resourceVersion);
          return page.resourceVersion;
        }).subscribe(subscriber);
      });
    },
    watch(o: WatchOptions): Observable<WatchEvent<T>> {
      return new Observable<WatchEvent<T>>((subscriber) => {
        const span = watchOf(o);
        return traced('watch', lw.watch(o), span, eventSeen(span)).subscribe(subscriber);
      });
    },
    ...(lw.watchBursts === undefined
      ? {}
      : {
          watchBursts: (o: WatchOptions): Observable<ReadonlyArray<WatchEvent<T>>> => {
            const bursts = lw.watchBursts!.bind(lw);
            return new Observable<ReadonlyArray<WatchEvent<T>>>((subscriber) => {
              const span = watchOf(o);
              const seen = eventSeen(span);
              return traced('watch', bursts(o), span, (burst) => {
                let rv: string | undefined;
                for (const e of burst) rv = seen(e) ?? rv;
                return rv;
              }).subscribe(subscriber);
            });
          },
        }),
  };
}
