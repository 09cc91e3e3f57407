// One span per reconcile, linked to exactly the changes the work queue coalesced into it, on the
// TestScheduler's virtual time (the spans carry the controller's clock).
import { afterEach, describe, expect, it } from '@jest/globals';
import { SpanKind } from '@opentelemetry/api';
import { controller } from '../../lib/controller/controller.js';
import { HeldKeys, added, dep, modified, ownerRef, pod, recordingReconcile, scriptedInformer, testScheduler } from '../controller/support.js';
import { epochScheduler, inMemoryTracing, linkText, ms, type InMemoryTracing } from './support.js';

const deploymentKind = { apiVersion: 'apps/v1', kind: 'Deployment' };
let traced: InMemoryTracing | undefined;

afterEach(async () => {
  await traced?.shutdown();
  traced = undefined;
});

describe('reconcile spans (marble tests)', () => {
  it('links each reconcile to the changes coalesced into it: for and owns, with resourceVersion and event type', () => {
    traced = inMemoryTracing();
    const { tracing } = traced;
    const ts = testScheduler();
    const held = new HeldKeys();
    const { log, reconcile } = recordingReconcile(ts, held, { holdMs: 10 });
    ts.run(() => {
      // The lists arrive at 5; web's reconcile runs 5..15. While it runs, web changes twice (12,
      // 14) and a pod it owns is added (13): one more reconcile of web, linked to all three.
      const deps = scriptedInformer(ts, [dep('web', '1'), dep('db', '1')], '7ms x 1ms - y', {
        x: modified(dep('web', '2', 2)),
        y: modified(dep('web', '3', 3)),
      });
      const pods = scriptedInformer(ts, [], '8ms p', { p: added(pod('p1', '4', [ownerRef('web')])) });
      const ctl = controller({ name: 'deps', for: deps, forKind: deploymentKind, owns: [pods], reconcile, scheduler: epochScheduler(ts), tracing });
      ctl.start();
      ts.schedule(() => {
        void ctl.stop();
        void deps.stop();
        void pods.stop();
      }, 100);
    });
    expect(log).toEqual(['ns/web@5', 'ns/web@15', 'ns/db@25']);
    const spans = traced.spans();
    expect(spans.map((s) => `${s.name} ${String(s.attributes['rxkube.reconcile.key'])} ${ms(s.startTime)}..${ms(s.endTime)}`)).toEqual([
      'reconcile deps ns/web 5..15',
      'reconcile deps ns/web 15..25',
      'reconcile deps ns/db 25..35',
    ]);
    expect(spans.map((s) => s.links.map(linkText))).toEqual([
      ['for ADDED Deployment web@1'],
      ['for MODIFIED Deployment web@2', 'owns[0] ADDED Pod p1@4', 'for MODIFIED Deployment web@3'],
      ['for ADDED Deployment db@1'],
    ]);
    const [first, second] = spans;
    expect(second.kind).toBe(SpanKind.CONSUMER);
    expect(second.parentSpanContext).toBeUndefined(); // a new root (KEP-5915), linked, not a child
    expect(second.attributes).toMatchObject({
      'rxkube.controller': 'deps',
      'rxkube.reconcile.key': 'ns/web',
      'k8s.namespace.name': 'ns',
      'rxkube.reconcile.priority': 0,
      'rxkube.reconcile.retries': 0,
      'rxkube.reconcile.changes': 3,
      'rxkube.reconcile.queued_ms': 3, // from the first change (12) to the take (15)
      'rxkube.reconcile.result': 'success',
    });
    expect(typeof second.attributes['rxkube.reconcile.id']).toBe('string');
    expect(second.attributes['rxkube.reconcile.id']).not.toBe(first.attributes['rxkube.reconcile.id']);
  });

  it("shows the wait for the reconcile's own writes as a child span, from the take to the write's event", () => {
    traced = inMemoryTracing();
    const { tracing } = traced;
    const ts = testScheduler();
    const held = new HeldKeys();
    let round = 0;
    const { log, reconcile } = recordingReconcile(ts, held, {
      holdMs: 10,
      // The first reconcile writes web at resourceVersion 2 and asks to run again 1 ms later:
      // the next one waits until the informer shows version 2 (its event comes at 5 + 15 = 20).
      result: (_key, ctx) => {
        if (++round > 1) return undefined;
        ctx.wrote(dep('web', '2', 2));
        return { requeueAfter: 1 };
      },
    });
    ts.run(() => {
      const deps = scriptedInformer(ts, [dep('web', '1')], '15ms x', { x: modified(dep('web', '2', 2)) });
      const ctl = controller({ name: 'deps', for: deps, reconcile, scheduler: epochScheduler(ts), tracing });
      ctl.start();
      ts.schedule(() => {
        void ctl.stop();
        void deps.stop();
      }, 100);
    });
    expect(log).toEqual(['ns/web@5', 'ns/web@20']);
    const spans = traced.spans();
    const text = (s: (typeof spans)[number]) => `${s.name} ${ms(s.startTime)}..${ms(s.endTime)}`;
    const [first, wait, second] = spans;
    expect(spans.map(text)).toEqual(['reconcile deps 5..15', 'read-your-own-writes wait 16..20', 'reconcile deps 16..30']);
    expect(first.attributes).toMatchObject({ 'rxkube.reconcile.result': 'requeue_after', 'rxkube.reconcile.requeue_after_ms': 1 });
    expect(wait.parentSpanContext?.spanId).toBe(second.spanContext().spanId);
    // A requeue is no change: the second reconcile links to none (its own write's event ended its wait).
    expect(second.links).toEqual([]);
    expect(second.attributes['rxkube.reconcile.queued_ms']).toBeUndefined();
  });
});
