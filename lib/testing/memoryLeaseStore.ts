import { asyncScheduler, defer, mergeMap, NEVER, of, throwError, timer, type Observable, type SchedulerLike } from 'rxjs';
import { RxkubeError } from '../errors.js';
import { LeaseConflictError } from '../leaderelection/leaderElectionErrors.js';
import { rawRecord, type LeaderElectionRecord, type VersionedRecord } from '../leaderelection/leaderElectionRecord.js';
import type { ResourceLock } from '../leaderelection/resourceLock.js';

/**
 * One committed write to a {@link MemoryLeaseStore}: when (the store's scheduler clock), by which
 * client, and the record written.
 *
 * @example
 * ```ts
 * store.writes.filter((w: MemoryLeaseWrite) => w.record.holderIdentity === 'a').length;
 * ```
 */
export interface MemoryLeaseWrite {
  readonly at: number;
  readonly client: string;
  readonly record: LeaderElectionRecord;
  readonly resourceVersion: string;
}

/**
 * An in-memory Lease with optimistic concurrency, for virtual-time tests of leader election: each
 * `lock(client)` is one elector's view of it. Calls answer after `latency` ms on the scheduler
 * (synchronously with 0) and take effect when they answer; a partitioned client's calls hang
 * (`'hang'`) or fail (`'fail'`).
 *
 * @example
 * ```ts
 * const store = memoryLeaseStore({ scheduler: testScheduler, latency: 5 });
 * const a = leaderElection({ lock: store.lock('a'), identity: 'a', scheduler: testScheduler });
 * store.partition('a', 'hang');
 * ```
 */
export interface MemoryLeaseStore {
  /** A lock on the lease for one client (the name used by `partition`). */
  lock(client: string): ResourceLock;
  /** The lease now, or undefined before the first create. */
  readonly current: VersionedRecord | undefined;
  /** Every committed write, oldest first. */
  readonly writes: ReadonlyArray<MemoryLeaseWrite>;
  /** Writes the lease as another party would (unconditionally), e.g. to simulate a holder with a skewed clock. */
  put(record: LeaderElectionRecord, client?: string): VersionedRecord;
  /** Cuts a client off: its calls hang (default) or fail with a `MemoryLeasePartitionError`. */
  partition(client: string, mode?: 'hang' | 'fail'): void;
  heal(client: string): void;
}

/**
 * The error a partitioned client's calls fail with in `'fail'` mode.
 *
 * @example
 * ```ts
 * elector.errors$.subscribe((e) => e.cause instanceof MemoryLeasePartitionError && console.log('cut off'));
 * ```
 */
export class MemoryLeasePartitionError extends RxkubeError {
  constructor(client: string) {
    super('MemoryLeasePartitionError', `client ${client} is partitioned from the in-memory lease store (a test fault); heal it to reconnect`);
  }
}

/**
 * Creates a {@link MemoryLeaseStore}.
 *
 * @example
 * ```ts
 * const store = memoryLeaseStore({ scheduler: testScheduler });
 * const lock = store.lock('a');
 * ```
 */
export function memoryLeaseStore(options: { readonly scheduler?: SchedulerLike; readonly latency?: number; readonly name?: string } = {}): MemoryLeaseStore {
  const scheduler = options.scheduler ?? asyncScheduler;
  const latency = options.latency ?? 0;
  const name = options.name ?? 'default/memory-lease';
  let current: VersionedRecord | undefined;
  let rv = 0;
  const writes: MemoryLeaseWrite[] = [];
  const cut = new Map<string, 'hang' | 'fail'>();

  const commit = (record: LeaderElectionRecord, client: string): VersionedRecord => {
    current = { record, resourceVersion: String(++rv), raw: rawRecord(record) };
    writes.push({ at: scheduler.now(), client, record, resourceVersion: current.resourceVersion });
    return current;
  };
  // A call takes effect when it answers (after the latency), unless unsubscribed before.
  const call = <T>(client: string, effect: () => T): Observable<T> => {
    const answer = (): Observable<T> => {
      const mode = cut.get(client);
      if (mode === 'hang') return NEVER;
      if (mode === 'fail') return throwError(() => new MemoryLeasePartitionError(client));
      return defer(() => of(effect()));
    };
    return latency === 0 ? defer(answer) : timer(latency, scheduler).pipe(mergeMap(answer));
  };

  return {
    lock: (client) => ({
      describe: () => name,
      get: () => call(client, () => current),
      create: (record) =>
        call(client, () => {
          if (current) throw new LeaseConflictError(name, 'create');
          return commit(record, client);
        }),
      update: (record, resourceVersion) =>
        call(client, () => {
          if (!current || current.resourceVersion !== resourceVersion) throw new LeaseConflictError(name, 'update');
          return commit(record, client);
        }),
    }),
    get current() {
      return current;
    },
    writes,
    put: (record, client = 'external') => commit(record, client),
    partition: (client, mode = 'hang') => void cut.set(client, mode),
    heal: (client) => void cut.delete(client),
  };
}
