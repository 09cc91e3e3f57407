/**
 * When one handler's periodic resync is next due, and whether it was due at its last look
 * (client-go's `nextResync` and `syncingListeners`): a handler `syncing` also takes a relist's
 * unchanged objects until its next look (I3).
 *
 * @internal
 * @example
 * ```ts
 * let s = resyncSchedule(scheduler.now(), 30_000);
 * s = resyncLook(s, scheduler.now(), 30_000); // s.syncing: whether to replay the snapshot now
 * ```
 */
export interface ResyncSchedule {
  readonly nextResync: number;
  readonly syncing: boolean;
}

/** A handler's schedule, made at `now` for `period` (ms, 0 = never). @internal */
export function resyncSchedule(now: number, period: number): ResyncSchedule {
  return { nextResync: now + period, syncing: false };
}

/**
 * One look of the handler's resync timer (client-go's `shouldResync`): due when its period has
 * elapsed (period 0 never is); then the next one is `period` from now.
 *
 * @internal
 */
export function resyncLook(s: ResyncSchedule, now: number, period: number): ResyncSchedule {
  const due = period !== 0 && now >= s.nextResync;
  if (due) return { nextResync: now + period, syncing: true };
  return s.syncing ? { nextResync: s.nextResync, syncing: false } : s;
}
