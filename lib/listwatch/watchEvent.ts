import type { Status } from '../errors.js';
import type { MalformedWatchEventError } from './malformedWatchEventError.js';

/**
 * One event of a watch stream, as the API server sent it. `ERROR` carries a `Status` (410 Expired,
 * 500, ...); the server closes the stream after it. `MALFORMED` is rxkube's own: a line of the
 * stream that was not a watch event (bad JSON, no `type`/`object`); the stream goes on after it,
 * but the event that line held is lost (a cache should relist).
 *
 * @example
 * ```ts
 * listWatch.watch({ resourceVersion: '10' }).pipe(filter((e) => e.type !== 'BOOKMARK'));
 * ```
 */
export type WatchEvent<T> =
  | { readonly type: 'ADDED' | 'MODIFIED' | 'DELETED'; readonly object: T }
  | { readonly type: 'BOOKMARK'; readonly object: T }
  | { readonly type: 'ERROR'; readonly object: Status }
  | { readonly type: 'MALFORMED'; readonly line: string; readonly error: MalformedWatchEventError };
