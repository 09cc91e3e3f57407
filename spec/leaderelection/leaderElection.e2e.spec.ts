// Leader election against the fake API server through the client-node transport, in real time with
// short timings (leaseDuration 2 s, renewDeadline 1.2 s, retryPeriod 0.3 s). Every wait is a
// bounded poll; the figures measured are printed once at the end (docs/ha.md quotes them).
import { afterAll, afterEach, describe, expect, it } from '@jest/globals';
import { JITTER_FACTOR } from '../../lib/leaderelection/leaderElectionConfig.js';
import { seededRandom, type FakeApiServer } from '../../lib/testing/index.js';
import { httpElector, startLeaseServer, TermLog, timings, waitFor, type HttpElector } from './e2eSupport.js';

const { leaseDuration: LD, renewDeadline: RD, retryPeriod: RP } = timings;
const maxCandidateWait = RP * (1 + JITTER_FACTOR);
// Wall-clock figures carry event-loop and poll delay on top of the protocol's bound: on a loaded
// 2-core machine (the full suite) up to a few hundred ms.
const SLACK = 500;
const figures: string[] = [];
const lease = (api: FakeApiServer) => api.get<{ spec: { holderIdentity: string; leaseTransitions: number } }>('leases.coordination.k8s.io', 'default', 'ha-test');

describe('leader election against the fake API server (real time, bounded)', () => {
  let api: FakeApiServer | undefined;
  let electors: HttpElector[] = [];
  afterEach(async () => {
    for (const e of electors) await e.close();
    electors = [];
    await api?.close();
    api = undefined;
  });
  afterAll(() => console.log(`leader election figures (LD ${LD} ms, RD ${RD} ms, RP ${RP} ms):\n  ${figures.join('\n  ')}`));

  async function leaderAndFollower(log: TermLog, releaseOnCancel = false): Promise<[HttpElector, HttpElector]> {
    api = await startLeaseServer(['a', 'b']);
    const a = httpElector(api, 'a', log, { releaseOnCancel });
    electors.push(a);
    a.elector.start();
    await waitFor(() => a.elector.isLeader(), 3_000, 'a to lead');
    const b = httpElector(api, 'b', log);
    electors.push(b);
    b.elector.start();
    await waitFor(() => b.elector.getLeader() === 'a', 3_000, 'b to see a lead');
    return [a, b];
  }

  it('the leader stopped without release: the other leads after leaseDuration from its own last observation, never before', async () => {
    const log = new TermLog();
    const [a, b] = await leaderAndFollower(log);
    const stoppedAt = performance.now();
    await a.elector.stop();
    await waitFor(() => b.elector.isLeader(), LD + 2 * maxCandidateWait + 1_000, 'b to take over');
    const took = performance.now() - stoppedAt;
    figures.push(`failover without release: ${took.toFixed(0)} ms after the leader stopped (bound LD + 2 x 2.2 x RP = ${LD + 2 * maxCandidateWait} ms)`);
    // a renewed at most RP before it stopped, and b waits LD from when it saw that renewal.
    expect(took).toBeGreaterThan(LD - RP - 50);
    expect(took).toBeLessThan(LD + 2 * maxCandidateWait + SLACK);
    expect(lease(api!)?.spec).toMatchObject({ holderIdentity: 'b', leaseTransitions: 1 });
    expect(log.violations).toEqual([]);
    expect([...a.errors, ...b.errors]).toEqual([]);
  });

  it('with releaseOnCancel the other leads at its next retry (within retryPeriod x 2.2)', async () => {
    const log = new TermLog();
    const [a, b] = await leaderAndFollower(log, true);
    const stoppedAt = performance.now();
    await a.elector.stop();
    expect(lease(api!)?.spec).toMatchObject({ holderIdentity: '', leaseDurationSeconds: 1 });
    await waitFor(() => b.elector.isLeader(), maxCandidateWait + 1_000, 'b to take over');
    const took = performance.now() - stoppedAt;
    figures.push(`failover with releaseOnCancel: ${took.toFixed(0)} ms (bound RP x 2.2 = ${maxCandidateWait} ms)`);
    expect(took).toBeLessThan(maxCandidateWait + SLACK); // well under LD - RP: not an expiry
    expect(log.violations).toEqual([]);
  });

  it('a partitioned leader steps down within renewDeadline, before the other takes over', async () => {
    const log = new TermLog();
    const [a, b] = await leaderAndFollower(log);
    const cutAt = performance.now();
    api!.faults.partition({ user: 'a', mode: 'hang' });
    await waitFor(() => !a.elector.isLeader(), RD + 1_000, 'a to step down');
    const steppedDown = performance.now() - cutAt;
    await waitFor(() => b.elector.isLeader(), LD + 2 * maxCandidateWait + 1_000, 'b to take over');
    const tookOver = performance.now() - cutAt;
    figures.push(`partitioned leader stepped down after ${steppedDown.toFixed(0)} ms (bound RD ${RD} ms); the other led after ${tookOver.toFixed(0)} ms`);
    expect(steppedDown).toBeLessThan(RD + SLACK / 2); // a timer at the deadline: only timer (and event-loop) delay on top
    const aTerm = log.terms.find((t) => t.identity === 'a')!;
    const bTerm = log.terms.find((t) => t.identity === 'b')!;
    expect(aTerm.end).toBeLessThan(bTerm.start);
    api!.faults.heal({ user: 'a' });
    await waitFor(() => a.elector.getLeader() === 'b', 3_000, 'a to see b lead after the heal');
    expect(log.violations).toEqual([]);
  });

  it('a seeded run of random partitions and restarts never shows two leaders whose terms overlap (checked at every start)', async () => {
    const ids = ['a', 'b', 'c'];
    api = await startLeaseServer(ids, 7);
    const server = api;
    const rng = seededRandom(14);
    const log = new TermLog();
    const live = new Map<string, HttpElector>();
    const spawn = (id: string) => {
      const e = httpElector(server, id, log, { releaseOnCancel: rng.next() < 0.5 });
      live.set(id, e);
      electors.push(e);
      e.elector.start();
    };
    ids.forEach(spawn);
    const cut = new Set<string>();
    let actions = 0;
    // At least 9 s of churn; then on until the run has shown failovers (a loaded machine may need
    // longer for the same number), bounded by 24 s and 300 actions.
    const started = performance.now();
    const churned = () => log.terms.length >= 3 && (lease(server)?.spec.leaseTransitions ?? 0) >= 2;
    const goOn = () => performance.now() - started < 9_000 || (!churned() && performance.now() - started < 24_000);
    while (goOn() && actions < 300) {
      actions++;
      await new Promise((r) => setTimeout(r, 150 + rng.int(400)));
      const id = ids[rng.int(ids.length)]!;
      const roll = rng.next();
      if (roll < 0.3 && !cut.has(id)) {
        server.faults.partition({ user: id, mode: rng.next() < 0.5 ? 'hang' : 'reset' });
        cut.add(id);
      } else if (roll < 0.6 && cut.has(id)) {
        server.faults.heal({ user: id });
        cut.delete(id);
      } else if (roll < 0.8) {
        await live.get(id)!.close(); // a crash (or a clean stop, with release) and a restart
        spawn(id);
      }
    }
    server.faults.heal();
    await waitFor(() => ids.some((id) => live.get(id)!.elector.isLeader()), LD + 2 * maxCandidateWait + 2_000, 'a leader after healing');
    const transitions = lease(server)!.spec.leaseTransitions;
    figures.push(`seeded random run: ${actions} actions, ${log.terms.length} terms, leaseTransitions ${transitions}, overlaps ${log.violations.length}`);
    expect(log.violations).toEqual([]);
    expect(log.terms.length).toBeGreaterThanOrEqual(3);
    expect(transitions).toBeGreaterThanOrEqual(2);
  }, 45_000);
});
