import { describe, expect, it } from '@jest/globals';
import { TestScheduler } from 'rxjs/testing';
import { leaderElection } from '../../lib/leaderelection/leaderElection.js';
import { validateLeaderElectionConfig } from '../../lib/leaderelection/leaderElectionConfig.js';
import { ConfigError } from '../../lib/configError.js';
import { memoryLeaseStore } from '../../lib/testing/memoryLeaseStore.js';

const lock = memoryLeaseStore().lock('a');

describe('leader election config (client-go validation)', () => {
  it("defaults are client-go's: 15 s / 10 s / 2 s, no release on cancel", () => {
    expect(validateLeaderElectionConfig({ lock, identity: 'a' })).toEqual({
      identity: 'a',
      leaseDuration: 15_000,
      renewDeadline: 10_000,
      retryPeriod: 2_000,
      releaseOnCancel: false,
    });
  });

  it.each([
    [{ leaseDuration: 10_000, renewDeadline: 10_000 }, 'leaseDuration', /leaseDuration \(10000 ms\) must be greater than renewDeadline \(10000 ms\)/],
    [{ renewDeadline: 2_400, retryPeriod: 2_000 }, 'renewDeadline', /renewDeadline \(2400 ms\) must be greater than retryPeriod x 1.2 \(2400 ms\)/],
    [{ retryPeriod: 0 }, 'retryPeriod', /retryPeriod must be greater than zero/],
    [{ leaseDuration: -1 }, 'leaseDuration', /leaseDuration must be greater than zero/],
    [{ renewDeadline: Number.NaN }, 'renewDeadline', /renewDeadline must be greater than zero/],
    [{ leaseDuration: 1_500, renewDeadline: 1_000, retryPeriod: 200 }, 'leaseDuration', /written to the Lease as 1 s/],
    [{ identity: '' }, 'identity', /identity must be a non-empty string/],
  ])('%j is refused with a ConfigError naming %s', (bad, field, message) => {
    let thrown: unknown;
    try {
      leaderElection({ lock, identity: 'a', ...bad });
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(ConfigError);
    expect((thrown as ConfigError).option).toBe(field);
    expect((thrown as Error).message).toMatch(message);
  });

  it.each([
    ['no lock', { identity: 'a' }, /lock is required/],
    ['a null lock', { identity: 'a', lock: null }, /lock is required/],
    ['an object that is not a lock', { identity: 'a', lock: {} }, /it has no get, create, update, describe method/],
    ['a lock without update', { identity: 'a', lock: { ...lock, update: undefined } }, /it has no update method/],
  ])('%s is refused at once with a ConfigError naming the lock', (_name, bad, message) => {
    // Plain JavaScript: before, the elector started and its first attempt threw a TypeError.
    const build = (): unknown => leaderElection(bad as unknown as Parameters<typeof leaderElection>[0]);
    expect(build).toThrow(ConfigError);
    expect(build).toThrow(message);
    try {
      build();
    } catch (e) {
      expect((e as ConfigError).option).toBe('lock');
    }
  });

  it('no config at all is a ConfigError, not a TypeError', () => {
    const build = (): unknown => leaderElection(undefined as unknown as Parameters<typeof leaderElection>[0]);
    expect(build).toThrow(ConfigError);
    expect(build).toThrow(/the config must be an object/);
  });

  it('candidates wait retryPeriod x (1 + 1.2 x random) between attempts; a leader renews every retryPeriod exactly', () => {
    const ts = new TestScheduler((a, b) => expect(a).toEqual(b));
    ts.run(() => {
      const store = memoryLeaseStore({ scheduler: ts });
      store.put({ holderIdentity: 'x', leaseDurationSeconds: 15, acquireTime: 0, renewTime: 0, leaderTransitions: 0 });
      const gets: number[] = [];
      const inner = store.lock('b');
      const b = leaderElection({
        lock: { ...inner, get: () => (gets.push(ts.now()), inner.get()) },
        identity: 'b',
        scheduler: ts,
        random: () => 0.5,
      });
      ts.schedule(() => b.start(), 0);
      ts.schedule(() => void b.stop(), 10_000);
      ts.flush();
      expect(gets).toEqual([0, 3200, 6400, 9600]);
    });
  });
});
