import type { Observable } from 'rxjs';
import type { DroppableField } from './droppableField.js';
import type { WatchEvent } from './watchEvent.js';

/** Options of one LIST request. Selectors are not here: they are fixed by the ListWatch itself. */
export interface ListOptions {
  /** `resourceVersion`: unset (consistent), `'0'` (any) or a specific version. */
  readonly resourceVersion?: string;
  readonly resourceVersionMatch?: 'NotOlderThan' | 'Exact';
  /** Page size; 0 or unset sends no `limit`. */
  readonly limit?: number;
}

/** Options of one WATCH request. */
export interface WatchOptions {
  readonly resourceVersion?: string;
  readonly resourceVersionMatch?: 'NotOlderThan';
  readonly allowWatchBookmarks?: boolean;
  /** Server-side timeout; the client also declares the watch dead after this plus a margin with no bytes. */
  readonly timeoutSeconds?: number;
  /** Streaming list (watch-list): initial ADDED events, then a bookmark annotated `k8s.io/initial-events-end`. */
  readonly sendInitialEvents?: boolean;
}

/** One page of a LIST response. */
export interface ListPage<T> {
  readonly items: ReadonlyArray<T>;
  /** The list's resourceVersion (the same on every page of one list). */
  readonly resourceVersion: string;
  /** The continue token; empty on the last page. */
  readonly continue: string;
  readonly remainingItemCount?: number;
  /** The list's `kind` as the server sent it (`PodList`, `PartialObjectMetadataList`), when it sent one. */
  readonly kind?: string;
  /** The shard the server served (KEP-5866 `metadata.shardInfo`); absent: the whole collection. */
  readonly shardInfo?: { readonly selector: string };
}

/**
 * List and watch for one resource (and one namespace, one pair of selectors), as cold Observables:
 * each subscription is one request (a list follows `continue` pages, emitting each page), and
 * unsubscribing aborts it. HTTP errors arrive as `ApiStatusError` on the error channel.
 *
 * @example
 * ```ts
 * const lw: ListWatch<V1Pod> = listWatch(kubeConfig, pods, { namespace: 'default' });
 * lw.list({ resourceVersion: '0', limit: 500 }).subscribe((page) => console.log(page.items.length));
 * ```
 */
export interface ListWatch<T> {
  list(options: ListOptions): Observable<ListPage<T>>;
  watch(options: WatchOptions): Observable<WatchEvent<T>>;
  /**
   * The same watch as `watch`, in bursts: one array per chunk of the response (every line it
   * completed). Optional: the reflector uses it when present (the ListWatch of `listWatch()` has
   * it), else wraps each event of `watch` in a burst of one.
   */
  watchBursts?(options: WatchOptions): Observable<ReadonlyArray<WatchEvent<T>>>;
  /**
   * The same ListWatch, cutting `fields` from each object's bytes before parsing them. Optional:
   * an informer whose transform declares that it drops fields (as `stripManagedFields` does) uses
   * it when present (the ListWatches of `listWatch()` and `metadataListWatch()` have it).
   */
  dropping?(fields: ReadonlyArray<DroppableField>): ListWatch<T>;
}
