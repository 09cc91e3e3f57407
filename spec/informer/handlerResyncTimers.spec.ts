import { describe, expect, it } from '@jest/globals';
import { asyncScheduler } from 'rxjs';
import { informer } from '../../lib/informer/informer.js';
import {
  describeNotification,
  fakeListWatch,
  listPage,
  recordNotifications,
} from '../../lib/testing/marbles.js';
import { at, fast, pod, stopAt, testScheduler } from './support.js';

describe('informer: each handler has its own resync timer on the injected scheduler', () => {
  it('a handler added at 500 ms resyncs at 1.5 s and 2.5 s, one added at start at 1 s and 2 s; neither gets the other’s resync', () => {
    testScheduler().run(({ cold }) => {
      const lw = fakeListWatch({
        lists: [cold('-(p|)', { p: listPage([pod('a', '1'), pod('b', '2')], '2') })],
        watches: [cold('-')],
      });
      const inf = informer(lw, { ...fast, resyncPeriod: 1000 });
      const early = recordNotifications(inf, { resyncPeriod: 1000 });
      let late: ReturnType<typeof recordNotifications> | undefined;
      inf.start();
      at(500, () => (late = recordNotifications(inf, { resyncPeriod: 1000 })));
      stopAt(inf, 2600);
      at(2599, () => {
        const resyncTimes = (rec: ReturnType<typeof recordNotifications>) =>
          rec.records.filter((r) => r.notification.type === 'update').map((r) => r.time);
        expect(resyncTimes(early)).toEqual([1000, 1000, 2000, 2000]);
        expect(resyncTimes(late!)).toEqual([1500, 1500, 2500, 2500]);
        expect(late!.records.slice(0, 2).map((r) => describeNotification(r.notification))).toEqual([
          'add ns/a@1 initial',
          'add ns/b@2 initial',
        ]);
      });
    });
  });

  it('a removed handler’s timer stops: no resync is asked for any more', () => {
    testScheduler().run(({ cold }) => {
      const list = cold('-(p|)', { p: listPage([pod('a', '1')], '1') });
      const inf = informer(fakeListWatch({ lists: [list], watches: [cold('-')] }), {
        ...fast,
        resyncPeriod: 1000,
      });
      const kept = recordNotifications(inf, { resyncPeriod: 0 });
      const removed = recordNotifications(inf, { resyncPeriod: 1000 });
      inf.start();
      at(1500, () => removed.registration.remove());
      stopAt(inf, 3500);
      at(3499, () => {
        expect(removed.records.filter((r) => r.notification.type === 'update').map((r) => r.time)).toEqual([
          1000,
        ]);
        expect(kept.described()).toEqual(['add ns/a@1 initial']);
      });
    });
  });

  it('a resync is the handler’s own replay of the snapshot as it is at the tick: the store publishes no snapshot for it', () => {
    testScheduler().run(({ cold }) => {
      const lw = fakeListWatch({
        lists: [cold('-(p|)', { p: listPage([pod('a', '1')], '1') })],
        watches: [cold('1500ms m', { m: { type: 'MODIFIED' as const, object: pod('a', '2') } })],
      });
      const inf = informer(lw, { ...fast, resyncPeriod: 1000 });
      const snapshots: number[] = [];
      inf.store$.subscribe(() => snapshots.push(asyncScheduler.now()));
      const resyncing = recordNotifications(inf, { resyncPeriod: 1000 });
      inf.start();
      stopAt(inf, 2500);
      at(2499, () => {
        expect(snapshots).toEqual([0, 1, 1501]); // the empty store, the list, the watch event
        expect(resyncing.described()).toEqual([
          'add ns/a@1 initial',
          'update ns/a@1->1', // 1 s
          'update ns/a@1->2', // the watch event at 1.5 s
          'update ns/a@2->2', // 2 s: the snapshot as it is then
        ]);
      });
    });
  });
});
