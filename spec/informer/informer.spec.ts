import { describe, expect, it } from '@jest/globals';
import { asyncScheduler, firstValueFrom, map, timer } from 'rxjs';
import { HandlerError, InformerStateError, type RxkubeError } from '../../lib/errors.js';
import { DeletedFinalStateUnknown } from '../../lib/fifo/deletedFinalStateUnknown.js';
import { informer } from '../../lib/informer/informer.js';
import type { Notification } from '../../lib/informer/notification.js';
import { stripManagedFields } from '../../lib/informer/stripManagedFields.js';
import type { WatchEvent } from '../../lib/listwatch/watchEvent.js';
import { ApiStatusError } from '../../lib/errors.js';
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

describe('informer: handlers added later (I5)', () => {
  it('I5: a handler added to a running informer first gets an add per stored object; hasSynced is false until it has handled them', () => {
    testScheduler().run(({ cold }) => {
      const lw = fakeListWatch<Pod>({
        lists: [cold('-(p|)', { p: listPage([pod('a', '1'), pod('b', '2')], '2') })],
        watches: [cold('-----------------------------m', { m: modified(pod('a', '3')) })],
      });
      const inf = informer(lw, fast);
      inf.start();
      const told: string[] = [];
      // Joins at 10 ms; takes 5 ms per notification (an Observable result runs on virtual time).
      const synced: Array<[number, boolean]> = [];
      let reg: ReturnType<typeof inf.addEventHandler> | undefined;
      at(10, () => {
        reg = inf.addEventHandler({
          next: (n) => {
            told.push(describeNotification(n));
            return timer(5);
          },
        });
        expect(reg.hasSynced()).toBe(false);
        reg.synced$.subscribe((v) => synced.push([asyncScheduler.now(), v]));
      });
      at(19, () => expect(reg?.hasSynced()).toBe(false));
      at(21, () => {
        expect(reg?.hasSynced()).toBe(true);
        expect(synced).toEqual([
          [10, false],
          [20, true],
        ]);
      });
      stopAt(inf, 100);
      at(99, () => expect(told).toEqual(['add ns/a@1 initial', 'add ns/b@2 initial', 'update ns/a@1->3']));
    });
  });

  it('I5: events$ replays the stored objects to a late subscriber, then goes on with changes', () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const lw = fakeListWatch<Pod>({
        lists: [cold('-(p|)', { p: listPage([pod('a', '1')], '1') })],
        watches: [cold('-------m', { m: modified(pod('a', '2')) })],
      });
      const inf = informer(lw, fast);
      inf.start();
      stopAt(inf, 20);
      expectObservable(inf.events$.pipe(map((n) => describeNotification(n))), '-----^').toBe(
        '-----a--u-----------|',
        {
          a: 'add ns/a@1 initial',
          u: 'update ns/a@1->2',
        },
      );
    });
  });
});

describe('informer: handler registrations (I7)', () => {
  it('I7: remove is idempotent; a registration of another informer is ignored; the same handler twice gives two registrations', () => {
    testScheduler().run(({ cold }) => {
      const lw = () =>
        fakeListWatch<Pod>({
          lists: [cold('-(p|)', { p: listPage([pod('a', '1')], '1') })],
          watches: [cold('----m', { m: modified(pod('a', '2')) })],
        });
      const inf = informer(lw(), fast);
      const other = informer(lw(), fast);
      const calls: string[] = [];
      const handler = { update: () => void calls.push('update') };
      const r1 = inf.addEventHandler(handler);
      const r2 = inf.addEventHandler(handler);
      expect(r1).not.toBe(r2);
      const otherReg = other.addEventHandler(handler);
      inf.removeEventHandler(otherReg);
      expect(otherReg.removed).toBe(false);
      inf.start();
      other.start();
      at(3, () => {
        r2.remove();
        r2.remove();
        inf.removeEventHandler(r2);
        expect(r2.removed).toBe(true);
      });
      stopAt(inf, 10);
      stopAt(other, 10);
      at(9, () => expect(calls).toEqual(['update', 'update']));
    });
  });

  it('I7: adding a handler to a stopped informer throws an InformerStateError; events$ errors with it', async () => {
    const inf = informer(fakeListWatch<Pod>({}));
    inf.start();
    await inf.stop();
    expect(() => inf.addEventHandler({})).toThrow(InformerStateError);
    await expect(firstValueFrom(inf.events$)).rejects.toBeInstanceOf(InformerStateError);
    expect(await inf.waitForCacheSync()).toBe(false);
    // store$ of a stopped informer still replays its last snapshot, then completes.
    const last = await firstValueFrom(inf.store$);
    expect(last).toBe(inf.getStore());
  });
});

describe('informer: handlers that act on the informer from inside a callback', () => {
  it('I7: a handler that removes itself mid-stream hears nothing more; the others go on', () => {
    testScheduler().run(({ cold }) => {
      const lw = fakeListWatch<Pod>({
        lists: [cold('-(p|)', { p: listPage([pod('a', '1'), pod('b', '1')], '1') })],
        watches: [cold('--m', { m: modified(pod('a', '2')) })],
      });
      const inf = informer(lw, fast);
      const quitter: string[] = [];
      const reg = inf.addEventHandler({
        next: (n) => {
          quitter.push(describeNotification(n));
          reg.remove();
        },
      });
      const other = recordNotifications(inf);
      inf.start();
      stopAt(inf, 10);
      at(9, () => {
        expect(quitter).toEqual(['add ns/a@1 initial']);
        expect(other.described()).toEqual(['add ns/a@1 initial', 'add ns/b@1 initial', 'update ns/a@1->2']);
      });
    });
  });

  it('a handler that stops the informer from a callback stops it cleanly, with no error', () => {
    testScheduler().run(({ cold, expectSubscriptions }) => {
      const watch = cold('--m', { m: modified(pod('a', '2')) });
      const lw = fakeListWatch<Pod>({
        lists: [cold('-(p|)', { p: listPage([pod('a', '1'), pod('b', '1')], '1') })],
        watches: [watch],
      });
      const inf = informer(lw, fast);
      const errors: RxkubeError[] = [];
      inf.errors$.subscribe((e) => errors.push(e));
      const seen: string[] = [];
      inf.addEventHandler({
        next: (n) => {
          seen.push(describeNotification(n));
          if (n.type === 'update') void inf.stop();
        },
      });
      inf.start();
      at(9, () => {
        expect(seen).toEqual(['add ns/a@1 initial', 'add ns/b@1 initial', 'update ns/a@1->2']);
        expect(inf.isStopped()).toBe(true);
        expect(errors).toEqual([]);
      });
      expectSubscriptions(watch.subscriptions).toBe('-^-!');
    });
  });
});

describe('informer: errors (I8, I10)', () => {
  it('I8: a list error reaches errors$ and onError when it happens, and the informer retries', () => {
    testScheduler().run(({ cold }) => {
      const forbidden = new ApiStatusError({ code: 403, reason: 'Forbidden', message: 'pods is forbidden' });
      const lw = fakeListWatch<Pod>({
        lists: [cold('--#', undefined, forbidden), cold('-(p|)', { p: listPage([pod('a', '1')], '1') })],
      });
      const reported: Array<[number, RxkubeError]> = [];
      const inf = informer(lw, { ...fast, onError: (e) => void reported.push([-1, e]) });
      const onStream: Array<[number, string]> = [];
      inf.errors$.subscribe((e) => onStream.push([asyncScheduler.now(), e.message]));
      inf.start();
      stopAt(inf, 1000);
      at(999, () => {
        expect(onStream.map(([t]) => t)).toEqual([2]);
        expect(onStream[0][1]).toContain('forbidden');
        expect(reported).toHaveLength(1);
        expect(inf.hasSynced()).toBe(true);
      });
    });
  });

  it('I10: a handler that throws, rejects or errors is reported and skipped; it and the others go on; nothing is retried', async () => {
    const { Subject, throwError } = await import('rxjs');
    const watch = new Subject<ReturnType<typeof modified>>();
    const lw = fakeListWatch<Pod>({
      lists: [
        new (await import('rxjs')).Observable((s) => (s.next(listPage([pod('a', '1')], '1')), s.complete())),
      ],
      watches: [watch],
    });
    const inf = informer(lw);
    const errors: RxkubeError[] = [];
    inf.errors$.subscribe((e) => errors.push(e));
    const bad: string[] = [];
    const onError: RxkubeError[] = [];
    inf.addEventHandler(
      {
        add: () => {
          bad.push('add');
          throw new Error('boom');
        },
        update: async (_o, n) => {
          bad.push(`update ${n.metadata.resourceVersion}`);
          if (n.metadata.resourceVersion === '2') throw new Error('rejected');
        },
        delete: () => {
          bad.push('delete');
          return throwError(() => new Error('observable failed'));
        },
      },
      { name: 'bad', onError: (e) => void onError.push(e) },
    );
    const good = recordNotifications(inf);
    inf.start();
    await inf.waitForCacheSync();
    watch.next(modified(pod('a', '2')));
    watch.next(modified(pod('a', '3')));
    watch.next(deleted(pod('a', '4')));
    await new Promise<void>((resolve) => setImmediate(resolve));
    await new Promise<void>((resolve) => setImmediate(resolve));
    expect(bad).toEqual(['add', 'update 2', 'update 3', 'delete']);
    expect(good.described()).toEqual([
      'add ns/a@1 initial',
      'update ns/a@1->2',
      'update ns/a@2->3',
      'delete ns/a@4',
    ]);
    expect(errors.map((e) => (e as HandlerError).notification.type)).toEqual(['add', 'update', 'delete']);
    expect(errors.every((e) => e instanceof HandlerError && e.handlerName === 'bad')).toBe(true);
    expect(errors.map((e) => (e.cause as Error).message)).toEqual(['boom', 'rejected', 'observable failed']);
    expect(onError).toEqual(errors);
    await inf.stop();
  });
});

describe('informer: transform (I9) and frozen objects', () => {
  it('I9: handlers and the store get transformed objects; stripManagedFields drops managedFields', () => {
    testScheduler().run(({ cold }) => {
      const withFields = pod('a', '1', {});
      withFields.metadata.managedFields = [{ manager: 'kubectl' }];
      const lw = fakeListWatch<Pod>({ lists: [cold('-(p|)', { p: listPage([withFields], '1') })] });
      const inf = informer(lw, fast);
      inf.setTransform(stripManagedFields);
      const rec = recordNotifications(inf);
      inf.start();
      stopAt(inf, 10);
      at(9, () => {
        const n = rec.notifications[0] as Extract<Notification<Pod>, { type: 'add' }>;
        expect(n.object.metadata).toEqual({ name: 'a', namespace: 'ns', resourceVersion: '1' });
        expect(inf.getByKey('ns/a')).toBe(n.object);
        expect(withFields.metadata.managedFields).toHaveLength(1);
      });
    });
  });

  it('I9: setting a transform after start is an InformerStateError', () => {
    const inf = informer(fakeListWatch<Pod>({}));
    inf.start();
    expect(() => inf.setTransform((o) => o)).toThrow(InformerStateError);
    void inf.stop();
  });

  it('with freeze: true, objects handed to handlers are deeply frozen (mutation detection)', () => {
    testScheduler().run(({ cold }) => {
      const lw = fakeListWatch<Pod>({
        lists: [cold('-(p|)', { p: listPage([pod('a', '1', { spec: { nodeName: 'n1' } })], '1') })],
      });
      const inf = informer(lw, { ...fast, freeze: true });
      const rec = recordNotifications(inf);
      inf.start();
      stopAt(inf, 10);
      at(9, () => {
        const n = rec.notifications[0] as Extract<Notification<Pod>, { type: 'add' }>;
        expect(() => {
          (n.object.spec as { nodeName: string }).nodeName = 'n2';
        }).toThrow(TypeError);
        expect(Object.isFrozen(inf.getByKey('ns/a'))).toBe(true);
      });
    });
  });

  it('by default (no freeze) objects are handed out as the server sent them, not frozen', () => {
    testScheduler().run(({ cold }) => {
      const lw = fakeListWatch<Pod>({
        lists: [cold('-(p|)', { p: listPage([pod('a', '1', { spec: { nodeName: 'n1' } })], '1') })],
      });
      const inf = informer(lw, fast);
      const rec = recordNotifications(inf);
      inf.start();
      stopAt(inf, 10);
      at(9, () => {
        const n = rec.notifications[0] as Extract<Notification<Pod>, { type: 'add' }>;
        expect(Object.isFrozen(n.object)).toBe(false);
        expect(Object.isFrozen(n.object.spec)).toBe(false);
        expect(inf.getByKey('ns/a')).toBe(n.object);
      });
    });
  });
});

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
      expectObservable(inf.synced$).toBe('f--(t|)', { f: false, t: true });
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
});
