import { describe, expect, it } from '@jest/globals';
import { BehaviorSubject, of } from 'rxjs';
import { controller, type Controller } from '../../lib/controller/controller.js';
import { ConfigError } from '../../lib/configError.js';
import { InvalidReconcileResultError, ReconcileError } from '../../lib/controller/controllerErrors.js';
import { TerminalError } from '../../lib/controller/terminalError.js';
import type { ControllerOptions } from '../../lib/controller/controllerOptions.js';
import type { ControllerMetricEvent } from '../../lib/controller/controllerMetrics.js';
import type { Informer } from '../../lib/informer/informer.js';
import type { RateLimiter } from '../../lib/workqueue/rateLimiter.js';
import { HeldKeys, dep, recordingReconcile, scriptedInformer, testScheduler, type Obj } from './support.js';

function stopAt(ts: { schedule: (f: () => void, ms: number) => unknown }, atMs: number, ctl: Controller, inf: Informer<Obj>) {
  ts.schedule(() => {
    void ctl.stop();
    void inf.stop();
  }, atMs);
}

/** Keys a and b (listed at 5); `forA` is a's reconcile, b's succeeds. What ran when, and errors$. */
function runAB(forA: () => unknown): { seen: string[]; errors: ReconcileError[] } {
  const ts = testScheduler();
  const seen: string[] = [];
  const errors: ReconcileError[] = [];
  ts.run(() => {
    const deps = scriptedInformer(ts, [dep('a', '1'), dep('b', '1')]);
    const ctl = controller({
      for: deps,
      scheduler: ts,
      reconcile: (key) => {
        seen.push(`${key}@${ts.now()}`);
        return (key === 'ns/a' ? forA() : undefined) as undefined;
      },
    });
    ctl.errors$.subscribe((e) => errors.push(e as ReconcileError));
    ctl.start();
    stopAt(ts, 30, ctl, deps);
  });
  return { seen, errors };
}

describe('controller: what a careless caller or a bad result cannot break (virtual time)', () => {
  it('leading$ emitting true again while a worker is busy adds no worker beyond concurrency', () => {
    const ts = testScheduler();
    const held = new HeldKeys();
    const { reconcile } = recordingReconcile(ts, held, { holdMs: 10 });
    ts.run(() => {
      const deps = scriptedInformer(ts, ['a', 'b', 'c', 'd', 'e'].map((n) => dep(n, '1')));
      const leading$ = new BehaviorSubject(true);
      const ctl = controller({ for: deps, reconcile, scheduler: ts, concurrency: 1, leading$ });
      ctl.start();
      // a is being reconciled (5..15): before, each re-emission started one more worker for good.
      ts.schedule(() => leading$.next(true), 7);
      ts.schedule(() => leading$.next(true), 8);
      ts.schedule(() => (leading$.next(false), leading$.next(true)), 9);
      stopAt(ts, 200, ctl, deps);
    });
    expect(held.maxConcurrent).toBe(1);
    expect(held.violations).toEqual([]);
  });

  it.each([
    ['a string requeueAfter', { requeueAfter: '50' }, 'requeueAfter'],
    ['a NaN requeueAfter', { requeueAfter: Number.NaN }, 'requeueAfter'],
    ['a NaN priority', { requeue: true, priority: Number.NaN }, 'priority'],
  ])('%s is a failed reconcile (InvalidReconcileResultError), retried with backoff; the worker goes on', (_what, result, field) => {
    const { seen, errors } = runAB(() => of(result));
    // Before: an uncaught InvalidDelayError (or a key that was never handed out again) and a dead worker.
    expect(seen.slice(0, 3)).toEqual(['ns/a@5', 'ns/b@5', 'ns/a@10']);
    expect(errors[0]).toBeInstanceOf(ReconcileError);
    expect((errors[0] as ReconcileError).cause).toBeInstanceOf(InvalidReconcileResultError);
    expect(((errors[0] as ReconcileError).cause as InvalidReconcileResultError).field).toBe(field);
  });

  it('a rate limiter that answers NaN: the key is reported and let go, not left in flight; stop() resolves', async () => {
    const ts = testScheduler();
    const errors: ReconcileError[] = [];
    let stopped: Promise<void> | undefined;
    const nanLimiter: RateLimiter<string> = { when: () => Number.NaN, forget: () => undefined, numRequeues: () => 0 };
    let ctl: Controller | undefined;
    ts.run(() => {
      const deps = scriptedInformer(ts, [dep('a', '1'), dep('b', '1')]);
      ctl = controller({
        for: deps,
        scheduler: ts,
        rateLimiter: nanLimiter,
        reconcile: (key) => {
          if (key === 'ns/a') throw new Error('boom');
        },
      });
      ctl.errors$.subscribe((e) => errors.push(e as ReconcileError));
      ctl.start();
      ts.schedule(() => {
        stopped = ctl!.stop();
        void deps.stop();
      }, 30);
    });
    await expect(stopped).resolves.toBeUndefined();
    expect(ctl!.status()).toBe('stopped');
    expect(ctl!.stats().reconcileErrorsTotal).toBe(1);
    expect(errors.map((e) => e.message)).toEqual([
      expect.stringMatching(/reconcile of "ns\/a" failed: boom; retrying/),
      expect.stringMatching(/reconcile of "ns\/a" failed: .*delay.*; terminal error/),
    ]);
  });

  it('a reconcile that throws a value with no string form is reported, and the worker takes the next key', () => {
    const { seen, errors } = runAB(() => {
      throw Object.create(null);
    });
    // Before: String(cause) threw a TypeError out of the worker, and b was never reconciled.
    expect(seen.slice(0, 2)).toEqual(['ns/a@5', 'ns/b@5']);
    expect(errors[0].message).toMatch(/failed: \[object Object\]/);
  });

  it('a reconcile that fails while the controller drains is still reported on errors$ and metrics$', async () => {
    const ts = testScheduler();
    const errors: unknown[] = [];
    const metrics: ControllerMetricEvent[] = [];
    let stopped: Promise<void> | undefined;
    ts.run(({ cold }) => {
      const deps = scriptedInformer(ts, [dep('a', '1')]);
      const ctl = controller({ for: deps, scheduler: ts, reconcile: () => cold('10ms #', {}, new Error('late')) });
      ctl.errors$.subscribe((e) => errors.push(e));
      ctl.metrics$.subscribe((m) => metrics.push(m));
      ctl.start();
      ts.schedule(() => {
        stopped = ctl.stop(); // a is in flight until 15
        void deps.stop();
      }, 8);
    });
    await stopped;
    expect(errors).toEqual([expect.any(ReconcileError)]);
    expect(metrics.filter((m) => m.type === 'reconcile')).toEqual([expect.objectContaining({ result: 'error' })]);
  });
});

describe('controller: a TerminalError as the cause of the error thrown (controller-runtime unwraps with errors.Is)', () => {
  it('is terminal: reported once, not retried', () => {
    const ts = testScheduler();
    const seen: string[] = [];
    const errors: ReconcileError[] = [];
    ts.run(() => {
      const deps = scriptedInformer(ts, [dep('a', '1')]);
      const ctl = controller({
        for: deps,
        scheduler: ts,
        reconcile: (key) => {
          seen.push(`${key}@${ts.now()}`);
          throw new Error('could not apply', { cause: new TerminalError('bad spec') });
        },
      });
      ctl.errors$.subscribe((e) => errors.push(e as ReconcileError));
      ctl.start();
      stopAt(ts, 200, ctl, deps);
    });
    expect(seen).toEqual(['ns/a@5']);
    expect(errors.map((e) => e.terminal)).toEqual([true]);
  });
});

describe('controller options are checked when controller() is called (ConfigError)', () => {
  const ts = testScheduler();
  const deps = scriptedInformer(ts, []);
  const reconcile = (): void => undefined;
  it.each([
    ['cacheSyncTimeout NaN', { cacheSyncTimeout: Number.NaN }, /cacheSyncTimeout must be a number of milliseconds > 0/],
    ['cacheSyncTimeout 0', { cacheSyncTimeout: 0 }, /cacheSyncTimeout must be/],
    ['reconcileTimeout NaN', { reconcileTimeout: Number.NaN }, /reconcileTimeout must be/],
    ['reconcileTimeout as a string', { reconcileTimeout: '5000' }, /reconcileTimeout must be .* got "5000"/],
    ['a rate limiter without methods', { rateLimiter: {} }, /rateLimiter must have when, forget and numRequeues/],
    ['leading$: true', { leading$: true }, /leading\$ must be an Observable, got true/],
    ['keyFilter$ a function', { keyFilter$: () => true }, /keyFilter\$ must be an Observable/],
    ['owns: [null]', { owns: [null] }, /owns\[0\] must be an informer or a trigger source, got null/],
    ['watches not an array', { watches: {} }, /watches must be an array/],
  ])('%s', (_what, bad, message) => {
    const build = (): unknown => controller({ for: deps, reconcile, scheduler: ts, ...(bad as Partial<ControllerOptions<Obj>>) });
    expect(build).toThrow(ConfigError);
    expect(build).toThrow(message);
  });
});
