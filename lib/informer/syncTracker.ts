import type { Notification } from './notification.js';

/**
 * Whether one handler has synced (client-go's `synctrack.SingleFileTracker`): the informer has
 * synced (`upstreamSynced`), and every notification of the initial list given to this handler has
 * been delivered to it (`pending` counts those given and not yet delivered or dropped). `synced`
 * latches: once true it stays true.
 *
 * Plain data; each function returns the next tracker (the same one when nothing changed).
 *
 * @internal
 * @example
 * ```ts
 * let t = initialSyncTracker;
 * t = trackStart(t, addNotification(pod, true)); // pending 1
 * t = trackUpstreamSynced(t);
 * t = trackFinished(t, addNotification(pod, true));
 * t = settleSync(t, false); // t.synced === true
 * ```
 */
export interface SyncTracker {
  readonly upstreamSynced: boolean;
  readonly pending: number;
  readonly synced: boolean;
}

/** Nothing given yet, the informer not synced. */
export const initialSyncTracker: SyncTracker = Object.freeze({
  upstreamSynced: false,
  pending: 0,
  synced: false,
});

/** Whether a notification counts towards the handler's sync: an add of the initial list. */
export function isInitial<T>(n: Notification<T>): boolean {
  return n.type === 'add' && n.isInInitialList;
}

/** A notification was given to the handler (client-go's `Start` for an initial-list add). */
export function trackStart<T>(t: SyncTracker, n: Notification<T>): SyncTracker {
  return t.synced || !isInitial(n)
    ? t
    : { upstreamSynced: t.upstreamSynced, pending: t.pending + 1, synced: false };
}

/** A notification was delivered, or dropped (client-go's `Finished` for an initial-list add). */
export function trackFinished<T>(t: SyncTracker, n: Notification<T>): SyncTracker {
  return t.synced || !isInitial(n) ? t : trackDropped(t, 1);
}

/** `count` initial-list notifications were dropped (a `dropAndResync` overflow): finished too. */
export function trackDropped(t: SyncTracker, count: number): SyncTracker {
  if (t.synced || count === 0) return t;
  return { upstreamSynced: t.upstreamSynced, pending: Math.max(0, t.pending - count), synced: false };
}

/** The informer has synced (the batch that synced it has been given to this handler). */
export function trackUpstreamSynced(t: SyncTracker): SyncTracker {
  return t.upstreamSynced ? t : { upstreamSynced: true, pending: t.pending, synced: false };
}

/**
 * Latches `synced` when the informer has synced and nothing of the initial list is pending.
 * `replaying`: a replay is still bringing the handler up to date (its adds are produced one at a
 * time, so they are not counted in `pending`); the handler is not synced before it ends.
 */
export function settleSync(t: SyncTracker, replaying: boolean): SyncTracker {
  if (t.synced || !t.upstreamSynced || t.pending > 0 || replaying) return t;
  return { upstreamSynced: true, pending: 0, synced: true };
}
