/**
 * What a lock holds, in client-go's terms (`resourcelock.LeaderElectionRecord`): who holds the
 * lease, for how long, since when, and how many times it changed hands. Times are epoch
 * milliseconds of the WRITER's clock: they are kept and shown, never compared with the reader's
 * clock (expiry is judged from the reader's own observation time).
 *
 * @example
 * ```ts
 * const record: LeaderElectionRecord = {
 *   holderIdentity: 'pod-a', leaseDurationSeconds: 15, acquireTime: Date.now(), renewTime: Date.now(), leaderTransitions: 0,
 * };
 * ```
 */
export interface LeaderElectionRecord {
  /** The holder; `''` when nobody holds it (released). */
  readonly holderIdentity: string;
  readonly leaseDurationSeconds: number;
  /** Epoch ms (the holder's clock) when the holder acquired it. */
  readonly acquireTime: number;
  /** Epoch ms (the holder's clock) of the holder's last renewal. */
  readonly renewTime: number;
  /** The Lease's `leaseTransitions`: +1 each time another identity takes it over. */
  readonly leaderTransitions: number;
}

/**
 * A record as read from (or written to) the lock, with what an optimistic update needs: the
 * resource version it was read at, and `raw`, the serialised record an elector compares to notice
 * a change (client-go's `observedRawRecord`).
 *
 * @example
 * ```ts
 * lock.get().subscribe((v: VersionedRecord | undefined) => console.log(v?.record.holderIdentity, v?.resourceVersion));
 * ```
 */
export interface VersionedRecord {
  readonly record: LeaderElectionRecord;
  readonly resourceVersion: string;
  readonly raw: string;
}

/**
 * The canonical serialisation of a record, compared byte for byte to notice a change.
 *
 * @example
 * ```ts
 * rawRecord(a) === rawRecord(b); // the same holder, times and transitions
 * ```
 */
export function rawRecord(record: LeaderElectionRecord): string {
  return JSON.stringify([
    record.holderIdentity,
    record.leaseDurationSeconds,
    record.acquireTime,
    record.renewTime,
    record.leaderTransitions,
  ]);
}

/**
 * The `spec` of a coordination.k8s.io/v1 Lease, as far as leader election uses it.
 *
 * @example
 * ```ts
 * const spec: LeaseSpec = { holderIdentity: 'pod-a', leaseDurationSeconds: 15, renewTime: '2026-11-23T20:41:00.123000Z' };
 * ```
 */
export interface LeaseSpec {
  holderIdentity?: string;
  leaseDurationSeconds?: number;
  acquireTime?: string;
  renewTime?: string;
  leaseTransitions?: number;
  /** Coordinated leader election's fields: not used here, kept as read on update. */
  preferredHolder?: string;
  strategy?: string;
}

/**
 * A Lease's spec as a record (client-go's `LeaseSpecToLeaderElectionRecord`): absent fields are
 * zero; MicroTime strings become epoch ms (0 when absent or unreadable).
 *
 * @example
 * ```ts
 * leaseSpecToRecord({ holderIdentity: 'a', leaseDurationSeconds: 15 }).leaderTransitions; // 0
 * ```
 */
export function leaseSpecToRecord(spec: LeaseSpec | undefined): LeaderElectionRecord {
  const time = (t: string | undefined): number => {
    const ms = t ? Date.parse(t) : NaN;
    return Number.isFinite(ms) ? ms : 0;
  };
  return {
    holderIdentity: spec?.holderIdentity ?? '',
    leaseDurationSeconds: spec?.leaseDurationSeconds ?? 0,
    acquireTime: time(spec?.acquireTime),
    renewTime: time(spec?.renewTime),
    leaderTransitions: spec?.leaseTransitions ?? 0,
  };
}

/**
 * A record as a Lease spec (client-go's `LeaderElectionRecordToLeaseSpec`): times as MicroTime
 * (RFC 3339 with microseconds), an empty holder written as `''` as client-go does.
 *
 * @example
 * ```ts
 * recordToLeaseSpec(record).renewTime; // '2026-11-23T20:41:00.123000Z'
 * ```
 */
export function recordToLeaseSpec(record: LeaderElectionRecord): LeaseSpec {
  return {
    holderIdentity: record.holderIdentity,
    leaseDurationSeconds: record.leaseDurationSeconds,
    acquireTime: microTime(record.acquireTime),
    renewTime: microTime(record.renewTime),
    leaseTransitions: record.leaderTransitions,
  };
}

/** Epoch ms as a Kubernetes MicroTime: `2026-11-23T20:41:00.123000Z`. */
function microTime(ms: number): string {
  return new Date(ms).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}
