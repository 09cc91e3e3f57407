// Read-your-own-writes on virtual time: a key's next reconcile waits until the informer shows the
// writes its last reconcile recorded, bounded by readYourWritesTimeout.
import { describe, expect, it } from '@jest/globals';
import { controller, type Controller, type ControllerOptions } from '../../lib/controller/controller.js';
import type { ControllerMetricEvent } from '../../lib/controller/controllerMetrics.js';
import { OwnWritesTimeoutError } from '../../lib/controller/ownWritesTimeoutError.js';
import type { ReconcileContext } from '../../lib/controller/reconciler.js';
import type { Informer } from '../../lib/informer/informer.js';
import type { WatchEvent } from '../../lib/listwatch/watchEvent.js';
import { dep, modified, scriptedInformer, testScheduler, type Obj } from './support.js';

const deploymentKind = { apiVersion: 'apps/v1', kind: 'Deployment' };

interface Run {
  log: string[];
  errors: unknown[];
  metrics: ControllerMetricEvent[];
}

/**
 * dep a (rv 1) is listed at 5; the watch plays `watchMarble` from then on (frames after 5). The
 * first reconcile of a calls `write(ctx)`; every reconcile logs `key@time:rv` (rv read).
 */
function scenario(
  watchMarble: string,
  events: Record<string, WatchEvent<Obj>>,
  write: (ctx: ReconcileContext<Obj>) => void,
  options: Partial<ControllerOptions<Obj>> = {},
  initial: Obj[] = [dep('a', '1')],
): Run {
  const ts = testScheduler();
  const run: Run = { log: [], errors: [], metrics: [] };
  ts.run(() => {
    const deps: Informer<Obj> = scriptedInformer(ts, initial, watchMarble, events);
    let first = true;
    const ctl: Controller = controller({
      for: deps,
      forKind: deploymentKind,
      scheduler: ts,
      reconcile: (key, ctx) => {
        run.log.push(`${key}@${ts.now()}:${ctx.object?.metadata.resourceVersion ?? 'gone'}`);
        if (first) write(ctx);
        first = false;
      },
      ...options,
    });
    ctl.errors$.subscribe((e) => run.errors.push(e));
    ctl.metrics$.subscribe((m) => run.metrics.push(m));
    ctl.start();
    ts.schedule(() => {
      void ctl.stop();
      void deps.stop();
    }, 200);
  });
  return run;
}

// Another writer's change (rv 2) reaches the cache at 10, the controller's own write (rv 3) at 30.
const churn = { x: modified(dep('a', '2')), y: modified(dep('a', '3')) };

describe('read-your-own-writes (marble tests, virtual time)', () => {
  it('the next reconcile waits until the informer has seen the write (a later change of another writer does not count)', () => {
    const run = scenario('5ms x 19ms y', churn, (ctx) => ctx.wrote(dep('a', '3')));
    // a is queued again at 10 (rv 2, older than its own write rv 3): reconciled at 30, on rv 3.
    expect(run.log).toEqual(['ns/a@5:1', 'ns/a@30:3']);
    expect(run.metrics.filter((m) => m.type === 'ownWritesWait')).toEqual([{ type: 'ownWritesWait', seconds: 0.02, timedOut: false }]);
    expect(run.errors).toEqual([]);
  });

  it('a write the informer has already shown when the key comes up again: no wait', () => {
    const run = scenario('5ms x 19ms y', churn, (ctx) => ctx.wrote(dep('a', '2')));
    expect(run.log).toEqual(['ns/a@5:1', 'ns/a@10:2', 'ns/a@30:3']);
    expect(run.metrics.filter((m) => m.type === 'ownWritesWait')).toEqual([{ type: 'ownWritesWait', seconds: 0, timedOut: false }]);
  });

  it('off (readYourWrites: false), the same reconcile acts on the stale rv 2 at once', () => {
    const run = scenario('5ms x 19ms y', churn, (ctx) => ctx.wrote(dep('a', '3')), { readYourWrites: false });
    expect(run.log).toEqual(['ns/a@5:1', 'ns/a@10:2', 'ns/a@30:3']);
  });

  it('a version the informer never shows holds the key only up to readYourWritesTimeout, then reconciles and reports', () => {
    const run = scenario('5ms x', churn, (ctx) => ctx.wrote(dep('a', '99')), { readYourWritesTimeout: 40 });
    expect(run.log).toEqual(['ns/a@5:1', 'ns/a@50:2']);
    expect(run.metrics.filter((m) => m.type === 'ownWritesWait')).toEqual([{ type: 'ownWritesWait', seconds: 0.04, timedOut: true }]);
    expect(run.errors).toHaveLength(1);
    const e = run.errors[0] as OwnWritesTimeoutError;
    expect(e).toBeInstanceOf(OwnWritesTimeoutError);
    expect([e.key, e.timeoutMs, e.pending.map((w) => w.resourceVersion)]).toEqual(['ns/a', 40, ['99']]);
    expect(e.message).toMatch(/ns\/a@99.*within 40 ms; reconciling it anyway/);
  });

  it('an object without resourceVersion: seen once the cached version differs from the one before the write', () => {
    const noVersion = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'a', namespace: 'ns' } };
    const run = scenario('5ms x', churn, (ctx) => ctx.wrote(noVersion), { readYourWritesTimeout: 40 });
    expect(run.log).toEqual(['ns/a@5:1', 'ns/a@10:2']);
    expect(run.errors).toEqual([]);
  });

  it('versions that are not decimal integers (pre-1.35 servers): seen when the cached version differs from the one before the write', () => {
    const opaque = { x: modified(dep('a', 'v-b')), y: modified(dep('a', 'v-c')) };
    const run = scenario('5ms x 19ms y', opaque, (ctx) => ctx.wrote(dep('a', 'v-c')), {}, [dep('a', 'v-a')]);
    // The fallback cannot tell v-b (another writer) from its own write: it goes at 10, as documented.
    expect(run.log).toEqual(['ns/a@5:v-a', 'ns/a@10:v-b', 'ns/a@30:v-c']);
  });

  it('a deletion counts as seen once the informer has seen the delete', () => {
    const events = { d: { type: 'DELETED' as const, object: dep('a', '4') } };
    const run = scenario('5ms x 19ms d', { ...churn, ...events }, (ctx) => ctx.wrote(dep('a', '1'), { deleted: true }));
    expect(run.log).toEqual(['ns/a@5:1', 'ns/a@30:gone']);
  });

  it('writes of a kind none of its informers watches are not waited for', () => {
    const secret = { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'a', namespace: 'ns', resourceVersion: '50' } };
    const run = scenario('5ms x', churn, (ctx) => ctx.wrote(secret));
    expect(run.log).toEqual(['ns/a@5:1', 'ns/a@10:2']);
    expect(run.metrics.filter((m) => m.type === 'ownWritesWait')).toEqual([]);
  });

  it('stop() while a key waits lets it go unreconciled, without waiting for the bound', () => {
    const ts = testScheduler();
    const log: string[] = [];
    const statuses: string[] = [];
    ts.run(() => {
      const deps = scriptedInformer(ts, [dep('a', '1')], '5ms x', churn);
      let first = true;
      const ctl = controller({
        for: deps,
        forKind: deploymentKind,
        scheduler: ts,
        reconcile: (key, ctx) => {
          log.push(`${key}@${ts.now()}`);
          if (first) ctx.wrote(dep('a', '99'));
          first = false;
        },
      });
      ctl.status$.subscribe((s) => statuses.push(`${s}@${ts.now()}`));
      ctl.start();
      ts.schedule(() => {
        void ctl.stop();
        void deps.stop();
      }, 20);
    });
    expect(log).toEqual(['ns/a@5']);
    expect(statuses.slice(-2)).toEqual(['stopping@20', 'stopped@20']);
  });
});
