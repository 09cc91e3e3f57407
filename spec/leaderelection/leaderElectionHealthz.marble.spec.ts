// client-go's leader election healthz adaptor: unhealthy while this replica is (by its last
// observation) the leader and has not renewed within leaseDuration + timeout; a standby is healthy.
import { describe, expect, it } from '@jest/globals';
import { TestScheduler } from 'rxjs/testing';
import { leaderElection } from '../../lib/leaderelection/leaderElection.js';
import { LeaderElectionUnhealthyError } from '../../lib/leaderelection/leaderElectionErrors.js';
import { leaderElectionHealthz } from '../../lib/leaderelection/leaderElectionHealthz.js';
import { memoryLeaseStore } from '../../lib/testing/memoryLeaseStore.js';

const newScheduler = () => new TestScheduler((actual, expected) => expect(actual).toEqual(expected));

describe('leaderElectionHealthz (client-go HealthzAdaptor)', () => {
  it('healthy while renewing; unhealthy once the leader has not renewed for leaseDuration + timeout; a standby stays healthy', () => {
    const ts = newScheduler();
    const checks: Record<number, [string, string]> = {};
    ts.run(() => {
      const store = memoryLeaseStore({ scheduler: ts, latency: 5 });
      const a = leaderElection({ lock: store.lock('a'), identity: 'a', scheduler: ts, random: () => 0, logger: false });
      const b = leaderElection({ lock: store.lock('b'), identity: 'b', scheduler: ts, random: () => 0, logger: false });
      const healthA = leaderElectionHealthz(a, { timeout: 1000, scheduler: ts });
      const healthB = leaderElectionHealthz(b, { timeout: 1000, scheduler: ts });
      expect(healthA.name).toBe('leaderElection');
      ts.schedule(() => a.start(), 0);
      ts.schedule(() => b.start(), 1);
      // a's renewal answered at 2015 is the last it sees: its lock calls hang from 3000 on (a
      // deadlocked client). It steps down at 10 010 but its last observation still names itself.
      ts.schedule(() => store.partition('a', 'hang'), 3000);
      for (const at of [100, 2016, 18_015, 18_016]) {
        ts.schedule(() => {
          checks[at] = [healthA.check()?.message ?? 'ok', healthB.check()?.message ?? 'ok'];
        }, at);
      }
      ts.schedule(() => {
        void a.stop();
        void b.stop();
      }, 30_000);
    });
    expect(checks[100]).toEqual(['ok', 'ok']);
    expect(checks[2016]).toEqual(['ok', 'ok']);
    expect(checks[18_015]).toEqual(['ok', 'ok']); // exactly leaseDuration + timeout: not yet
    expect(checks[18_016]?.[0]).toMatch(/failed to renew leadership of lease default\/memory-lease/);
    expect(checks[18_016]?.[1]).toBe('ok');
  });

  it('reports a LeaderElectionUnhealthyError with the time since the last renewal; a stopped elector is healthy', () => {
    const ts = newScheduler();
    ts.run(() => {
      const store = memoryLeaseStore({ scheduler: ts, latency: 5 });
      const a = leaderElection({ lock: store.lock('a'), identity: 'a', scheduler: ts, random: () => 0, logger: false });
      const health = leaderElectionHealthz(a, { scheduler: ts });
      ts.schedule(() => a.start(), 0);
      ts.schedule(() => store.partition('a', 'hang'), 100);
      // Last renewal seen at 10 (the create); leaseDuration 15 s + timeout 0.
      ts.schedule(() => expect(health.check()).toBeUndefined(), 15_010);
      ts.schedule(() => {
        const error = health.check();
        expect(error).toBeInstanceOf(LeaderElectionUnhealthyError);
        expect(error).toMatchObject({ sinceRenewalMs: 15_001, toleranceMs: 15_000 });
        void a.stop();
      }, 15_011);
      ts.schedule(() => expect(health.check()).toBeUndefined(), 15_012);
    });
  });
});
