import type { Status } from '../errors.js';

/**
 * One event of a watch stream, as the API server sent it. `ERROR` carries a `Status` (410 Expired,
 * 500, ...); the server closes the stream after it.
 *
 * @example
 * ```ts
 * listWatch.watch({ resourceVersion: '10' }).pipe(filter((e) => e.type !== 'BOOKMARK'));
 * ```
 */
export type WatchEvent<T> =
  | { readonly type: 'ADDED' | 'MODIFIED' | 'DELETED'; readonly object: T }
  | { readonly type: 'BOOKMARK'; readonly object: T }
  | { readonly type: 'ERROR'; readonly object: Status };
