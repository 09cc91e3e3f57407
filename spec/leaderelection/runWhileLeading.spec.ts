import { describe, expect, it } from '@jest/globals';
import { leaderElection } from '../../lib/leaderelection/leaderElection.js';
import { LeaderWorkersError } from '../../lib/leaderelection/leaderElectionErrors.js';
import { runWhileLeading, type Workers } from '../../lib/leaderelection/runWhileLeading.js';
import { memoryLeaseStore } from '../../lib/testing/memoryLeaseStore.js';
import { waitFor } from './e2eSupport.js';

const timings = { leaseDuration: 2_000, renewDeadline: 1_000, retryPeriod: 100 };

/** Workers whose stop takes `drainMs` (a reconcile finishing), logging what happens when. */
function fakeWorkers(log: string[], drainMs = 30): Workers & { running: boolean } {
  const w = {
    running: false,
    start() {
      log.push('start');
      w.running = true;
    },
    stop() {
      log.push('stopping');
      return new Promise<void>((resolve) =>
        setTimeout(() => {
          w.running = false;
          log.push('drained');
          resolve();
        }, drainMs),
      );
    },
  };
  return w;
}

describe('runWhileLeading (a controller runs only while leading)', () => {
  it('starts the workers on leadership, stops them drained on losing it, and starts them again on the next term', async () => {
    const store = memoryLeaseStore();
    const log: string[] = [];
    const workers = fakeWorkers(log);
    const elector = leaderElection({ lock: store.lock('a'), identity: 'a', ...timings });
    const run = runWhileLeading(elector, workers);
    elector.start();
    await waitFor(() => workers.running, 2_000, 'workers to start');
    store.partition('a', 'fail');
    await waitFor(() => log.includes('drained'), 3_000, 'workers to stop after losing the lease');
    expect(elector.isLeader()).toBe(false);
    store.heal('a');
    await waitFor(() => workers.running, 3_000, 'workers to start again');
    await run.stop();
    expect(log).toEqual(['start', 'stopping', 'drained', 'start', 'stopping', 'drained']);
  });

  it('stop() drains the workers before the elector releases the Lease', async () => {
    const store = memoryLeaseStore();
    const log: string[] = [];
    const workers = fakeWorkers(log, 50);
    const elector = leaderElection({ lock: store.lock('a'), identity: 'a', releaseOnCancel: true, ...timings });
    const run = runWhileLeading(elector, workers);
    elector.start();
    await waitFor(() => workers.running, 2_000, 'workers to start');
    const stopped = run.stop();
    expect(store.current?.record.holderIdentity).toBe('a'); // not released while draining
    await stopped;
    expect(log).toEqual(['start', 'stopping', 'drained']);
    expect(store.current?.record).toMatchObject({ holderIdentity: '', leaseDurationSeconds: 1 });
  });
  it('workers whose start throws: a LeaderWorkersError on errors$, and the replica gives up the lease instead of leading idle', async () => {
    const store = memoryLeaseStore();
    const elector = leaderElection({ lock: store.lock('a'), identity: 'a', releaseOnCancel: true, ...timings });
    const run = runWhileLeading(elector, {
      start: () => {
        throw new Error('no informer');
      },
      stop: () => Promise.resolve(),
    });
    const errors: unknown[] = [];
    run.errors$.subscribe((e) => errors.push(e));
    elector.start();
    await waitFor(() => errors.length > 0 && !elector.isLeader() && store.current?.record.holderIdentity === '', 2_000, 'the lease to be given up');
    expect(errors).toEqual([expect.any(LeaderWorkersError)]);
    expect(errors[0]).toMatchObject({ operation: 'start', message: expect.stringMatching(/gives up the lease: no informer/) });
    await run.stop();
  });

  it('workers whose stop rejects: reported on errors$, and the next term starts them again', async () => {
    const store = memoryLeaseStore();
    const log: string[] = [];
    const elector = leaderElection({ lock: store.lock('a'), identity: 'a', ...timings });
    const run = runWhileLeading(elector, {
      start: () => void log.push('start'),
      stop: () => (log.push('stop'), Promise.reject(new Error('drain failed'))),
    });
    const errors: unknown[] = [];
    run.errors$.subscribe((e) => errors.push(e));
    elector.start();
    await waitFor(() => log.length === 1, 2_000, 'workers to start');
    store.partition('a', 'fail');
    await waitFor(() => errors.length === 1, 3_000, 'the failed stop to be reported');
    expect(errors[0]).toMatchObject({ operation: 'stop', message: expect.stringMatching(/failed to stop on losing leadership: drain failed/) });
    store.heal('a');
    await waitFor(() => log.length === 3, 3_000, 'workers to start again');
    expect(log).toEqual(['start', 'stop', 'start']);
    await run.stop().catch(() => undefined); // its own stop rejects too: the caller's to see
    expect(errors).toHaveLength(1);
  });

  it('its errors$ is logged by one subscriber, the logger option', async () => {
    const store = memoryLeaseStore();
    const lines: string[] = [];
    const elector = leaderElection({ lock: store.lock('a'), identity: 'a', releaseOnCancel: true, logger: false, ...timings });
    const run = runWhileLeading(
      elector,
      {
        start: () => {
          throw new Error('no informer');
        },
        stop: () => Promise.resolve(),
      },
      { logger: { error: (message) => lines.push(message) } },
    );
    elector.start();
    await waitFor(() => lines.length > 0, 2_000, 'the failed start to be logged');
    expect(lines).toEqual([expect.stringMatching(/gives up the lease: no informer/)]);
    await run.stop();
  });
});
