import { asyncScheduler, take, type SchedulerLike } from 'rxjs';
import type { ElectorState } from './electorStep.js';
import type { LeaderElector } from './leaderElection.js';
import { LeaderElectionUnhealthyError } from './leaderElectionErrors.js';

/**
 * Options of {@link leaderElectionHealthz}.
 *
 * @example
 * ```ts
 * const options: LeaderElectionHealthzOptions = { timeout: 20_000 };
 * ```
 */
export interface LeaderElectionHealthzOptions {
  /** How long past leaseDuration (ms) a leader may go without renewing before it is unhealthy. Default 0. */
  readonly timeout?: number;
  /** The elector's clock (pass the scheduler the elector runs on). Default `asyncScheduler`. */
  readonly scheduler?: SchedulerLike;
}

/**
 * A health check (client-go's `HealthzAdaptor`): `name` and `check()`, which returns `undefined`
 * when healthy and the error otherwise. Serve it on `/healthz` so that the kubelet restarts a
 * deadlocked leader.
 *
 * @example
 * ```ts
 * const healthz: HealthCheck = leaderElectionHealthz(elector, { timeout: 20_000 });
 * ```
 */
export interface HealthCheck {
  readonly name: string;
  check(): LeaderElectionUnhealthyError | undefined;
}

/**
 * client-go's leader election healthz adaptor: unhealthy when this replica is the leader by its
 * last observation of the Lease (the holder it last saw is itself) and that observation is older
 * than leaseDuration + `timeout` (others have been free to take over for `timeout` already: the
 * elector is stuck, its lock calls hang, or its event loop is blocked). A standby, a candidate that
 * saw another holder, and a stopped elector are healthy.
 *
 * ```text
 * renewed  --r--r--r-----------------------------------------   (its calls hang from here)
 * check()  ok ok ok ok ... ok | unhealthy once leaseDuration + timeout since the last r
 * ```
 *
 * @example
 * ```ts
 * import { createServer } from 'node:http';
 * import { leaderElection, leaderElectionHealthz, leaseLock } from 'rxkube';
 *
 * const elector = leaderElection({ lock: leaseLock(kubeConfig, 'ops', 'ctl'), identity: process.env.POD_NAME ?? 'local' });
 * const healthz = leaderElectionHealthz(elector, { timeout: 20_000 });
 * createServer((req, res) => {
 *   const error = healthz.check();
 *   res.writeHead(error ? 500 : 200).end(error ? `[-]${healthz.name} failed: ${error.message}` : 'ok');
 * }).listen(8081, '127.0.0.1');
 * ```
 */
export function leaderElectionHealthz(elector: LeaderElector, options: LeaderElectionHealthzOptions = {}): HealthCheck {
  const timeout = options.timeout ?? 0;
  const scheduler = options.scheduler ?? asyncScheduler;
  return {
    name: 'leaderElection',
    check() {
      // state$ replays the current state at once (nothing once stopped: healthy).
      let state: ElectorState | undefined;
      elector.state$.pipe(take(1)).subscribe((s) => (state = s));
      if (state === undefined || state.phase === 'stopped') return undefined;
      if (state.observed.record?.holderIdentity !== elector.identity) return undefined;
      const since = scheduler.now() - state.observed.time;
      const tolerance = elector.leaseDuration + timeout;
      return since > tolerance ? new LeaderElectionUnhealthyError(elector.lockName, since, tolerance) : undefined;
    },
  };
}
