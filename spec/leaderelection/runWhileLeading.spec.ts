import { describe, expect, it } from '@jest/globals';
import { leaderElection } from '../../lib/leaderelection/leaderElection.js';
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
});
