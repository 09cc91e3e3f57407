import type { CrdReadiness } from './crdReadiness.js';

/**
 * Where an informer that follows its CRD is (see `followCrd`):
 * - `waitingForCrd`: never ran yet; `reason` says why (`unknown` until the CRD informer has synced).
 * - `running`: the CRD is established and serves the version; the informer lists and watches.
 * - `crdRemoved`: it ran, then the CRD went away (deleted, no longer established, or the version
 *   no longer served, as `reason` says); its informer is stopped and its store dropped. It runs
 *   again, with a new informer, when the CRD is back.
 *
 * @example
 * ```ts
 * const s: CrdFollowStatus = { phase: 'waitingForCrd', reason: 'absent' };
 * ```
 */
export type CrdFollowStatus =
  | { readonly phase: 'waitingForCrd'; readonly reason: 'unknown' | Exclude<CrdReadiness, 'ready'> }
  | { readonly phase: 'running' }
  | { readonly phase: 'crdRemoved'; readonly reason: Exclude<CrdReadiness, 'ready'> };

/** The status before anything is known. */
export const initialCrdFollowStatus: CrdFollowStatus = Object.freeze({ phase: 'waitingForCrd', reason: 'unknown' });

/**
 * The next status from the previous one and the CRD's readiness (pure): ready runs; not ready
 * waits, or is `crdRemoved` once it has run.
 *
 * ```text
 * waitingForCrd --ready--> running --not ready--> crdRemoved --ready--> running
 * ```
 *
 * @example
 * ```ts
 * nextCrdFollowStatus({ phase: 'running' }, 'absent'); // { phase: 'crdRemoved', reason: 'absent' }
 * ```
 */
export function nextCrdFollowStatus(previous: CrdFollowStatus, readiness: CrdReadiness): CrdFollowStatus {
  if (readiness === 'ready') return { phase: 'running' };
  return previous.phase === 'waitingForCrd' ? { phase: 'waitingForCrd', reason: readiness } : { phase: 'crdRemoved', reason: readiness };
}

/** Whether two statuses say the same. */
export const sameCrdFollowStatus = (a: CrdFollowStatus, b: CrdFollowStatus): boolean =>
  a.phase === b.phase && (a.phase === 'running' || a.reason === (b as { reason?: string }).reason);
