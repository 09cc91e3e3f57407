import { describe, expect, it } from '@jest/globals';
import { map } from 'rxjs';
import { informer } from '../../lib/informer/informer.js';
import type { RxkubeError } from '../../lib/errors.js';
import { describeNotification, fakeListWatch, listPage } from '../../lib/testing/marbles.js';
import type { Store } from '../../lib/store/store.js';
import { at, fast, modified, pod, testScheduler, type Pod } from './support.js';

const versions = (s: Store<Pod>): string =>
  s
    .list()
    .map((p) => `${p.metadata.name}@${p.metadata.resourceVersion}`)
    .sort()
    .join(',');

describe('informer: started by a subscription, idled by the last unsubscribe, started again', () => {
  it('store$ replays the current snapshot on resubscription, lists and watches again and goes on', () => {
    testScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const list1 = cold('-(p|)', { p: listPage([pod('a', '1')], '1') });
      const watch1 = cold('---m', { m: modified(pod('a', '2')) });
      const list2 = cold('-(p|)', { p: listPage([pod('a', '3'), pod('b', '3')], '3') });
      const watch2 = cold('--m', { m: modified(pod('b', '4')) });
      const inf = informer(fakeListWatch<Pod>({ lists: [list1, list2], watches: [watch1, watch2] }), fast);
      const view$ = inf.store$.pipe(map(versions));
      expectObservable(view$, '^ 9ms !').toBe('xa--b', { x: '', a: 'a@1', b: 'a@2' });
      // The second visit (an Angular route left and revisited): the snapshot it left, then live data.
      expectObservable(view$, '20ms ^ 9ms !').toBe('20ms bc-d', {
        b: 'a@2',
        c: 'a@3,b@3',
        d: 'a@3,b@4',
      });
      expectSubscriptions(list1.subscriptions).toBe('^!');
      expectSubscriptions(watch1.subscriptions).toBe('-^--------!');
      expectSubscriptions(list2.subscriptions).toBe('20ms ^!');
      expectSubscriptions(watch2.subscriptions).toBe('20ms -^--------!');
      at(15, () => expect([inf.isStarted(), inf.isStopped()]).toEqual([false, false]));
      at(25, () => expect(inf.isStarted()).toBe(true));
    });
  });

  it('events$ on the second visit replays the store, then the changes of the relist; no error', () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const list1 = cold('-(p|)', { p: listPage([pod('a', '1')], '1') });
      const list2 = cold('-(p|)', { p: listPage([pod('a', '3')], '3') });
      const inf = informer(
        fakeListWatch<Pod>({ lists: [list1, list2], watches: [cold('-'), cold('-')] }),
        fast,
      );
      const errors: RxkubeError[] = [];
      inf.errors$.subscribe((e) => errors.push(e));
      const events$ = inf.events$.pipe(map((n) => describeNotification(n)));
      expectObservable(events$, '^ 9ms !').toBe('-a', { a: 'add ns/a@1 initial' });
      expectObservable(events$, '20ms ^ 9ms !').toBe('20ms ab', {
        a: 'add ns/a@1 initial',
        b: 'update ns/a@1->3',
      });
      at(40, () => expect(errors).toEqual([]));
    });
  });

  it('after stop() the informer stays stopped: store$ replays the last snapshot and completes', () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const list = cold('-(p|)', { p: listPage([pod('a', '1')], '1') });
      const inf = informer(fakeListWatch<Pod>({ lists: [list], watches: [cold('-')] }), fast);
      inf.start();
      at(5, () => void inf.stop());
      expectObservable(inf.store$.pipe(map(versions)), '10ms ^').toBe('10ms (a|)', { a: 'a@1' });
    });
  });
});
