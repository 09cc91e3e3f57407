import { Gauge } from 'prom-client';
import type { LeaderElector } from '../leaderelection/leaderElection.js';
import type { Registers } from './registers.js';

/**
 * client-go's `leader_election_master_status{name}`: 1 while the elector leads, 0 while it stands
 * by. `name` is the lock's `namespace/name`, so the replicas of one controller share a series name
 * and `max by (name)` across them says whether anyone leads.
 * @internal
 */
export function leaderElectionMetrics(registers: Registers): (elector: LeaderElector) => () => void {
  const electors = new Set<LeaderElector>();
  new Gauge({
    name: 'leader_election_master_status',
    help: "Gauge of if the reporting system is master of the relevant lease, 0 indicates backup, 1 indicates master. 'name' is the string used to identify the lease.",
    labelNames: ['name'],
    registers,
    collect() {
      this.reset();
      // Two electors of one lock in one process (tests, demos) read as one: leading if either leads.
      const byName = new Map<string, number>();
      for (const e of electors)
        byName.set(e.lockName, Math.max(byName.get(e.lockName) ?? 0, e.isLeader() ? 1 : 0));
      for (const [name, value] of byName) this.set({ name }, value);
    },
  });
  return (elector) => {
    electors.add(elector);
    return () => {
      electors.delete(elector);
    };
  };
}
