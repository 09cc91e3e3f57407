// The controller as an Observable, on virtual time: any Observable of keys is a source (given at
// construction or added while running), a source that ends is reported and the others go on, and
// results$ is the run's stream of reconcile reports.
import { describe, expect, it } from '@jest/globals';
import { map } from 'rxjs';
import { controller, type Controller } from '../../lib/controller/controller.js';
import { ControllerSourceError } from '../../lib/controller/controllerSourceError.js';
import { ControllerSources } from '../../lib/controller/controllerSources.js';
import { controllerResults } from '../../lib/controller/controllerResults.js';
import { SOURCE_SYNCED, type KeySource } from '../../lib/controller/keySource.js';
import { TerminalError } from '../../lib/controller/terminalError.js';
import { dep, modified, scriptedInformer, testScheduler } from './support.js';

const errorsOf = (ctl: Controller) => {
  const seen: string[] = [];
  ctl.errors$.subscribe((e) => seen.push(e instanceof ControllerSourceError ? `${e.source}:${e.reason}` : e.code));
  return seen;
};

describe('controller sources and results$ (marble tests, virtual time)', () => {
  it('results$: one report per reconcile, in virtual time, from which errors$ derives its reconcile errors', () => {
    const ts = testScheduler();
    ts.run(({ cold, expectObservable }) => {
      const deps = scriptedInformer(ts, [dep('a', '1')], '10ms x', { x: modified(dep('a', '2')) });
      const ctl = controller({
        for: deps,
        scheduler: ts,
        sources: [cold('20ms k', { k: 'ns/bad' })],
        reconcile: (key) => {
          if (key === 'ns/bad') throw new TerminalError('no such thing');
          return key === 'ns/a' && ts.now() === 5 ? { requeueAfter: 30 } : undefined;
        },
      });
      // The list arrives at 5: a reconciled (to be requeued after 30 ms); the watch changes a at 15
      // (reconciled at once: the earlier time wins, the requeue at 35 is merged into it), the
      // source sends ns/bad at 20; stop at 100 completes the stream.
      expectObservable(ctl.results$.pipe(map((r) => `${r.key}:${r.result}${r.requeueAfterMs ? `+${r.requeueAfterMs}` : ''}`))).toBe(
        '5ms a 9ms b 4ms c 79ms |',
        { a: 'ns/a:requeue_after+30', b: 'ns/a:success', c: 'ns/bad:error' },
      );
      expectObservable(ctl.errors$.pipe(map((e) => e.code))).toBe('20ms e 79ms |', { e: 'ReconcileError' });
      ctl.start();
      ts.schedule(() => void Promise.all([ctl.stop(), deps.stop()]), 100);
    });
  });

  it('any Observable of keys triggers reconciles; it does not hold the first reconcile back; priorities are kept', () => {
    const ts = testScheduler();
    const log: string[] = [];
    ts.run(({ cold }) => {
      const deps = scriptedInformer(ts, [], '', {}, '30ms (p|)');
      const source: KeySource = cold('1ms a 1ms b 9ms c', { a: 'ns/low', b: { key: 'ns/high', priority: 10 }, c: 'ns/late' });
      const ctl = controller({
        for: deps,
        scheduler: ts,
        sources: [source],
        reconcile: (key) => void log.push(`${key}@${ts.now()}`),
      });
      ctl.start();
      ts.schedule(() => void Promise.all([ctl.stop(), deps.stop()]), 100);
    });
    // The for informer syncs at 30: the keys queued before then go in priority order.
    expect(log).toEqual(['ns/high@30', 'ns/low@30', 'ns/late@30']);
  });

  it('a source that completes or errors is reported on errors$; the controller and its other sources go on', () => {
    const ts = testScheduler();
    const log: string[] = [];
    let errors: string[] = [];
    ts.run(({ cold }) => {
      const deps = scriptedInformer(ts, []);
      const ctl = controller({
        for: deps,
        scheduler: ts,
        sources: [cold('10ms a|', { a: 'ns/a' }), cold('12ms b #', { b: 'ns/b' }, new Error('queue gone')), cold('30ms c', { c: 'ns/c' })],
        reconcile: (key) => void log.push(`${key}@${ts.now()}`),
      });
      errors = errorsOf(ctl);
      ctl.start();
      ts.schedule(() => void Promise.all([ctl.stop(), deps.stop()]), 100);
    });
    expect(log).toEqual(['ns/a@10', 'ns/b@12', 'ns/c@30']);
    expect(errors).toEqual(['sources[0]:complete', 'sources[1]:error']);
  });

  it('addSource while running: its keys trigger reconciles until its subscription is removed; what is no key is skipped and reported', () => {
    const ts = testScheduler();
    const log: string[] = [];
    let errors: string[] = [];
    ts.run(({ cold }) => {
      const deps = scriptedInformer(ts, [dep('a', '1')]);
      const ctl = controller({ for: deps, scheduler: ts, reconcile: (key) => void log.push(`${key}@${ts.now()}`) });
      errors = errorsOf(ctl);
      ctl.start();
      ts.schedule(() => {
        const added = ctl.addSource(cold('1ms x 9ms y 9ms z 9ms w', { x: 'ns/x', y: 42 as unknown as string, z: SOURCE_SYNCED, w: 'ns/w' }), 'webhook');
        ts.schedule(() => added.unsubscribe(), 25);
      }, 20);
      ts.schedule(() => void Promise.all([ctl.stop(), deps.stop()]), 100);
    });
    expect(log).toEqual(['ns/a@5', 'ns/x@21']);
    expect(errors).toEqual(['webhook:invalidKey']);
  });

  it('after stop, addSource subscribes nothing (the answer is closed)', () => {
    const ts = testScheduler();
    const log: string[] = [];
    ts.run(({ cold }) => {
      const deps = scriptedInformer(ts, [dep('a', '1')]);
      const ctl = controller({ for: deps, scheduler: ts, reconcile: (key) => void log.push(`${key}@${ts.now()}`) });
      ctl.start();
      ts.schedule(() => void Promise.all([ctl.stop(), deps.stop()]), 50);
      ts.schedule(() => expect(ctl.addSource(cold('a', { a: 'ns/z' })).closed).toBe(true), 60);
    });
    expect(log).toEqual(['ns/a@5']);
  });

  it("a predicate that throws is the controller's error (keysFailed on its errors$), not the informer's; that change triggers nothing, the others do", () => {
    const ts = testScheduler();
    const reconciled: string[] = [];
    let seen: string[] = [];
    const informerErrors: unknown[] = [];
    ts.run(() => {
      const deps = scriptedInformer(ts, [dep('a', '1'), dep('bad', '1')], '10ms x', { x: modified(dep('a', '2', 2)) });
      deps.errors$.subscribe((e) => informerErrors.push(e));
      const ctl = controller({
        for: deps,
        scheduler: ts,
        predicates: [
          (n) => {
            if (n.type === 'add' && n.object.metadata.name === 'bad') throw new Error('predicate bug');
            return true;
          },
        ],
        reconcile: (key) => {
          reconciled.push(`${key}@${ts.now()}`);
        },
      });
      seen = errorsOf(ctl);
      ctl.start();
      ts.schedule(() => void Promise.all([ctl.stop(), deps.stop()]), 50);
    });
    expect(seen).toEqual(['for:keysFailed']);
    expect(informerErrors).toEqual([]);
    expect(reconciled).toEqual(['ns/a@5', 'ns/a@15']);
  });

  it('an informer source that ends before it has synced counts as synced: the controller is not held back forever', () => {
    const ts = testScheduler();
    const events: string[] = [];
    ts.run(({ cold }) => {
      const sources = new ControllerSources({
        name: 'c',
        enqueue: (key) => events.push(`${key}@${ts.now()}`),
        synced: () => events.push(`synced@${ts.now()}`),
      });
      sources.errors$.subscribe({
        next: (e) => events.push(`${e.source}:${e.reason}@${ts.now()}`),
        complete: () => events.push(`errors$ complete@${ts.now()}`),
      });
      sources.add(cold('5ms (S|)', { S: SOURCE_SYNCED }), 'for', true);
      sources.add(cold('2ms a 5ms #', { a: 'ns/a' }, new Error('informer stopped')), 'owns[0]', true);
      sources.start();
      ts.schedule(() => sources.close(), 20);
    });
    expect(events).toEqual(['ns/a@2', 'for:complete@5', 'owns[0]:error@8', 'synced@8', 'errors$ complete@20']);
  });

  it('controllerResults: a cold stream of reports; subscribing starts the controller, unsubscribing stops it', () => {
    const ts = testScheduler();
    const log: string[] = [];
    ts.run(({ cold, expectObservable }) => {
      const deps = scriptedInformer(ts, [dep('a', '1')]);
      const run$ = controllerResults({
        for: deps,
        scheduler: ts,
        sources: [cold('10ms b 9ms c 19ms d', { b: 'ns/b', c: 'ns/c', d: 'ns/d' })],
        reconcile: (key) => void log.push(`${key}@${ts.now()}`),
      });
      // Unsubscribed at 30: d (at 40) is never reconciled.
      expectObservable(run$.pipe(map((r) => r.key)), '^ 29ms !').toBe('5ms a 4ms b 9ms c', { a: 'ns/a', b: 'ns/b', c: 'ns/c' });
      ts.schedule(() => void deps.stop(), 100);
    });
    expect(log).toEqual(['ns/a@5', 'ns/b@10', 'ns/c@20']);
  });
});
