// Controller parity from issue 28 on virtual time: a 429 with Retry-After requeues after the
// server's Retry-After (not the rate limiter's schedule), every reconcile has its own ID (in the
// context, the errors and the log), and reconcile timeouts are counted
// (controller_runtime_reconcile_timeouts_total).
import { describe, expect, it } from '@jest/globals';
import { NEVER } from 'rxjs';
import { controller, type Controller } from '../../lib/controller/controller.js';
import { ReconcileError } from '../../lib/controller/controllerErrors.js';
import type { ReconcileMetricEvent } from '../../lib/controller/controllerMetrics.js';
import { ApiStatusError } from '../../lib/errors.js';
import type { Informer } from '../../lib/informer/informer.js';
import { itemExponentialFailureRateLimiter } from '../../lib/workqueue/itemExponentialFailureRateLimiter.js';
import { HeldKeys, dep, recordingReconcile, scriptedInformer, testScheduler, type Obj } from './support.js';

function stopAt(ts: { schedule: (f: () => void, ms: number) => unknown }, atMs: number, ctl: Controller, ...infs: Informer<Obj>[]) {
  ts.schedule(() => {
    void ctl.stop();
    for (const inf of infs) void inf.stop();
  }, atMs);
}

/** What client-node 1.x throws for an HTTP error: ApiException(code, message, body, headers). */
class ApiExceptionLike extends Error {
  constructor(
    readonly code: number,
    readonly body: unknown,
    readonly headers: Record<string, string>,
  ) {
    super(`HTTP-Code: ${code}`);
  }
}

describe('controller: Retry-After, reconcile IDs, timeouts (issue 28)', () => {
  it("a 429 with Retry-After from a reconcile's write is requeued after the server's Retry-After, not the limiter's 5 ms", () => {
    const ts = testScheduler();
    const held = new HeldKeys();
    const runs = new Map<string, number>();
    const { log, reconcile } = recordingReconcile(ts, held, {
      holdMs: 1,
      result: (key) => {
        runs.set(key, (runs.get(key) ?? 0) + 1);
        if (key === 'ns/a' && runs.get(key) === 1) throw new ApiStatusError({ code: 429, reason: 'TooManyRequests' }, { retryAfterSeconds: 3 });
        if (key === 'ns/b' && (runs.get(key) ?? 0) <= 2) throw new Error('write failed', { cause: new ApiExceptionLike(429, '', { 'Retry-After': '2' }) });
        return undefined;
      },
    });
    const errors: unknown[] = [];
    ts.run(() => {
      const deps = scriptedInformer(ts, [dep('a', '1')]);
      const ctl = controller({ for: deps, reconcile, scheduler: ts, rateLimiter: itemExponentialFailureRateLimiter({ baseMs: 5 }) });
      ctl.errors$.subscribe((e) => errors.push(e));
      ctl.start();
      ts.schedule(() => ctl.queue.add('ns/b'), 4000);
      stopAt(ts, 10_000, ctl, deps);
    });
    // a fails at 5 (done at 6): again 3 s later. b fails at 4000 and 4001+2000 (client-node's header, wrapped as a cause).
    expect(log).toEqual(['ns/a@5', 'ns/a@3006', 'ns/b@4000', 'ns/b@6001', 'ns/b@8002']);
    expect(errors).toHaveLength(3);
    expect(errors.every((e) => e instanceof ReconcileError && !e.terminal)).toBe(true);
  });

  it('every reconcile gets its own reconcile ID, in its context, its ReconcileError, its metric event and the log', () => {
    const ts = testScheduler();
    const held = new HeldKeys();
    const ids: string[] = [];
    let runs = 0;
    const { reconcile } = recordingReconcile(ts, held, {
      holdMs: 1,
      result: (_key, ctx) => {
        ids.push(ctx.reconcileId);
        if (++runs === 1) throw new Error('first try fails');
        return undefined;
      },
    });
    const errors: ReconcileError[] = [];
    const events: ReconcileMetricEvent[] = [];
    const lines: string[] = [];
    ts.run(() => {
      const deps = scriptedInformer(ts, [dep('a', '1'), dep('b', '1')]);
      const ctl = controller({
        for: deps,
        reconcile,
        scheduler: ts,
        rateLimiter: itemExponentialFailureRateLimiter({ baseMs: 5 }),
        logger: { error: (message) => lines.push(message) },
      });
      ctl.errors$.subscribe((e) => errors.push(e as ReconcileError));
      ctl.metrics$.subscribe((m) => void (m.type === 'reconcile' && events.push(m)));
      ctl.start();
      stopAt(ts, 100, ctl, deps);
    });
    expect(ids).toHaveLength(3);
    expect(new Set(ids).size).toBe(3);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(errors.map((e) => e.reconcileId)).toEqual([ids[0]]);
    expect(events.map((m) => m.reconcileId)).toEqual(ids);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`reconcileID ${ids[0]}`);
  });

  it('reconcile timeouts are counted (stats and metric events), apart from other errors', () => {
    const ts = testScheduler();
    const events: ReconcileMetricEvent[] = [];
    let ctl: Controller | undefined;
    let runs = 0;
    ts.run(() => {
      const deps = scriptedInformer(ts, [dep('a', '1')]);
      ctl = controller({
        for: deps,
        scheduler: ts,
        reconcileTimeout: 20,
        rateLimiter: itemExponentialFailureRateLimiter({ baseMs: 5 }),
        logger: false,
        reconcile: () => {
          runs++;
          if (runs <= 2) return NEVER; // times out
          if (runs === 3) throw new Error('plain failure');
          return undefined;
        },
      });
      ctl.metrics$.subscribe((m) => void (m.type === 'reconcile' && events.push(m)));
      ctl.start();
      stopAt(ts, 500, ctl, deps);
    });
    expect(events.map((m) => [m.result, m.timeout])).toEqual([
      ['error', true],
      ['error', true],
      ['error', false],
      ['success', false],
    ]);
    expect(ctl?.stats()).toMatchObject({ reconcileErrorsTotal: 3, reconcileTimeoutsTotal: 2 });
  });
});
