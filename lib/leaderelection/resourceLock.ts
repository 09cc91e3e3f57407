import type { Observable } from 'rxjs';
import type { LeaderElectionRecord, VersionedRecord } from './leaderElectionRecord.js';

/**
 * The object an elector locks (client-go's `resourcelock.Interface`): read the record, create it,
 * or update it optimistically. Each call is a cold Observable of one value: subscribing sends the
 * request, unsubscribing aborts it (an elector gives up an attempt at its deadline this way).
 *
 * - `get` emits `undefined` when the object does not exist (a 404).
 * - `create` errors with {@link LeaseConflictError} when the object exists (a 409: someone else
 *   created it first).
 * - `update` is conditional on `resourceVersion` and errors with {@link LeaseConflictError} when it
 *   is stale (a 409: someone else wrote first): a lost race, which the elector treats as a failed
 *   attempt, not as an error.
 *
 * rxkube ships {@link leaseLock} (coordination.k8s.io/v1 Leases) and, in `rxkube/testing`,
 * `memoryLeaseStore` (an in-memory lock for virtual-time tests).
 *
 * @example
 * ```ts
 * const lock: ResourceLock = leaseLock(kubeConfig, 'kube-system', 'my-controller');
 * lock.get().subscribe((v) => console.log(v ? v.record.holderIdentity : 'no lease yet'));
 * ```
 */
export interface ResourceLock {
  /** `namespace/name`, for messages. */
  describe(): string;
  get(): Observable<VersionedRecord | undefined>;
  create(record: LeaderElectionRecord): Observable<VersionedRecord>;
  update(record: LeaderElectionRecord, resourceVersion: string): Observable<VersionedRecord>;
}
