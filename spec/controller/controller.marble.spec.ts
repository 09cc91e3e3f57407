import { describe, expect, it } from '@jest/globals';
import { NEVER, Subject, map, timer } from 'rxjs';
import { controller, type Controller } from '../../lib/controller/controller.js';
import { CacheSyncTimeoutError, ControllerInputError, ReconcileError, ReconcileTimeoutError } from '../../lib/controller/controllerErrors.js';
import { generationChanged } from '../../lib/controller/changePredicate.js';
import { TerminalError } from '../../lib/controller/terminalError.js';
import type { Informer } from '../../lib/informer/informer.js';
import { itemExponentialFailureRateLimiter } from '../../lib/workqueue/itemExponentialFailureRateLimiter.js';
import type { ControllerStatus } from '../../lib/controller/controllerMetrics.js';
import { HeldKeys, dep, modified, recordingReconcile, scriptedInformer, testScheduler, type Obj } from './support.js';

// Stops the controller and its informers at `atMs` so that TestScheduler.run's flush ends.
function stopAt(ts: { schedule: (f: () => void, ms: number) => unknown }, atMs: number, ctl: Controller, ...infs: Informer<Obj>[]) {
  ts.schedule(() => {
    void ctl.stop();
    for (const inf of infs) void inf.stop();
  }, atMs);
}

describe('controller (marble tests, virtual time)', () => {
  it('starts workers only once synced; initial-list keys at low priority after a live change; never one key twice at once', () => {
    const ts = testScheduler();
    const held = new HeldKeys();
    const { log, reconcile } = recordingReconcile(ts, held);
    const statuses: ControllerStatus[] = [];
    ts.run(() => {
      // The list arrives at 5; at 7, c is created (a live change: priority 0).
      const deps = scriptedInformer(ts, [dep('a', '1'), dep('b', '1')], '7ms c', {
        c: { type: 'ADDED', object: dep('c', '2') },
      });
      const ctl = controller({ for: deps, reconcile, scheduler: ts, name: 'deps' });
      ctl.status$.subscribe((s) => statuses.push(s));
      ctl.start();
      stopAt(ts, 100, ctl, deps);
    });
    // a starts at 5 (the list is delivered and synced together); c, added at 5 + 7 = 12 while a runs,
    // jumps ahead of b (low priority).
    expect(log).toEqual(['ns/a@5', 'ns/c@15', 'ns/b@25']);
    expect(statuses).toEqual(['idle', 'waitingForSync', 'running', 'stopping', 'stopped']);
    expect(held.violations).toEqual([]);
  });

  it('concurrency 2: two keys at once, a key changed while running is queued again only once it is done', () => {
    const ts = testScheduler();
    const held = new HeldKeys();
    const { log, reconcile } = recordingReconcile(ts, held);
    ts.run(() => {
      const deps = scriptedInformer(ts, [dep('a', '1'), dep('b', '1'), dep('c', '1')], '2ms x 1ms y', {
        x: modified(dep('a', '2', 2)),
        y: modified(dep('a', '3', 3)),
      });
      const ctl = controller({ for: deps, reconcile, scheduler: ts, concurrency: 2 });
      ctl.start();
      ts.schedule(() => expect(ctl.stats().activeWorkers).toBe(2), 8);
      stopAt(ts, 100, ctl, deps);
    });
    // a and b at 5; a changes at 7 and 9 (dirty, held by the first worker): again at 15, before c.
    expect(log).toEqual(['ns/a@5', 'ns/b@5', 'ns/a@15', 'ns/c@15']);
    expect(held.violations).toEqual([]);
    expect(held.maxConcurrent).toBe(2);
  });

  it('a throw requeues with the rate limiter (5, 10, 20 ms), a TerminalError does not; both on errors$ and counted', () => {
    const ts = testScheduler();
    const held = new HeldKeys();
    let failures = 0;
    const { log, reconcile } = recordingReconcile(ts, held, {
      holdMs: 1,
      result: (key) => {
        if (key === 'ns/t') throw new TerminalError('no spec');
        if (++failures <= 3) throw new Error(`boom ${failures}`);
        return undefined;
      },
    });
    const errors: string[] = [];
    let ctl: Controller | undefined;
    ts.run(() => {
      const deps = scriptedInformer(ts, [dep('a', '1'), dep('t', '1')]);
      ctl = controller({
        for: deps,
        reconcile,
        scheduler: ts,
        rateLimiter: itemExponentialFailureRateLimiter({ baseMs: 5 }),
      });
      ctl.errors$.subscribe((e) => errors.push(`${e instanceof ReconcileError ? `${e.key} ${e.terminal} ${e.retries}` : e.code}@${ts.now()}`));
      ctl.start();
      stopAt(ts, 200, ctl, deps);
    });
    // a fails at 5 (done at 6, retry at 11), 12 (retry at 22), 23 (retry at 43) then succeeds; t once.
    expect(log).toEqual(['ns/a@5', 'ns/t@6', 'ns/a@11', 'ns/a@22', 'ns/a@43']);
    expect(errors).toEqual(['ns/a false 0@6', 'ns/t true 0@7', 'ns/a false 1@12', 'ns/a false 2@23']);
    expect(ctl?.stats()).toEqual({
      activeWorkers: 0,
      maxConcurrentReconciles: 1,
      reconcileTotal: { success: 1, error: 4, requeue: 0, requeue_after: 0 },
      reconcileErrorsTotal: 4,
      terminalReconcileErrorsTotal: 1,
      reconcileTimeoutsTotal: 0,
      ownWritesWaitsTotal: 0,
      ownWritesTimeoutsTotal: 0,
    });
    expect(ctl?.queue.numRequeues('ns/a')).toBe(0);
  });

  it('{ requeueAfter } reconciles again after that long; { requeue: true } rate-limited', () => {
    const ts = testScheduler();
    const held = new HeldKeys();
    let runs = 0;
    const { log, reconcile } = recordingReconcile(ts, held, {
      holdMs: 0,
      result: (key) => {
        runs++;
        if (key === 'ns/a') return runs < 3 ? { requeueAfter: 30 } : undefined;
        return runs < 4 ? { requeue: true } : undefined;
      },
    });
    ts.run(() => {
      const deps = scriptedInformer(ts, [dep('a', '1')]);
      const ctl = controller({ for: deps, reconcile, scheduler: ts, rateLimiter: itemExponentialFailureRateLimiter({ baseMs: 7 }) });
      ctl.start();
      ts.schedule(() => ctl.queue.add('ns/b'), 50);
      stopAt(ts, 200, ctl, deps);
    });
    expect(log).toEqual(['ns/a@5', 'ns/a@35', 'ns/b@50', 'ns/b@57', 'ns/a@65']);
  });

  it('reconcileTimeout: a reconcile that runs too long is unsubscribed, its signal aborted, and it is retried', () => {
    const ts = testScheduler();
    const starts: string[] = [];
    const aborted: number[] = [];
    const errors: unknown[] = [];
    ts.run(() => {
      const deps = scriptedInformer(ts, [dep('a', '1')]);
      let n = 0;
      const ctl = controller({
        for: deps,
        scheduler: ts,
        reconcileTimeout: 20,
        rateLimiter: itemExponentialFailureRateLimiter({ baseMs: 5 }),
        reconcile: (key, { signal }) => {
          starts.push(`${key}@${ts.now()}`);
          signal.addEventListener('abort', () => aborted.push(ts.now()));
          return n++ === 0 ? NEVER : timer(1, ts).pipe(map(() => undefined));
        },
      });
      ctl.errors$.subscribe((e) => errors.push(e.cause));
      ctl.start();
      stopAt(ts, 100, ctl, deps);
    });
    expect(starts).toEqual(['ns/a@5', 'ns/a@30']);
    expect(aborted).toEqual([25]);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(ReconcileTimeoutError);
  });

  it('predicates: a status-only update (same generation) does not enqueue with generationChanged', () => {
    const ts = testScheduler();
    const held = new HeldKeys();
    const { log, reconcile } = recordingReconcile(ts, held, { holdMs: 1 });
    ts.run(() => {
      const deps = scriptedInformer(ts, [dep('a', '1', 1)], '10ms s 9ms g', {
        s: modified({ ...dep('a', '2', 1), status: { ready: 1 } }),
        g: modified(dep('a', '3', 2)),
      });
      const ctl = controller({ for: deps, reconcile, scheduler: ts, predicates: [generationChanged] });
      ctl.start();
      stopAt(ts, 100, ctl, deps);
    });
    // The watch starts at 5: s at 15 is dropped, g at 25 passes.
    expect(log).toEqual(['ns/a@5', 'ns/a@25']);
  });

  it('cacheSyncTimeout: informers that never sync fail the controller with CacheSyncTimeoutError', () => {
    const ts = testScheduler();
    const errors: unknown[] = [];
    const statuses: ControllerStatus[] = [];
    let reconciles = 0;
    ts.run(() => {
      const deps = scriptedInformer(ts, [dep('a', '1')], '', {}, '-'); // the list never answers
      const ctl = controller({ for: deps, scheduler: ts, cacheSyncTimeout: 50, reconcile: () => void reconciles++ });
      ctl.errors$.subscribe((e) => errors.push(e));
      ctl.status$.subscribe((s) => statuses.push(s));
      ctl.start();
      ts.schedule(() => void deps.stop(), 60);
    });
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(CacheSyncTimeoutError);
    expect(statuses).toEqual(['idle', 'waitingForSync', 'stopping', 'failed']);
    expect(reconciles).toBe(0);
  });

  it('stop drains: the reconcile in flight finishes, nothing more starts, then status is stopped', () => {
    const ts = testScheduler();
    const held = new HeldKeys();
    const { log, reconcile } = recordingReconcile(ts, held, { holdMs: 20 });
    const statuses: string[] = [];
    ts.run(() => {
      const deps = scriptedInformer(ts, [dep('a', '1'), dep('b', '1')]);
      const ctl = controller({ for: deps, reconcile, scheduler: ts });
      ctl.status$.subscribe((s) => statuses.push(`${s}@${ts.now()}`));
      ctl.start();
      stopAt(ts, 10, ctl, deps);
    });
    expect(log).toEqual(['ns/a@5']);
    expect(statuses).toEqual(['idle@0', 'waitingForSync@0', 'running@5', 'stopping@10', 'stopped@25']);
  });

  it('leading$: keys are queued while not leading and reconciled only while leading', () => {
    const ts = testScheduler();
    const held = new HeldKeys();
    const { log, reconcile } = recordingReconcile(ts, held, { holdMs: 10 });
    const statuses: string[] = [];
    ts.run(({ cold }) => {
      const deps = scriptedInformer(ts, [dep('a', '1'), dep('b', '1')], '25ms x', { x: modified(dep('a', '2', 2)) });
      const leading$ = cold('f 19ms t 9ms f 19ms t', { t: true, f: false });
      const ctl = controller({ for: deps, reconcile, scheduler: ts, leading$ });
      ctl.status$.subscribe((s) => statuses.push(`${s}@${ts.now()}`));
      ctl.start();
      stopAt(ts, 100, ctl, deps);
    });
    // Leading from 20 to 30 and from 50: a runs 20-30; b (initial list: low priority) waits; a,
    // changed at 30 while not leading, is queued at priority 0 and runs first at 50, then b.
    expect(log).toEqual(['ns/a@20', 'ns/a@50', 'ns/b@60']);
    expect(statuses.slice(0, 5)).toEqual(['idle@0', 'waitingForSync@0', 'standby@5', 'running@20', 'standby@30']);
    expect(held.violations).toEqual([]);
  });

  it('keyFilter$: only keys that pass are reconciled; keys that start passing are queued', () => {
    const ts = testScheduler();
    const held = new HeldKeys();
    const { log, reconcile } = recordingReconcile(ts, held, { holdMs: 1 });
    ts.run(() => {
      const deps = scriptedInformer(ts, [dep('a', '1'), dep('b', '1'), dep('c', '1')]);
      const filters = new Subject<(key: string) => boolean>();
      const ctl = controller({ for: deps, reconcile, scheduler: ts, keyFilter$: filters });
      ctl.start();
      ts.schedule(() => filters.next((k) => k === 'ns/a'), 1);
      ts.schedule(() => filters.next((k) => k !== 'ns/a'), 20);
      stopAt(ts, 100, ctl, deps);
    });
    expect(log[0]).toBe('ns/a@5');
    expect(log.slice(1).map((entry) => entry.split('@')[0]).sort()).toEqual(['ns/b', 'ns/c']);
    expect(log.slice(1).map((entry) => entry.split('@')[1])).toEqual(['20', '21']);
  });

  it('a failing leading$ or keyFilter$ is reported (ControllerInputError) and the controller takes the safe side', () => {
    const ts = testScheduler();
    const held = new HeldKeys();
    const { log, reconcile } = recordingReconcile(ts, held, { holdMs: 1 });
    const errors: string[] = [];
    const statuses: string[] = [];
    ts.run(({ cold }) => {
      const deps = scriptedInformer(ts, [dep('a', '1')], '20ms x', { x: modified(dep('a', '2', 2)) });
      const ctl = controller({ for: deps, reconcile, scheduler: ts, leading$: cold('t 9ms #', { t: true }, new Error('lease lost')) });
      ctl.errors$.subscribe((e) => errors.push(`${e instanceof ControllerInputError ? e.input : e.code}@${ts.now()}`));
      ctl.status$.subscribe((s) => statuses.push(`${s}@${ts.now()}`));
      ctl.start();
      const filtered = scriptedInformer(ts, [dep('b', '1')]);
      const other = controller({ for: filtered, reconcile, scheduler: ts, keyFilter$: cold('#', {}, new Error('ring broken')) });
      other.errors$.subscribe((e) => errors.push(`${e instanceof ControllerInputError ? e.input : e.code}@${ts.now()}`));
      other.start();
      stopAt(ts, 100, ctl, deps);
      stopAt(ts, 100, other, filtered);
    });
    // a reconciled at 5 while leading; its change at 25 is not (leading$ failed at 10).
    expect(log).toEqual(['ns/a@5']);
    expect(errors.sort()).toEqual(['keyFilter$@0', 'leading$@10']);
    expect(statuses).toContain('standby@10');
  });
});
