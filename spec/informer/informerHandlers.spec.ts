import { describe, expect, it } from '@jest/globals';
import { asyncScheduler, firstValueFrom, map, timer } from 'rxjs';
import { InformerStateError, type RxkubeError } from '../../lib/errors.js';
import { informer } from '../../lib/informer/informer.js';
import {
  describeNotification,
  fakeListWatch,
  listPage,
  recordNotifications,
} from '../../lib/testing/marbles.js';
import { at, deleted, fast, modified, pod, stopAt, testScheduler, type Pod } from './support.js';

// Handlers added late (I5), registrations (I7), and handlers acting on the informer from a callback.
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

describe('informer: an Observer handler is handed the key', () => {
  it("next(notification, key): the key the store holds the object under, for a live change, a deletion and a late handler's replay", () => {
    testScheduler().run(({ cold }) => {
      const lw = fakeListWatch<Pod>({
        lists: [cold('-(p|)', { p: listPage([pod('a', '1')], '1') })],
        watches: [cold('--m-d', { m: modified(pod('a', '2')), d: deleted(pod('a', '3')) })],
      });
      const inf = informer(lw, fast);
      const told: string[] = [];
      inf.addEventHandler({ next: (n, key?: string) => void told.push(`${n.type} ${String(key)}`) });
      inf.start();
      const late: string[] = [];
      at(2, () => inf.addEventHandler({ next: (n, key?: string) => void late.push(`${n.type} ${String(key)}`) }));
      stopAt(inf, 100);
      at(99, () => {
        expect(told).toEqual(['add ns/a', 'update ns/a', 'delete ns/a']);
        expect(late[0]).toBe('add ns/a');
      });
    });
  });
});
