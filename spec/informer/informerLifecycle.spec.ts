import { describe, expect, it } from '@jest/globals';
import { map } from 'rxjs';
import { informer } from '../../lib/informer/informer.js';
import type { WatchEvent } from '../../lib/listwatch/watchEvent.js';
import { fakeListWatch, listPage } from '../../lib/testing/marbles.js';
import { added, at, fast, modified, pod, stopAt, testScheduler, type Pod } from './support.js';

// Start by subscription, stop, and indexers added to a running informer.
describe('informer: lifecycle', () => {
  it('start by subscription: store$ starts the informer, replays the current snapshot, and the last unsubscribe idles it and aborts the requests', () => {
    testScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const list = cold('-(p|)', { p: listPage([pod('a', '1')], '1') });
      const watch = cold('---m', { m: modified(pod('a', '2')) });
      const inf = informer(fakeListWatch<Pod>({ lists: [list], watches: [watch] }), fast);
      expectObservable(
        inf.store$.pipe(
          map((s) =>
            s
              .list()
              .map((p) => p.metadata.resourceVersion)
              .join(),
          ),
        ),
        '^ 9ms !',
      ).toBe('ea--b', {
        e: '',
        a: '1',
        b: '2',
      });
      expectSubscriptions(list.subscriptions).toBe('^!');
      expectSubscriptions(watch.subscriptions).toBe('-^--------!');
      // Idle, not stopped: the next subscription starts it again (spec/informer/restart.spec.ts).
      at(11, () => expect([inf.isStarted(), inf.isStopped()]).toEqual([false, false]));
    });
  });

  it('stop() tears down the watch and every timer; hasSynced and synced$ follow the first list', () => {
    testScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const list = cold('---(p|)', { p: listPage([pod('a', '1')], '1') });
      const watch = cold<WatchEvent<Pod>>('-');
      const inf = informer(fakeListWatch<Pod>({ lists: [list], watches: [watch] }), {
        ...fast,
        resyncPeriod: 1000,
      });
      inf.addEventHandler({}, { resyncPeriod: 1000 });
      expectObservable(inf.synced$).toBe('f--t 4996ms |', { f: false, t: true });
      inf.start();
      expect(inf.hasSynced()).toBe(false);
      stopAt(inf, 5000);
      expectSubscriptions(watch.subscriptions).toBe('---^ 4996ms !');
    });
  });

  it('S4 on a running informer: addIndexers indexes what is stored and what comes later', () => {
    testScheduler().run(({ cold }) => {
      const lw = fakeListWatch<Pod>({
        lists: [cold('-(p|)', { p: listPage([pod('a', '1', { spec: { nodeName: 'n1' } })], '1') })],
        watches: [cold('---c', { c: added(pod('c', '2', { spec: { nodeName: 'n1' } })) })],
      });
      const inf = informer(lw, fast);
      inf.start();
      at(2, () => inf.addIndexers({ byNode: (p) => (p.spec?.nodeName ? [p.spec.nodeName] : []) }));
      stopAt(inf, 10);
      at(9, () => {
        expect(inf.indexKeys('byNode', 'n1').sort()).toEqual(['ns/a', 'ns/c']);
        expect(inf.listIndexFuncValues('byNode')).toEqual(['n1']);
        expect(() => inf.addIndexers({ byNode: () => [] })).toThrow();
      });
    });
  });

  it('start() is a subscription of its own: an informer started by store$ and then by start() keeps running when the store$ subscriber leaves; stop() completes a subscriber still there', () => {
    testScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const list = cold('-(p|)', { p: listPage([pod('a', '1')], '1') });
      const watch = cold('---m', { m: modified(pod('a', '2')) });
      const inf = informer(fakeListWatch<Pod>({ lists: [list], watches: [watch] }), fast);
      const rv$ = inf.store$.pipe(map((s) => s.getByKey('ns/a')?.metadata.resourceVersion ?? '-'));
      expectObservable(rv$, '^ 2ms !').toBe('ea', { e: '-', a: '1' });
      at(1, () => inf.start());
      expectObservable(rv$, '6ms ^').toBe('6ms b 3ms |', { b: '2' });
      stopAt(inf, 10);
      expectSubscriptions(list.subscriptions).toBe('^!');
      expectSubscriptions(watch.subscriptions).toBe('-^--------!');
      at(5, () => expect([inf.isStarted(), inf.isStopped()]).toEqual([true, false]));
    });
  });
});
