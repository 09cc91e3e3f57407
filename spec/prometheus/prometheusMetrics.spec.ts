import { describe, expect, it } from '@jest/globals';
import { Registry } from 'prom-client';
import { NEVER } from 'rxjs';
import { controller } from '../../lib/controller/controller.js';
import { TerminalError } from '../../lib/controller/terminalError.js';
import { prometheusMetrics } from '../../lib/prometheus/index.js';
import { itemExponentialFailureRateLimiter } from '../../lib/workqueue/itemExponentialFailureRateLimiter.js';
import { workQueue } from '../../lib/workqueue/workQueue.js';
import { HeldKeys, dep, recordingReconcile, scriptedInformer, testScheduler } from '../controller/support.js';

const line = (text: string, prefix: string) => text.split('\n').find((l) => l.startsWith(prefix));

describe('rxkube/prometheus on a real prom-client Registry', () => {
  it('controller and work queue metrics under controller-runtime / client-go names, informer metrics from its public API', async () => {
    const ts = testScheduler();
    const registry = new Registry();
    const metrics = prometheusMetrics(registry);
    const held = new HeldKeys();
    let failed = false;
    const { reconcile } = recordingReconcile(ts, held, {
      holdMs: 100,
      result: (key) => {
        if (key === 'ns/t') throw new TerminalError('bad');
        if (key === 'ns/a' && !failed) {
          failed = true;
          throw new Error('once');
        }
        return key === 'ns/b' ? { requeueAfter: 1000 } : undefined;
      },
    });
    let removeInformer: (() => void) | undefined;
    ts.run(() => {
      const deps = scriptedInformer(ts, [dep('a', '1'), dep('b', '1'), dep('t', '1')]);
      const ctl = controller({
        name: 'deps',
        for: deps,
        reconcile,
        scheduler: ts,
        concurrency: 2,
        rateLimiter: itemExponentialFailureRateLimiter({ baseMs: 5 }),
      });
      metrics.addController(ctl);
      removeInformer = metrics.addInformer(deps, {
        name: 'deps',
        group: 'apps',
        version: 'v1',
        resource: 'deployments',
      });
      ctl.start();
      ts.schedule(() => {
        void ctl.stop();
        void deps.stop();
      }, 500);
    });
    const text = await registry.metrics();
    // a fails once then succeeds, b requeues after 1 s (not reached before stop), t is terminal.
    expect(line(text, 'controller_runtime_reconcile_total{controller="deps",result="success"}')).toMatch(
      / 1$/,
    );
    expect(line(text, 'controller_runtime_reconcile_total{controller="deps",result="error"}')).toMatch(/ 2$/);
    expect(
      line(text, 'controller_runtime_reconcile_total{controller="deps",result="requeue_after"}'),
    ).toMatch(/ 1$/);
    expect(line(text, 'controller_runtime_reconcile_errors_total{controller="deps"}')).toMatch(/ 2$/);
    expect(line(text, 'controller_runtime_terminal_reconcile_errors_total{controller="deps"}')).toMatch(
      / 1$/,
    );
    expect(line(text, 'controller_runtime_reconcile_timeouts_total{controller="deps"}')).toMatch(/ 0$/);
    expect(line(text, 'controller_runtime_reconcile_time_seconds_count{controller="deps"}')).toMatch(/ 4$/);
    // Each reconcile held 100 virtual ms.
    expect(line(text, 'controller_runtime_reconcile_time_seconds_sum{controller="deps"}')).toMatch(/ 0\.4$/);
    expect(line(text, 'controller_runtime_max_concurrent_reconciles{controller="deps"}')).toMatch(/ 2$/);
    expect(line(text, 'controller_runtime_active_workers{controller="deps"}')).toMatch(/ 0$/);
    expect(line(text, 'workqueue_adds_total{name="deps",controller="deps"}')).toMatch(/ 4$/);
    expect(line(text, 'workqueue_retries_total{name="deps",controller="deps"}')).toMatch(/ 1$/);
    expect(line(text, 'workqueue_work_duration_seconds_count{name="deps",controller="deps"}')).toMatch(/ 4$/);
    expect(line(text, 'workqueue_queue_duration_seconds_count{name="deps",controller="deps"}')).toMatch(
      / 4$/,
    );
    expect(line(text, 'workqueue_depth{name="deps",controller="deps",priority="0"}')).toMatch(/ \d+$/);
    expect(line(text, 'workqueue_unfinished_work_seconds{name="deps",controller="deps"}')).toMatch(/ 0$/);
    expect(line(text, 'workqueue_longest_running_processor_seconds{name="deps",controller="deps"}')).toMatch(
      / 0$/,
    );
    expect(
      line(
        text,
        'informer_store_resource_version{name="deps",group="apps",version="v1",resource="deployments"}',
      ),
    ).toMatch(/ 1$/);
    expect(
      line(text, 'informer_queued_items{name="deps",group="apps",version="v1",resource="deployments"}'),
    ).toMatch(/ 0$/);
    expect(
      line(text, 'rxkube_informer_store_items{name="deps",group="apps",version="v1",resource="deployments"}'),
    ).toMatch(/ 3$/);
    removeInformer?.();
    expect(line(await registry.metrics(), 'informer_store_resource_version{')).toBeUndefined();
  });

  it('gauges are read at scrape time: depth and in-flight ages of a standalone queue', async () => {
    let now = 0;
    const scheduler = {
      now: () => now,
      schedule: () => {
        throw new Error('no timers in this test');
      },
    };
    const registry = new Registry();
    const q = workQueue<string>({ name: 'jobs', scheduler: scheduler as never });
    q.add('a');
    q.add('b');
    q.add('low', { priority: -100 });
    const remove = prometheusMetrics(registry).addWorkQueue(q);
    q.tryGet();
    now = 2500;
    const text = await registry.metrics();
    // Per priority level, as controller-runtime's priority queue.
    expect(line(text, 'workqueue_depth{name="jobs",controller="jobs",priority="0"}')).toMatch(/ 1$/);
    expect(line(text, 'workqueue_depth{name="jobs",controller="jobs",priority="-100"}')).toMatch(/ 1$/);
    expect(line(text, 'workqueue_adds_total{name="jobs",controller="jobs"}')).toMatch(/ 3$/);
    expect(line(text, 'workqueue_longest_running_processor_seconds{name="jobs",controller="jobs"}')).toMatch(
      / 2\.5$/,
    );
    remove();
    expect(line(await registry.metrics(), 'workqueue_depth{')).toBeUndefined();
  });

  it('controller_runtime_reconcile_timeouts_total counts reconciles past reconcileTimeout', async () => {
    const ts = testScheduler();
    const registry = new Registry();
    const metrics = prometheusMetrics(registry);
    let runs = 0;
    ts.run(() => {
      const deps = scriptedInformer(ts, [dep('a', '1')]);
      const ctl = controller({
        name: 'slow',
        for: deps,
        scheduler: ts,
        reconcileTimeout: 10,
        logger: false,
        rateLimiter: itemExponentialFailureRateLimiter({ baseMs: 5 }),
        reconcile: () => (++runs <= 2 ? NEVER : undefined),
      });
      metrics.addController(ctl);
      ctl.start();
      ts.schedule(() => {
        void ctl.stop();
        void deps.stop();
      }, 200);
    });
    const text = await registry.metrics();
    expect(line(text, 'controller_runtime_reconcile_timeouts_total{controller="slow"}')).toMatch(/ 2$/);
    expect(line(text, 'controller_runtime_reconcile_errors_total{controller="slow"}')).toMatch(/ 2$/);
  });
});
