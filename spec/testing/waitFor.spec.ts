import { afterEach, describe, expect, it } from '@jest/globals';
import { Subject, VirtualAction, VirtualTimeScheduler } from 'rxjs';
import { startFakeApiServer, waitFor, WaitForTimeoutError, type FakeApiServer } from '../../lib/testing/index.js';

// Lets the promise callbacks of a check run between virtual-time steps.
const settle = () => new Promise<void>((r) => setImmediate(r));

describe('waitFor', () => {
  let api: FakeApiServer | undefined;
  afterEach(async () => {
    await api?.close();
    api = undefined;
  });

  it('resolves at once with a truthy value', async () => {
    await expect(waitFor(() => 42)).resolves.toBe(42);
  });

  it('polls every interval on the scheduler and resolves with the first truthy value', async () => {
    const scheduler = new VirtualTimeScheduler(VirtualAction, 10_000);
    let calls = 0;
    const p = waitFor(() => (++calls >= 3 ? 'ready' : undefined), { scheduler, interval: 100, timeout: 1000 });
    await settle();
    expect(calls).toBe(1);
    scheduler.maxFrames = 100;
    scheduler.flush();
    await settle();
    expect(calls).toBe(2);
    scheduler.maxFrames = 200;
    scheduler.flush();
    await expect(p).resolves.toBe('ready');
    expect(calls).toBe(3);
    expect(scheduler.actions.filter((a) => !a.closed)).toEqual([]); // nothing stays scheduled
  });

  it('rejects with a typed timeout error naming what it waited for and the last error', async () => {
    const scheduler = new VirtualTimeScheduler(VirtualAction, 10_000);
    const p = waitFor(
      () => {
        throw new Error('not yet');
      },
      { scheduler, interval: 50, timeout: 300, description: 'the backup to finish' },
    );
    await settle();
    scheduler.flush();
    const e = await p.catch((x: unknown) => x);
    expect(e).toBeInstanceOf(WaitForTimeoutError);
    expect((e as WaitForTimeoutError).message).toBe('waitFor timed out after 300 ms waiting for the backup to finish; last check threw: not yet');
    expect((e as WaitForTimeoutError).code).toBe('WaitForTimeoutError');
    expect(scheduler.actions.filter((a) => !a.closed)).toEqual([]);
  });

  it('without a description, the timeout error quotes the condition and its last value', async () => {
    const scheduler = new VirtualTimeScheduler(VirtualAction, 10_000);
    const p = waitFor(() => 0, { scheduler, timeout: 20 });
    await settle();
    scheduler.flush();
    await expect(p).rejects.toThrow('waitFor timed out after 20 ms waiting for `() => 0`; last value: 0');
  });

  it('checks again on every emission of `changes` (an informer, a server), not only on the interval', async () => {
    const scheduler = new VirtualTimeScheduler(VirtualAction, 10_000);
    const changes = new Subject<void>();
    const state: { value?: string } = {};
    const p = waitFor(() => state.value, { scheduler, interval: 1000, timeout: 5000, changes });
    await settle();
    state.value = 'now';
    changes.next();
    await expect(p).resolves.toBe('now');
    expect(changes.observed).toBe(false);
  });

  it("waits on the fake server's state, for an async condition too", async () => {
    api = await startFakeApiServer({ http: true });
    const server = api;
    setTimeout(() => server.create('configmaps', { metadata: { name: 'late', namespace: 'default' } }), 20);
    const cm = await waitFor(async () => server.get('configmaps', 'default', 'late'), { timeout: 2000 });
    expect(cm.metadata.name).toBe('late');
  });
});
