import { catchError, defer, map, Observable, reduce, throwError } from 'rxjs';
import type { ListOptions, ListWatch } from '../listwatch/listWatch.js';
import { isExpiredError } from './errorClassification.js';

/**
 * A whole list: every page's items, in order, and the list's resourceVersion.
 *
 * @example
 * ```ts
 * const { items, resourceVersion, paginated } = result;
 * ```
 */
export interface ListResult<T> {
  readonly items: ReadonlyArray<T>;
  readonly resourceVersion: string;
  /** More than one page came back (the server honours `limit`). */
  readonly paginated: boolean;
}

/**
 * Lists everything (following `continue` pages through the ListWatch) and emits one
 * {@link ListResult}. Like client-go's pager with `FullListIfExpired`: if a continue page (not the
 * first page) fails with 410 Expired, the token outlived the compaction window, so it lists once
 * more at the same RV without a limit.
 *
 * ```text
 * lw.list({rv:'10', limit:2}):  -p1--X(410)
 * lw.list({rv:'10'}):                    --P|
 * listAll:                      ----------R|    R = { items: P.items, resourceVersion: P.resourceVersion }
 * ```
 *
 * @example
 * ```ts
 * listAll(lw, { resourceVersion: '0', limit: 500 }).subscribe(({ items }) => console.log(items.length));
 * ```
 */
export function listAll<T>(lw: ListWatch<T>, options: ListOptions): Observable<ListResult<T>> {
  return defer(() => {
    // Pages seen across both attempts: after a fallback the result still counts as paginated.
    let pages = 0;
    const collect = (opts: ListOptions): Observable<ListResult<T>> =>
      lw.list(opts).pipe(
        reduce(
          (acc, page) => {
            pages++;
            for (const item of page.items) acc.items.push(item);
            acc.resourceVersion = page.resourceVersion;
            return acc;
          },
          { items: [] as T[], resourceVersion: '' },
        ),
        map((acc) => ({ items: acc.items, resourceVersion: acc.resourceVersion, paginated: pages > 1 })),
      );
    return collect(options).pipe(
      catchError((err: unknown) => {
        const onContinuePage = pages > 0 && (options.limit ?? 0) > 0;
        if (!isExpiredError(err) || !onContinuePage) return throwError(() => err);
        return collect({ resourceVersion: options.resourceVersion ?? '' });
      }),
    );
  });
}
