import type { KubeConfig } from '@kubernetes/client-node';
import { can, declarePermissions } from '../rbac/permission.js';
import { catchError, map, of, throwError, type Observable } from 'rxjs';
import { ApiStatusError } from '../errors.js';
import { jsonRequest$ } from '../transport/jsonRequest.js';
import { transportFor } from '../transport/kubeConfigTransport.js';
import type { Transport } from '../transport/transport.js';
import { LeaseConflictError } from './leaderElectionErrors.js';
import {
  leaseSpecToRecord,
  rawRecord,
  recordToLeaseSpec,
  type LeaderElectionRecord,
  type LeaseSpec,
  type VersionedRecord,
} from './leaderElectionRecord.js';
import type { ResourceLock } from './resourceLock.js';
import { attachLifetime, lifetimeOf } from '../meta/lifetime.js';

/**
 * A coordination.k8s.io/v1 Lease as the lock reads and writes it.
 *
 * @example
 * ```ts
 * const lease: Lease = { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: 'a', namespace: 'default' }, spec: {} };
 * ```
 */
export interface Lease {
  apiVersion?: string;
  kind?: string;
  metadata?: {
    name?: string;
    namespace?: string;
    resourceVersion?: string;
    labels?: { [key: string]: string };
    [key: string]: unknown;
  };
  spec?: LeaseSpec;
}

/**
 * Options of {@link leaseLock}.
 *
 * @example
 * ```ts
 * const options: LeaseLockOptions = { labels: { 'rxkube.io/controller': 'my-controller' } };
 * ```
 */
export interface LeaseLockOptions {
  /** Labels the lock sets on the Lease on create and re-applies on every update (client-go's LeaseLock.Labels); other labels are kept. */
  readonly labels?: { readonly [key: string]: string };
}

/**
 * The REST path of Leases in a namespace (or of one Lease).
 *
 * @example
 * ```ts
 * leasePath('kube-system', 'my-controller'); // '/apis/coordination.k8s.io/v1/namespaces/kube-system/leases/my-controller'
 * ```
 */
export function leasePath(namespace: string, name?: string): string {
  const base = `/apis/coordination.k8s.io/v1/namespaces/${encodeURIComponent(namespace)}/leases`;
  return name === undefined ? base : `${base}/${encodeURIComponent(name)}`;
}

/**
 * The versioned record of a Lease read from the server.
 *
 * @example
 * ```ts
 * const v = versionedLease({ metadata: { resourceVersion: '7' }, spec: { holderIdentity: 'a' } });
 * v.record.holderIdentity; // 'a'
 * ```
 */
export function versionedLease(lease: Lease): VersionedRecord {
  const record = leaseSpecToRecord(lease.spec);
  return { record, resourceVersion: lease.metadata?.resourceVersion ?? '', raw: rawRecord(record) };
}

/**
 * client-go's `LeaseLock`: a {@link ResourceLock} on the coordination.k8s.io/v1 Lease
 * `namespace/name`, spoken over rxkube's transport (the client-node transport for a `KubeConfig`:
 * its authentication, TLS and proxies; or any {@link Transport}, e.g. `fetchTransport` in a
 * browser). Updates are PUTs of the Lease last read with its resourceVersion (a 409 is a
 * {@link LeaseConflictError}); everything but the spec's leader fields (other labels, annotations,
 * owner references) is kept as read.
 *
 * @example
 * ```ts
 * const lock = leaseLock(kubeConfig, 'kube-system', 'my-controller');
 * const elector = leaderElection({ lock, identity: process.env.POD_NAME ?? 'local' });
 * ```
 */
export function leaseLock(source: KubeConfig | Transport, namespace: string, name: string, options: LeaseLockOptions = {}): ResourceLock {
  const transport = transportFor(source);
  const lifetime = lifetimeOf(source);
  const path = leasePath(namespace, name);
  let last: Lease | undefined;
  const keep = (lease: unknown): VersionedRecord => {
    last = lease as Lease;
    return versionedLease(last);
  };
  const conflictAs = (operation: 'create' | 'update') =>
    catchError<VersionedRecord, Observable<never>>((e: unknown) =>
      throwError(() => (e instanceof ApiStatusError && e.statusCode === 409 ? new LeaseConflictError(`${namespace}/${name}`, operation) : e)),
    );
  const labels = options.labels ?? {};
  const lock = attachLifetime<ResourceLock>({
    describe: () => `${namespace}/${name}`,
    get(): Observable<VersionedRecord | undefined> {
      return jsonRequest$(transport, 'GET', path).pipe(
        map(keep),
        catchError((e: unknown) => (e instanceof ApiStatusError && e.statusCode === 404 ? of(undefined) : throwError(() => e))),
      );
    },
    create(record: LeaderElectionRecord): Observable<VersionedRecord> {
      const lease: Lease = {
        apiVersion: 'coordination.k8s.io/v1',
        kind: 'Lease',
        metadata: { name, namespace, ...(Object.keys(labels).length ? { labels: { ...labels } } : {}) },
        spec: recordToLeaseSpec(record),
      };
      return jsonRequest$(transport, 'POST', leasePath(namespace), lease).pipe(map(keep), conflictAs('create'));
    },
    update(record: LeaderElectionRecord, resourceVersion: string): Observable<VersionedRecord> {
      const base: Lease = last ?? { metadata: { name, namespace } };
      const lease: Lease = {
        ...base,
        apiVersion: 'coordination.k8s.io/v1',
        kind: 'Lease',
        metadata: { ...base.metadata, name, namespace, resourceVersion, labels: { ...base.metadata?.labels, ...labels } },
        spec: { ...base.spec, ...recordToLeaseSpec(record) },
      };
      return jsonRequest$(transport, 'PUT', path, lease).pipe(map(keep), conflictAs('update'));
    },
  }, lifetime);
  // For RBAC generation (permissionsOf): get, create and update this Lease.
  declarePermissions(lock, can.holdLease(namespace, name));
  return lock;
}
