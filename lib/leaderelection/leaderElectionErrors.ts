import { causeMessage, RxkubeError } from '../errors.js';


/**
 * A write to a lock lost a race: the object changed since it was read (update, HTTP 409), or it
 * already exists (create, HTTP 409). The elector counts the attempt as failed and retries after
 * the retry period; it is never reported as an error.
 *
 * @example
 * ```ts
 * lock.update(record, rv).subscribe({ error: (e) => { if (e instanceof LeaseConflictError) console.log('lost the race'); } });
 * ```
 */
export class LeaseConflictError extends RxkubeError {
  /** `namespace/name` of the lock. */
  readonly lock: string;

  constructor(lock: string, operation: 'create' | 'update') {
    super(
      'LeaseConflictError',
      `${operation} of lease ${lock} lost a race (409 Conflict): another elector wrote it first; this attempt failed and the elector retries after its retry period`,
    );
    this.lock = lock;
  }
}

/**
 * An attempt to acquire, renew or release a lock failed for a reason other than a lost race (the
 * API server answered with an error, the connection failed, the attempt passed its deadline). The
 * elector reports it on `errors$` and retries; `cause` is the underlying error.
 *
 * @example
 * ```ts
 * elector.errors$.subscribe((e: LeaderElectionError) => console.warn(e.operation, e.message));
 * ```
 */
export class LeaderElectionError extends RxkubeError {
  /** What the elector was doing: `get`, `create`, `update`, `release`, or the callback that threw. */
  readonly operation: string;

  constructor(lock: string, operation: string, cause: unknown) {
    const reason = causeMessage(cause);
    const message = operation.startsWith('on')
      ? `the ${operation} callback threw; the elector went on: ${reason}`
      : `leader election ${operation} of lease ${lock} failed; retrying: ${reason}`;
    super('LeaderElectionError', message, { cause });
    this.operation = operation;
  }
}

/**
 * The workers run by {@link runWhileLeading} failed to start or to stop: `start()` threw, or
 * `stop()` threw, rejected or returned no Promise. A failed start gives up leadership (the elector
 * is stopped, releasing the Lease when configured to), so that a replica that can do the work
 * takes over; a failed stop is reported and leadership is followed as before.
 *
 * @example
 * ```ts
 * run.errors$.subscribe((e: LeaderWorkersError) => console.error(e.operation, e.message));
 * ```
 */
export class LeaderWorkersError extends RxkubeError {
  /** `start` or `stop`. */
  readonly operation: 'start' | 'stop';

  constructor(operation: 'start' | 'stop', cause: unknown) {
    const reason = causeMessage(cause);
    const message =
      operation === 'start'
        ? `the workers failed to start on leadership, so this replica gives up the lease: ${reason}`
        : `the workers failed to stop on losing leadership: ${reason}`;
    super('LeaderWorkersError', message, { cause });
    this.operation = operation;
  }
}

/**
 * The leader election health check failed: this replica is the leader by its last observation of
 * the Lease, and it has not renewed it for longer than leaseDuration plus the check's timeout (a
 * deadlocked or cut-off elector: others may already lead). From {@link leaderElectionHealthz}.
 *
 * @example
 * ```ts
 * const error = healthz.check();
 * if (error instanceof LeaderElectionUnhealthyError) console.error(error.sinceRenewalMs);
 * ```
 */
export class LeaderElectionUnhealthyError extends RxkubeError {
  /** How long ago (ms, the elector's clock) it last saw its own renewal. */
  readonly sinceRenewalMs: number;
  /** leaseDuration + timeout (ms). */
  readonly toleranceMs: number;

  constructor(lock: string, sinceRenewalMs: number, toleranceMs: number) {
    super(
      'LeaderElectionUnhealthyError',
      `leader election: failed to renew leadership of lease ${lock}: last renewal seen ${sinceRenewalMs} ms ago, more than leaseDuration + timeout (${toleranceMs} ms)`,
    );
    this.sinceRenewalMs = sinceRenewalMs;
    this.toleranceMs = toleranceMs;
  }
}
