import type { ListOptions } from '../listwatch/listWatch.js';

/**
 * What the reflector remembers between lists and watches to choose the next request's RV
 * (client-go's `lastSyncResourceVersion`, `isLastSyncResourceVersionUnavailable`, `paginatedResult`).
 *
 * @example
 * ```ts
 * const fresh: ResourceVersionState = { lastSyncResourceVersion: '', unavailable: false, paginatedResult: false };
 * ```
 */
export interface ResourceVersionState {
  /** The RV of the last list, or of the last watch event applied. `''` before the first list. */
  readonly lastSyncResourceVersion: string;
  /** The last list or watch at `lastSyncResourceVersion` failed with "expired" or "too large resource version". */
  readonly unavailable: boolean;
  /** The first list (at RV `"0"`) came back in several pages: the server pages, so keep paging. */
  readonly paginatedResult: boolean;
}

/**
 * The default page size of a list (client-go's `pager.PageSize`).
 *
 * @example
 * ```ts
 * lw.list({ resourceVersion: '0', limit: defaultPageSize });
 * ```
 */
export const defaultPageSize = 500;

/**
 * The RV to list at (client-go's `relistResourceVersion`): `"0"` for the first list (served from
 * the watch cache), `""` (a consistent read) after an expired or too-large RV, otherwise the last
 * RV seen, so that a relist never goes back in time.
 *
 * | state | RV |
 * |---|---|
 * | nothing listed yet | `"0"` |
 * | last RV unavailable (410 / too large) | `""` |
 * | otherwise | `lastSyncResourceVersion` |
 *
 * @example
 * ```ts
 * relistResourceVersion({ lastSyncResourceVersion: '10', unavailable: false, paginatedResult: false }); // '10'
 * ```
 */
export function relistResourceVersion(state: ResourceVersionState): string {
  if (state.unavailable) return '';
  if (state.lastSyncResourceVersion === '') return '0';
  return state.lastSyncResourceVersion;
}

/**
 * The RV to start a streaming list (watch-list) at (client-go's `rewatchResourceVersion`): `""`
 * for the first one or after an unavailable RV (a consistent snapshot), else the last RV seen.
 *
 * @example
 * ```ts
 * rewatchResourceVersion({ lastSyncResourceVersion: '', unavailable: false, paginatedResult: false }); // ''
 * ```
 */
export function rewatchResourceVersion(state: ResourceVersionState): string {
  return state.unavailable ? '' : state.lastSyncResourceVersion;
}

/**
 * The options of a list at `resourceVersion` (client-go's choice of `pager.PageSize`): an explicit
 * `pageSize` always pages; otherwise a list at `""` or `"0"` pages by 500, and a list at a specific
 * RV sends no `limit` (so the watch cache can serve it) unless the first list came back paged.
 *
 * @example
 * ```ts
 * listOptionsFor('0', undefined, fresh);  // { resourceVersion: '0', limit: 500 }
 * listOptionsFor('10', undefined, fresh); // { resourceVersion: '10' }
 * ```
 */
export function listOptionsFor(
  resourceVersion: string,
  pageSize: number | undefined,
  state: ResourceVersionState,
): ListOptions {
  let limit: number;
  if (pageSize !== undefined && pageSize > 0) limit = pageSize;
  else if (state.paginatedResult || resourceVersion === '' || resourceVersion === '0')
    limit = defaultPageSize;
  else limit = 0;
  return limit > 0 ? { resourceVersion, limit } : { resourceVersion };
}

/**
 * A resource version the reflector may move to: a non-empty string from the server. An object or
 * bookmark without one (no metadata) leaves the last RV as it is, since a re-watch from `''` would
 * start from "now" and lose every change in between, deletions included.
 *
 * @example
 * ```ts
 * isValidResourceVersion('42'); // true
 * isValidResourceVersion(undefined); // false
 * isValidResourceVersion(''); // false
 * ```
 */
export function isValidResourceVersion(rv: unknown): rv is string {
  return typeof rv === 'string' && rv !== '';
}
