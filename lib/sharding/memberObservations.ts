import type { Lease } from '../leaderelection/leaseLock.js';
import { leaseSpecToRecord, rawRecord } from '../leaderelection/leaderElectionRecord.js';

/**
 * What a replica knows of one membership Lease: its holder, the leaseDurationSeconds it was
 * written with, and when THIS replica saw its record last change (its own clock; the holder's
 * renewTime is never compared with it).
 *
 * @example
 * ```ts
 * const o: MemberObservation = { holder: 'replica-a', raw: '...', observedAt: 1000, leaseDurationMs: 15_000 };
 * ```
 */
export interface MemberObservation {
  readonly holder: string;
  readonly raw: string;
  readonly observedAt: number;
  readonly leaseDurationMs: number;
}

/**
 * Observations by Lease name.
 *
 * @example
 * ```ts
 * const none: MemberObservations = new Map();
 * ```
 */
export type MemberObservations = ReadonlyMap<string, MemberObservation>;

/**
 * Folds a snapshot of the membership Leases into the observations: a Lease whose record changed
 * is observed now; an unchanged one keeps its time; a deleted one is forgotten.
 *
 * @example
 * ```ts
 * let obs: MemberObservations = new Map();
 * obs = observeMembers(obs, leases, scheduler.now());
 * ```
 */
export function observeMembers(prev: MemberObservations, leases: ReadonlyArray<Lease>, now: number): MemberObservations {
  const next = new Map<string, MemberObservation>();
  for (const lease of leases) {
    const name = lease.metadata?.name;
    if (!name) continue;
    const record = leaseSpecToRecord(lease.spec);
    const raw = rawRecord(record);
    const old = prev.get(name);
    next.set(
      name,
      old && old.raw === raw
        ? old
        : { holder: record.holderIdentity, raw, observedAt: now, leaseDurationMs: record.leaseDurationSeconds * 1000 },
    );
  }
  return next;
}

/**
 * The live members: holders of Leases not expired by this replica's own observation
 * (`observedAt + leaseDuration > now`), released ones (empty holder) excluded; sorted, distinct.
 *
 * @example
 * ```ts
 * liveMembers(obs, scheduler.now()); // ['replica-a', 'replica-c']
 * ```
 */
export function liveMembers(obs: MemberObservations, now: number): ReadonlyArray<string> {
  const live = new Set<string>();
  for (const o of obs.values()) if (o.holder !== '' && o.observedAt + o.leaseDurationMs > now) live.add(o.holder);
  return [...live].sort();
}

/**
 * When the next live member expires (if nothing changes before), to re-evaluate then.
 *
 * @example
 * ```ts
 * const at = nextMemberExpiry(obs, now); // schedule a re-evaluation at `at`
 * ```
 */
export function nextMemberExpiry(obs: MemberObservations, now: number): number | undefined {
  let next: number | undefined;
  for (const o of obs.values()) {
    const at = o.observedAt + o.leaseDurationMs;
    if (o.holder !== '' && at > now && (next === undefined || at < next)) next = at;
  }
  return next;
}
