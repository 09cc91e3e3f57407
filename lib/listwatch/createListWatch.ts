import type { KubeConfig } from '@kubernetes/client-node';
import { asyncScheduler, defer, EMPTY, expand, map, reduce, throwError, type Observable, type SchedulerLike } from 'rxjs';
import { RxkubeError } from '../errors.js';
import { transportFor } from '../transport/kubeConfigTransport.js';
import { concatBytes, streamRequest$ } from '../transport/streamRequest.js';
import type { Transport } from '../transport/transport.js';
import { detectDeadWatch } from './detectDeadWatch.js';
import { dropsManagedFields, type DroppableField } from './droppableField.js';
import type { ListOptions, ListPage, ListWatch, WatchOptions } from './listWatch.js';
import { managedFieldsCuts, textWithout } from './managedFieldsCuts.js';
import type { Resource } from './resource.js';
import { resourcePath } from './resourcePath.js';
import { decodeUtf8Parts } from './utf8.js';
import { decodeWatchBursts, decodeWatchEvents } from './watchDecoder.js';
import type { WatchEvent } from './watchEvent.js';

/**
 * Options of {@link listWatch}: what to list and watch, fixed for both, and the clock.
 *
 * @example
 * ```ts
 * const options: ListWatchOptions = { namespace: 'shop', labelSelector: 'app=web', deadWatchMarginMs: 10_000 };
 * ```
 */
export interface ListWatchOptions {
  /** One namespace; unset or `''` lists and watches all namespaces (or a cluster-scoped resource). */
  readonly namespace?: string;
  /** Label selector, sent on every list and watch (e.g. `app=web,tier!=db`). */
  readonly labelSelector?: string;
  /** Field selector, sent on every list and watch (e.g. `spec.nodeName=n1`). */
  readonly fieldSelector?: string;
  /**
   * Shard selector (KEP-5866, Kubernetes 1.36 alpha), sent on every list and watch, e.g.
   * `shardRange(object.metadata.uid, '0x0000000000000000', '0x8000000000000000')`. A server
   * without the feature ignores it: see `shardedListWatch`, which tells from the answer.
   */
  readonly shardSelector?: string;
  /** The clock of the dead-watch timer; default `asyncScheduler`. */
  readonly scheduler?: SchedulerLike;
  /**
   * When set, a watch silent (no bytes) for its `timeoutSeconds` plus this margin is declared dead
   * and errors with `WatchDeadError` (R12), for users of the ListWatch on its own. Unset (default):
   * no timer here; the reflector detects dead watches itself (with bookmarks, much sooner). A
   * usual value is {@link defaultDeadWatchMarginMs}.
   */
  readonly deadWatchMarginMs?: number;
  /**
   * The `Accept` header of lists and of watches; unset: `application/json`. `metadataListWatch`
   * sets it to ask for PartialObjectMetadata.
   */
  readonly accept?: { readonly list: string; readonly watch: string };
  /**
   * Fields cut from each object's bytes before they are parsed (list items and watch objects),
   * for a transform that drops them anyway: `['metadata.managedFields']` spares JSON.parse about
   * 40% of a realistic pod. The objects are those parsing everything and deleting the field
   * gives. An informer sets it itself (through `dropping`) when its transform declares it, as
   * `stripManagedFields` does.
   */
  readonly drop?: ReadonlyArray<DroppableField>;
}

/**
 * The default margin past a watch's `timeoutSeconds` before a silent watch is declared dead.
 *
 * @example
 * ```ts
 * listWatch(kc, pods, { deadWatchMarginMs: defaultDeadWatchMarginMs * 2 });
 * ```
 */
export const defaultDeadWatchMarginMs = 30_000;

/**
 * The server-side watch timeout when none is asked for is 1800-3600 s: a watch without
 * `timeoutSeconds` is judged dead against the longest.
 *
 * @example
 * ```ts
 * const silenceMs = defaultServerWatchTimeoutSeconds * 1000 + defaultDeadWatchMarginMs;
 * ```
 */
export const defaultServerWatchTimeoutSeconds = 3600;

/**
 * The {@link ListWatch} of one resource: cold `list` and `watch` Observables over a
 * {@link Transport} (or a client-node `KubeConfig`, through the client-node transport on Node).
 * Namespace and selectors are fixed here, for list and watch alike, so they cannot drift.
 *
 * - `list(options)`: one GET per page, following `continue` until the last page; each page is
 *   emitted as it arrives. Continue pages send only `limit` and `continue`.
 * - `watch(options)`: one GET with `watch=true`, decoded line by line into {@link WatchEvent}s
 *   (`ERROR` events passed through, malformed lines as `MALFORMED` events). Completes when the
 *   server ends the stream. With `deadWatchMarginMs`, errors with `WatchDeadError` after
 *   `timeoutSeconds` plus that margin of silence, aborting the request.
 * - HTTP errors arrive as `ApiStatusError`, network failures as `TransportError`.
 * - Unsubscribing aborts the request in flight. Each subscription is its own request.
 *
 * Objects are handed over as parsed (not frozen): the store freezes what it keeps.
 *
 * @example
 * ```ts
 * const kc = new KubeConfig();
 * kc.loadFromDefault();
 * const lw = listWatch<V1Pod>(clientNodeTransport(kc), { group: '', version: 'v1', plural: 'pods', namespaced: true }, {
 *   namespace: 'default',
 *   labelSelector: 'app=web',
 * });
 * lw.list({ resourceVersion: '0', limit: 500 }).subscribe((page) => console.log(page.items.length));
 * lw.watch({ resourceVersion: '123', allowWatchBookmarks: true, timeoutSeconds: 300 }).subscribe((e) => console.log(e.type));
 * ```
 */
export function listWatch<T>(
  source: KubeConfig | Transport,
  resource: Resource,
  options: ListWatchOptions = {},
): ListWatch<T> {
  const transport = transportFor(source);
  const path = resourcePath(resource, options.namespace);
  const scheduler = options.scheduler ?? asyncScheduler;
  const marginMs = options.deadWatchMarginMs;
  const selectors: Record<string, string> = {};
  if (options.labelSelector) selectors['labelSelector'] = options.labelSelector;
  if (options.fieldSelector) selectors['fieldSelector'] = options.fieldSelector;
  if (options.shardSelector) selectors['shardSelector'] = options.shardSelector;

  const cut = dropsManagedFields(options.drop);
  const page$ = (query: Record<string, string>): Observable<ListPage<T>> =>
    streamRequest$(transport, path, query, options.accept?.list).pipe(
      reduce((parts: Uint8Array[], chunk) => (parts.push(chunk), parts), []),
      map((parts) => parseListPage<T>(parts, path, cut)),
    );

  return {
    list(listOptions: ListOptions): Observable<ListPage<T>> {
      const limit: Record<string, string> = listOptions.limit ? { limit: String(listOptions.limit) } : {};
      const first: Record<string, string> = { ...selectors, ...limit };
      if (listOptions.resourceVersion !== undefined) first['resourceVersion'] = listOptions.resourceVersion;
      if (listOptions.resourceVersionMatch) first['resourceVersionMatch'] = listOptions.resourceVersionMatch;
      // A continue token carries the list's RV: sending one too is a 400.
      return defer(() => {
        let sent = '';
        return page$(first).pipe(
          expand((page, i) => {
            if (!page.continue) return EMPTY;
            // A server that hands back the token it was sent (or never stops) would be paged for ever.
            if (page.continue === sent || i + 1 >= MAX_LIST_PAGES) {
              return throwError(() => endlessList(path, page.continue === sent, i + 1));
            }
            sent = page.continue;
            return page$({ ...selectors, ...limit, continue: page.continue });
          }),
        );
      });
    },

    watch(watchOptions: WatchOptions): Observable<WatchEvent<T>> {
      return watchBody$(watchOptions).pipe(decodeWatchEvents<T>(options.drop));
    },

    watchBursts(watchOptions: WatchOptions): Observable<ReadonlyArray<WatchEvent<T>>> {
      return watchBody$(watchOptions).pipe(decodeWatchBursts<T>(options.drop));
    },

    dropping(fields: ReadonlyArray<DroppableField>): ListWatch<T> {
      return listWatch<T>(source, resource, { ...options, drop: fields });
    },
  };

  /** The watch response body, chunk by chunk, with the dead-watch timer. */
  function watchBody$(watchOptions: WatchOptions): Observable<Uint8Array> {
    const query: Record<string, string> = { ...selectors, watch: 'true' };
    if (watchOptions.resourceVersion !== undefined) query['resourceVersion'] = watchOptions.resourceVersion;
    if (watchOptions.resourceVersionMatch) query['resourceVersionMatch'] = watchOptions.resourceVersionMatch;
    if (watchOptions.allowWatchBookmarks) query['allowWatchBookmarks'] = 'true';
    if (watchOptions.timeoutSeconds !== undefined)
      query['timeoutSeconds'] = String(watchOptions.timeoutSeconds);
    if (watchOptions.sendInitialEvents !== undefined)
      query['sendInitialEvents'] = String(watchOptions.sendInitialEvents);
    // The reflector detects dead watches itself (per burst, knowing of bookmarks): a second timer
    // here only when asked for, for users of the ListWatch on its own.
    const accept = options.accept?.watch;
    if (marginMs === undefined) return defer(() => streamRequest$(transport, path, query, accept));
    const silenceMs = (watchOptions.timeoutSeconds ?? defaultServerWatchTimeoutSeconds) * 1000 + marginMs;
    return defer(() =>
      streamRequest$(transport, path, query, accept).pipe(
        detectDeadWatch<Uint8Array>(silenceMs, scheduler, `watch ${path}`),
      ),
    );
  }
}

interface ListBody<T> {
  kind?: string;
  items?: T[] | null;
  metadata?: { resourceVersion?: string; continue?: string; remainingItemCount?: number; shardInfo?: { selector?: string } };
}

/** The list body's text: with each item's managedFields cut out when `cut` (and there are some). */
function listText(parts: Uint8Array[], cut: boolean): string {
  if (!cut) return decodeUtf8Parts(parts);
  const bytes = concatBytes(parts);
  return textWithout(bytes, 0, bytes.length, managedFieldsCuts(bytes, 0, bytes.length, 'list'));
}

function parseListPage<T>(parts: Uint8Array[], path: string, cut: boolean): ListPage<T> {
  // Cuts are made only in valid JSON: a body that fails here fails as it came.
  const text = listText(parts, cut);
  let body: ListBody<T>;
  try {
    body = JSON.parse(text) as ListBody<T>;
  } catch (err) {
    throw new RxkubeError(
      'MalformedResponseError',
      `GET ${path}: the list response is not JSON: ${text.slice(0, 120)}`,
      { cause: err },
    );
  }
  // Valid JSON that is no list must not pass as an empty one: a relist would empty the store.
  const problem = listBodyProblem(body);
  if (problem !== undefined) {
    throw new RxkubeError('MalformedResponseError', `GET ${path}: the list response is not a list (${problem}): ${text.slice(0, 120)}`);
  }
  const meta = body.metadata ?? {};
  const page: ListPage<T> = {
    items: body.items ?? [],
    resourceVersion: meta.resourceVersion === undefined ? '' : String(meta.resourceVersion),
    continue: meta.continue ?? '',
    ...(meta.remainingItemCount !== undefined ? { remainingItemCount: meta.remainingItemCount } : {}),
    ...(typeof body.kind === 'string' ? { kind: body.kind } : {}),
    ...(typeof meta.shardInfo?.selector === 'string' ? { shardInfo: { selector: meta.shardInfo.selector } } : {}),
  };
  return page;
}

/** What makes a parsed list body no list (`items` an array, or null; metadata strings), if anything. */
function listBodyProblem(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return `a JSON ${body === null ? 'null' : Array.isArray(body) ? 'array' : typeof body}`;
  const { items, metadata } = body as { items?: unknown; metadata?: unknown };
  if (items === undefined) return 'no items';
  if (items !== null && !Array.isArray(items)) return 'items is not an array';
  if (metadata === undefined || metadata === null) return undefined;
  if (typeof metadata !== 'object' || Array.isArray(metadata)) return 'metadata is not an object';
  const { resourceVersion, continue: token } = metadata as { resourceVersion?: unknown; continue?: unknown };
  if (resourceVersion !== undefined && typeof resourceVersion !== 'string' && typeof resourceVersion !== 'number') return 'metadata.resourceVersion is not a string';
  if (token !== undefined && typeof token !== 'string') return 'metadata.continue is not a string';
  return undefined;
}

/** The most pages one list follows: 100,000 pages is 50 million objects at the reflector's 500. */
const MAX_LIST_PAGES = 100_000;

function endlessList(path: string, repeated: boolean, pages: number): RxkubeError {
  return new RxkubeError(
    'MalformedResponseError',
    repeated
      ? `GET ${path}: the server sent back the continue token it was given (page ${pages + 1}); the list would never end`
      : `GET ${path}: the list still had more after ${pages} pages; given up`,
  );
}
