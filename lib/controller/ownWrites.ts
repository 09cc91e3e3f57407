import { compareResourceVersions } from '../meta/compareResourceVersions.js';
import type { KubeObjectLike } from '../meta/kubeObject.js';

/**
 * One write a controller made that the next reconcile of its key waits for: the object `key` in
 * the controller's informer number `cache` (0 is the primary), the `resourceVersion` the server
 * returned, the version that informer held when the write was recorded (`before`, for servers
 * whose versions are not comparable), and whether it was a deletion.
 *
 * @example
 * ```ts
 * const w: AwaitedWrite = { cache: 0, key: 'ns/web', uid: 'u1', resourceVersion: '42', before: '41', deleted: false };
 * ```
 */
export interface AwaitedWrite {
  readonly cache: number;
  readonly key: string;
  readonly uid?: string;
  readonly resourceVersion?: string;
  readonly before?: string;
  readonly deleted: boolean;
}

/**
 * What an informer shows of an awaited write's object now: the object at its key (or nothing) and
 * the informer's last synced resource version.
 *
 * @example
 * ```ts
 * const reading: CacheReading = { object: undefined, lastSyncResourceVersion: '57' };
 * ```
 */
export interface CacheReading {
  readonly object: KubeObjectLike | undefined;
  readonly lastSyncResourceVersion?: string;
}

/**
 * Whether an informer has seen a write (read-your-own-writes):
 * - a deletion: once the object is gone from the cache, replaced by another (new uid), or shown
 *   with a deletionTimestamp (finalizers still pending);
 * - otherwise, with comparable versions (KEP-5504, Kubernetes >= 1.35): once the cached version
 *   is at or past the written one, or the informer synced past it without the object (deleted
 *   since: it will never show it);
 * - otherwise (versions not decimal integers: older servers): once the cached version is the
 *   written one, or differs from the one cached when the write was recorded (or nothing was cached
 *   then and something is now).
 *
 * @example
 * ```ts
 * isWriteSeen({ cache: 0, key: 'ns/a', resourceVersion: '42', deleted: false }, { object: cachedA }); // cachedA's version >= 42
 * ```
 */
export function isWriteSeen(write: AwaitedWrite, reading: CacheReading): boolean {
  const cached = reading.object;
  const cachedVersion = cached?.metadata?.resourceVersion;
  if (write.deleted) {
    if (cached === undefined) return true;
    const uid = cached.metadata?.uid;
    if (uid !== undefined && write.uid !== undefined && uid !== write.uid) return true;
    return (cached.metadata as { deletionTimestamp?: unknown } | undefined)?.deletionTimestamp != null;
  }
  const written = write.resourceVersion;
  if (cached === undefined) {
    const synced = compareResourceVersions(reading.lastSyncResourceVersion, written);
    return synced !== undefined && synced >= 0;
  }
  const order = compareResourceVersions(cachedVersion, written);
  if (order !== undefined) return order >= 0;
  if (written !== undefined && cachedVersion === written) return true;
  if (write.before !== undefined) return cachedVersion !== write.before;
  // Nothing was cached when it was written (a create), and something is now; or nothing to compare.
  return true;
}

/**
 * A key's wait for its own writes before its next reconcile: `waiting` for `pending` since
 * `since` (scheduler ms), then `caughtUp` (every write seen) or `timedOut` (the bound passed; the
 * writes never seen are kept in `pending` for the report).
 *
 * @example
 * ```ts
 * const s: OwnWritesWait = { kind: 'caughtUp', waitedMs: 3 };
 * ```
 */
export type OwnWritesWait =
  | { readonly kind: 'waiting'; readonly pending: ReadonlyArray<AwaitedWrite>; readonly since: number }
  | { readonly kind: 'caughtUp'; readonly waitedMs: number }
  | { readonly kind: 'timedOut'; readonly pending: ReadonlyArray<AwaitedWrite>; readonly waitedMs: number };

/**
 * What moves a wait: a `check` (the informers may have moved: read them through `read`) or the
 * `timeout`.
 *
 * @example
 * ```ts
 * const e: OwnWritesEvent = { type: 'timeout', now: 5000 };
 * ```
 */
export type OwnWritesEvent =
  | { readonly type: 'check'; readonly now: number; readonly read: (write: AwaitedWrite) => CacheReading }
  | { readonly type: 'timeout'; readonly now: number };

/**
 * The step of {@link OwnWritesWait}: a check drops the writes now seen (caught up when none is
 * left); the timeout ends the wait with what is left. A finished wait stays as it is.
 *
 * @example
 * ```ts
 * ownWritesStep({ kind: 'waiting', pending: [], since: 0 }, { type: 'timeout', now: 10 }); // timedOut
 * ```
 */
export function ownWritesStep(state: OwnWritesWait, event: OwnWritesEvent): OwnWritesWait {
  if (state.kind !== 'waiting') return state;
  const waitedMs = event.now - state.since;
  if (event.type === 'timeout') return { kind: 'timedOut', pending: state.pending, waitedMs };
  const pending = state.pending.filter((w) => !isWriteSeen(w, event.read(w)));
  if (pending.length === 0) return { kind: 'caughtUp', waitedMs };
  return pending.length === state.pending.length ? state : { kind: 'waiting', pending, since: state.since };
}
