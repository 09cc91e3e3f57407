import type { SchedulerLike } from 'rxjs';
import type { BackoffOptions } from './backoff.js';

/**
 * The annotation on the bookmark that ends a streaming list's initial events.
 *
 * @example
 * ```ts
 * const done = bookmark.metadata?.annotations?.[initialEventsEndAnnotation] === 'true';
 * ```
 */
export const initialEventsEndAnnotation = 'k8s.io/initial-events-end';

/**
 * Options of {@link reflector}. All optional; the defaults are client-go's.
 *
 * @example
 * ```ts
 * const options: ReflectorOptions = { pageSize: 100, useWatchList: true, backoff: { initialMs: 10, capMs: 100 } };
 * ```
 */
export interface ReflectorOptions {
  /**
   * Page size of lists. Unset: lists at `""`/`"0"` page by 500 and lists at a specific RV send no
   * limit, unless the first list came back paged (client-go's `WatchListPageSize` unset). Set: every
   * list pages by this.
   */
  readonly pageSize?: number;
  /** Start each ListAndWatch with a streaming list (watch-list); falls back to list+watch on error. Default false. */
  readonly useWatchList?: boolean;
  /** The scheduler of every timer (backoff, dead-watch detection, the 1 s short-watch rule). Default `asyncScheduler`. */
  readonly scheduler?: SchedulerLike;
  /** Backoff settings; default 800 ms, x2, jitter 1.0, cap 30 s, reset after 2 min. */
  readonly backoff?: BackoffOptions;
  /** Watches ask for `timeoutSeconds` in `[min, 2 * min)`. Default 300. (client-go will not go under 300; rxkube lets tests.) */
  readonly minWatchTimeoutSeconds?: number;
  /**
   * A watch silent for its `timeoutSeconds` plus this is declared dead and replaced; with bookmarks
   * asked for, already when silent for {@link ReflectorOptions.expectedBookmarkIntervalMs} plus this.
   * Default 10.
   */
  readonly deadWatchGraceSeconds?: number;
  /**
   * How often the server sends a BOOKMARK on a watch that asks for them (kube-apiserver: about once
   * a minute, and 2 s before the watch's timeout). A watch with bookmarks that is silent for this
   * plus `deadWatchGraceSeconds` is dead (a proxy that stopped forwarding, a half-open connection)
   * and replaced, long before its timeout. Default 60 000; `0` does not rely on bookmarks (a server
   * or proxy that drops them), leaving the bound at `timeoutSeconds` plus the grace.
   */
  readonly expectedBookmarkIntervalMs?: number;
  /** The random source of the watch timeout and the backoff jitter, in `[0, 1)`. Default `Math.random`. */
  readonly random?: () => number;
  /** The type's name in messages, e.g. `Pod` or `apps/v1 Deployment`. Default `<unspecified>`. */
  readonly expectedTypeName?: string;
}

/**
 * kube-apiserver's bookmark frequency on watches that ask for bookmarks: about once a minute.
 *
 * @example
 * ```ts
 * reflector(lw, { expectedBookmarkIntervalMs: defaultExpectedBookmarkIntervalMs / 2 });
 * ```
 */
export const defaultExpectedBookmarkIntervalMs = 60_000;
