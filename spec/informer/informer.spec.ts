import { describe, expect, it } from '@jest/globals';
import { DeletedFinalStateUnknown } from '../../lib/meta/deletedFinalStateUnknown.js';
import { informer } from '../../lib/informer/informer.js';
import {
  describeNotification,
  fakeListWatch,
  listPage,
  recordNotifications,
} from '../../lib/testing/marbles.js';
import {
  added,
  at,
  deleted,
  expired,
  fast,
  modified,
  pod,
  stopAt,
  testScheduler,
  type Pod,
} from './support.js';

// Notifications, the store and resyncs (I1-I4). Handlers: informerHandlers.spec.ts; errors:
// informerErrors.spec.ts; transform and freezing: informerTransform.spec.ts; lifecycle: informerLifecycle.spec.ts.
describe('informer: notifications and the store', () => {
  it('I1: the store holds the change before any handler hears of it', () => {
    testScheduler().run(({ cold }) => {
      const lw = fakeListWatch<Pod>({
        lists: [cold('-(p|)', { p: listPage([pod('a', '1')], '1') })],
        watches: [
          cold('--m-d-c', { m: modified(pod('a', '2')), d: deleted(pod('a', '3')), c: added(pod('c', '4')) }),
        ],
      });
      const inf = informer(lw, fast);
      const seen: string[] = [];
      inf.addEventHandler({
        add: (o) =>
          void seen.push(`add ${o.metadata.name}: stored ${inf.getByKey(`ns/${o.metadata.name}`) === o}`),
        update: (_old, o) => void seen.push(`update: stored ${inf.getByKey('ns/a') === o}`),
        delete: () => void seen.push(`delete: stored ${inf.getByKey('ns/a') !== undefined}`),
      });
      let snapshotOnDelete = -1;
      inf.addEventHandler({ delete: () => void (snapshotOnDelete = inf.getStore().size) });
      inf.start();
      stopAt(inf, 100);
      at(99, () => {
        expect(seen).toEqual([
          'add a: stored true',
          'update: stored true',
          'delete: stored false',
          'add c: stored true',
        ]);
        expect(snapshotOnDelete).toBe(0);
      });
    });
  });

  it.each(['coalescing', 'ordered'] as const)(
    'I2, I12 (%s FIFO): add(obj, isInInitialList), update(old, new), delete(obj or tombstone); a relist after 410 diffs against the store',
    (fifoMode) => {
      testScheduler().run(({ cold }) => {
        const p1 = pod('p1', '1');
        const p2 = pod('p2', '2');
        const p3 = pod('p3', '3');
        const lw = fakeListWatch<Pod>({
          lists: [
            cold('-(p|)', { p: listPage([p1, p2, p3], '3') }),
            cold('-(p|)', { p: listPage([pod('p1', '5'), pod('p2', '6'), pod('p4', '7')], '7') }),
          ],
          watches: [cold('--a-d-e', { a: added(pod('p5', '4')), d: deleted(pod('p5', '4')), e: expired() })],
        });
        const inf = informer(lw, { ...fast, fifoMode });
        const rec = recordNotifications(inf);
        inf.start();
        stopAt(inf, 1000);
        at(999, () => {
          const described = rec.described();
          expect(described.slice(0, 5)).toEqual([
            'add ns/p1@1 initial',
            'add ns/p2@2 initial',
            'add ns/p3@3 initial',
            'add ns/p5@4',
            'delete ns/p5@4',
          ]);
          // I12: the relist [p1', p2', p4] against {p1, p2, p3}.
          expect(described.slice(5).sort()).toEqual([
            'add ns/p4@7',
            'delete ns/p3@3 tombstone',
            'update ns/p1@1->5',
            'update ns/p2@2->6',
          ]);
          const tombstone = rec.notifications.find(
            (n) => n.type === 'delete' && n.object instanceof DeletedFinalStateUnknown,
          );
          expect(
            tombstone?.type === 'delete' &&
              tombstone.object instanceof DeletedFinalStateUnknown &&
              tombstone.object.obj,
          ).toBe(p3);
          expect(
            inf
              .list()
              .map((p) => `${p.metadata.name}@${p.metadata.resourceVersion}`)
              .sort(),
          ).toEqual(['p1@5', 'p2@6', 'p4@7']);
          expect(lw.listCalls).toHaveLength(2);
        });
      });
    },
  );

  it('I3: an update with an unchanged resource version (an unchanged object on a relist) goes only to handlers due a resync', () => {
    testScheduler().run(({ cold }) => {
      const lw = fakeListWatch<Pod>({
        lists: [
          cold('-(p|)', { p: listPage([pod('a', '1'), pod('b', '2')], '2') }),
          cold('-(p|)', { p: listPage([pod('a', '1'), pod('b', '5')], '5') }),
        ],
        watches: [cold('-----e', { e: expired() })],
      });
      const inf = informer(lw, { ...fast, resyncPeriod: 1000 });
      const never = recordNotifications(inf, { resyncPeriod: 0 });
      const resyncing = recordNotifications(inf, { resyncPeriod: 1000 });
      inf.start();
      // The relist happens at 1+5+100 = 106, after no resync check yet: nobody is due, so the unchanged
      // `a` goes to nobody; at 1000 the 1 s handler is due and gets a resync of both.
      stopAt(inf, 1500);
      at(1499, () => {
        expect(never.described()).toEqual(['add ns/a@1 initial', 'add ns/b@2 initial', 'update ns/b@2->5']);
        expect(resyncing.described()).toEqual([
          'add ns/a@1 initial',
          'add ns/b@2 initial',
          'update ns/b@2->5',
          'update ns/a@1->1',
          'update ns/b@5->5',
        ]);
        expect(resyncing.records.slice(3).map((r) => r.time)).toEqual([1000, 1000]);
      });
    });
  });

  it('I3: objects without a resource version (hand-made fixtures): a watch update is a change for every handler, an unchanged relist item a resync (as client-go)', () => {
    testScheduler().run(({ cold }) => {
      const bare = (name: string, phase: string): Pod => {
        const p = pod(name, '');
        p.metadata.labels = { phase };
        delete (p.metadata as { resourceVersion?: string }).resourceVersion;
        return p;
      };
      const lw = fakeListWatch<Pod>({
        lists: [
          cold('-(p|)', { p: listPage([bare('a', 'one')], '2') }),
          cold('-(p|)', { p: listPage([bare('a', 'two')], '5') }),
        ],
        watches: [cold('--m--e', { m: modified(bare('a', 'two')), e: expired() })],
      });
      const inf = informer(lw, { ...fast, resyncPeriod: 1000 });
      const seen: string[] = [];
      inf.addEventHandler(
        {
          add: (o) => void seen.push(`add ${o.metadata.labels?.phase}`),
          update: (o, n) => void seen.push(`update ${o.metadata.labels?.phase}->${n.metadata.labels?.phase}`),
        },
        { resyncPeriod: 0 },
      );
      inf.start();
      stopAt(inf, 500);
      // The watch's MODIFIED reaches the handler although neither object has a resource version;
      // the relist's unchanged `a` (both versions empty) is a resync, which this handler never takes.
      at(499, () => expect(seen).toEqual(['add one', 'update one->two']));
    });
  });

  it('I4: informer 1 s, handlers 0, 2 s, 3 s: all get every object at start, then only the due handler resyncs', () => {
    testScheduler().run(({ cold }) => {
      const lw = fakeListWatch<Pod>({
        lists: [cold('-(p|)', { p: listPage([pod('a', '1'), pod('b', '2')], '2') })],
      });
      const inf = informer(lw, { ...fast, resyncPeriod: 1000 });
      const h0 = recordNotifications(inf, { resyncPeriod: 0 });
      const h2 = recordNotifications(inf, { resyncPeriod: 2000 });
      const h3 = recordNotifications(inf, { resyncPeriod: 3000 });
      const hSub = recordNotifications(inf, { resyncPeriod: 10 });
      inf.start();
      stopAt(inf, 4500);
      at(4499, () => {
        const timeline = (rec: typeof h0) =>
          rec.records.map((r) => `${r.time} ${describeNotification(r.notification)}`);
        const initial = ['1 add ns/a@1 initial', '1 add ns/b@2 initial'];
        expect(timeline(h0)).toEqual(initial);
        expect(timeline(h2)).toEqual([
          ...initial,
          '2000 update ns/a@1->1',
          '2000 update ns/b@2->2',
          '4000 update ns/a@1->1',
          '4000 update ns/b@2->2',
        ]);
        expect(timeline(h3)).toEqual([...initial, '3000 update ns/a@1->1', '3000 update ns/b@2->2']);
        // Periods under 1 s become 1 s.
        expect(hSub.registration.resyncPeriod).toBe(1000);
        expect(hSub.records.filter((r) => r.notification.type === 'update').map((r) => r.time)).toEqual([
          1000, 1000, 2000, 2000, 3000, 3000, 4000, 4000,
        ]);
      });
    });
  });

  it('I4: client-go resync period rules: a short handler before start lowers the check period, after start it is raised to it; 0 never resyncs', () => {
    testScheduler().run(({ cold }) => {
      const lw = fakeListWatch<Pod>({ lists: [cold('-(p|)', { p: listPage([pod('a', '1')], '1') })] });
      const inf = informer(lw, { ...fast, resyncPeriod: 5000 });
      const byDefault = recordNotifications(inf);
      const short = recordNotifications(inf, { resyncPeriod: 2000 });
      expect(byDefault.registration.resyncPeriod).toBe(5000);
      expect(short.registration.resyncPeriod).toBe(2000);
      inf.start();
      const late = recordNotifications(inf, { resyncPeriod: 1000 });
      expect(late.registration.resyncPeriod).toBe(2000);
      stopAt(inf, 6500);
      at(6499, () => {
        const resyncTimes = (rec: typeof short) =>
          rec.records.filter((r) => r.notification.type === 'update').map((r) => r.time);
        expect(resyncTimes(short)).toEqual([2000, 4000, 6000]);
        expect(resyncTimes(late)).toEqual([2000, 4000, 6000]);
        // The 5 s handler is checked every 2 s: due at 6 s (client-go's behaviour).
        expect(resyncTimes(byDefault)).toEqual([6000]);
      });
    });
  });

  it('I4: an informer without resync never resyncs, whatever a handler asks', () => {
    testScheduler().run(({ cold }) => {
      const lw = fakeListWatch<Pod>({ lists: [cold('-(p|)', { p: listPage([pod('a', '1')], '1') })] });
      const inf = informer(lw, fast);
      const rec = recordNotifications(inf, { resyncPeriod: 2000 });
      expect(rec.registration.resyncPeriod).toBe(0);
      inf.start();
      stopAt(inf, 5000);
      at(4999, () => expect(rec.described()).toEqual(['add ns/a@1 initial']));
    });
  });
});
