import { describe, expect, it } from '@jest/globals';
import { asyncScheduler, distinctUntilChanged, map, timer } from 'rxjs';
import { HandlerBufferOverflowError, type RxkubeError } from '../../lib/errors.js';
import { informer } from '../../lib/informer/informer.js';
import type { HandlerLag } from '../../lib/informer/handlerRegistration.js';
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

/** A handler taking `ms` of virtual time per notification, recording what it is told and when. */
function slowHandler(ms: number, log: string[]) {
  return {
    next: (n: Parameters<typeof describeNotification<Pod>>[0]) => {
      log.push(`${asyncScheduler.now()} ${describeNotification(n)}`);
      return timer(ms);
    },
  };
}

describe('informer: slow handlers, buffers and lag (I11)', () => {
  it('I11: a slow handler does not slow the others; its lag is observable', () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const lw = fakeListWatch<Pod>({
        lists: [cold('-(p|)', { p: listPage([pod('a', '1')], '1') })],
        watches: [
          cold('-bcde', {
            b: modified(pod('a', '2')),
            c: modified(pod('a', '3')),
            d: modified(pod('a', '4')),
            e: modified(pod('a', '5')),
          }),
        ],
      });
      const inf = informer(lw, fast);
      const fastRec = recordNotifications(inf);
      const slow: string[] = [];
      const reg = inf.addEventHandler(slowHandler(10, slow));
      const lags: Array<[number, HandlerLag]> = [];
      reg.lag$.subscribe((l) => lags.push([asyncScheduler.now(), l]));
      expectObservable(
        reg.lag$.pipe(
          map((l) => l.queued),
          distinctUntilChanged(),
        ),
      ).toBe('abcdef 5ms g 9ms h 9ms i 9ms j 9ms k 48ms |', {
        a: 0,
        b: 1,
        c: 2,
        d: 3,
        e: 4,
        f: 5,
        g: 4,
        h: 3,
        i: 2,
        j: 1,
        k: 0,
      });
      inf.start();
      stopAt(inf, 100);
      at(45, () => expect(reg.lag()).toEqual({ queued: 1, oldestAgeMs: 40 }));
      // informer_queued_items: what the handlers have not handled yet (the fast one is idle).
      at(25, () => expect([inf.queuedItems(), reg.lag().queued]).toEqual([3, 3]));
      at(45, () => expect(inf.queuedItems()).toBe(1));
      at(99, () => {
        expect(fastRec.records.map((r) => r.time)).toEqual([1, 2, 3, 4, 5]);
        expect(slow).toEqual([
          '1 add ns/a@1 initial',
          '11 update ns/a@1->2',
          '21 update ns/a@2->3',
          '31 update ns/a@3->4',
          '41 update ns/a@4->5',
        ]);
        // At 5 ms: one in flight since 1 ms, four waiting.
        expect(lags.find(([t]) => t === 5)?.[1]).toEqual({ queued: 5, oldestAgeMs: 4 });
        expect(reg.lag()).toEqual({ queued: 0, oldestAgeMs: 0 });
      });
    });
  });

  it("I11: overflow 'error': the handler is removed and a HandlerBufferOverflowError reported; the informer and other handlers go on", () => {
    testScheduler().run(({ cold }) => {
      const lw = fakeListWatch<Pod>({
        lists: [cold('-(p|)', { p: listPage([pod('a', '1')], '1') })],
        watches: [
          cold('-bcde', {
            b: modified(pod('a', '2')),
            c: modified(pod('a', '3')),
            d: modified(pod('a', '4')),
            e: modified(pod('a', '5')),
          }),
        ],
      });
      const inf = informer(lw, fast);
      const errors: Array<[number, RxkubeError]> = [];
      inf.errors$.subscribe((e) => errors.push([asyncScheduler.now(), e]));
      const other = recordNotifications(inf);
      const slow: string[] = [];
      let observerError: unknown;
      const reg = inf.addEventHandler(
        { ...slowHandler(10, slow), error: (e: unknown) => void (observerError = e) },
        { buffer: { size: 2, overflow: 'error' }, name: 'slow' },
      );
      inf.start();
      stopAt(inf, 100);
      at(99, () => {
        // 1 ms: a@1 in flight; 2, 3 ms: two waiting; 4 ms: the third overflows.
        expect(errors.map(([t, e]) => [t, e.constructor])).toEqual([[4, HandlerBufferOverflowError]]);
        expect(observerError).toBe(errors[0][1]);
        expect(reg.removed).toBe(true);
        expect(slow).toEqual(['1 add ns/a@1 initial']);
        expect(other.records).toHaveLength(5);
      });
    });
  });

  it("I11: overflow 'dropAndResync': queued notifications are dropped, then the handler is brought up to the store; its view ends equal to the store", () => {
    testScheduler().run(({ cold }) => {
      const lw = fakeListWatch<Pod>({
        lists: [cold('-(p|)', { p: listPage([pod('a', '1'), pod('c', '1')], '1') })],
        watches: [
          cold('-bcdef', {
            b: modified(pod('a', '2')),
            c: modified(pod('a', '3')),
            d: added(pod('b', '4')),
            e: deleted(pod('c', '5')),
            f: modified(pod('a', '6')),
          }),
        ],
      });
      const inf = informer(lw, fast);
      const slow: string[] = [];
      const rec = recordNotifications(inf, { buffer: { size: 2, overflow: 'dropAndResync' } });
      const reg = inf.addEventHandler(slowHandler(10, slow), {
        buffer: { size: 2, overflow: 'dropAndResync' },
      });
      inf.start();
      stopAt(inf, 100);
      at(99, () => {
        expect(slow).toEqual(['1 add ns/a@1 initial', '11 update ns/a@1->6', '21 add ns/b@4']);
        expect(reg.removed).toBe(false);
        expect(reg.hasSynced()).toBe(true);
        // A fast handler with the same bounded buffer never overflows.
        expect(rec.described()).toHaveLength(7);
        expect([...rec.view().keys()].sort()).toEqual(['ns/a', 'ns/b']);
        expect(inf.listKeys().slice().sort()).toEqual(['ns/a', 'ns/b']);
      });
    });
  });

  it("I11: 'dropAndResync' tells of objects deleted while it was behind with a tombstone", () => {
    testScheduler().run(({ cold }) => {
      const lw = fakeListWatch<Pod>({
        lists: [cold('-(p|)', { p: listPage([pod('a', '1'), pod('c', '1')], '1') })],
        watches: [
          cold('--------------bcd', {
            b: modified(pod('a', '2')),
            c: deleted(pod('c', '3')),
            d: modified(pod('a', '4')),
          }),
        ],
      });
      const inf = informer(lw, fast);
      const slow: string[] = [];
      inf.addEventHandler(slowHandler(10, slow), { buffer: { size: 1, overflow: 'dropAndResync' } });
      inf.start();
      stopAt(inf, 100);
      // 1: add a (until 11), c waits; 11: add c (until 21); 15: a@2 waits; 16: delete c overflows ->
      // catch-up with the store as it is then ({a@2}); 17: a@4 waits. 21: the catch-up: delete c
      // (tombstone), update a 1->2; then the waiting a 2->4.
      at(99, () =>
        expect(slow).toEqual([
          '1 add ns/a@1 initial',
          '11 add ns/c@1 initial',
          '21 delete ns/c@1 tombstone',
          '31 update ns/a@1->2',
          '41 update ns/a@2->4',
        ]),
      );
    });
  });
});

describe('informer: watch disruption (I6, on virtual time)', () => {
  it('I6: changes the watch never delivered are found by the relist; a handler without resync sees pod2 and pod3, one with resync pod1 too', () => {
    testScheduler().run(({ cold }) => {
      const lw = fakeListWatch<Pod>({
        lists: [
          cold('-(p|)', { p: listPage([pod('pod1', '1'), pod('pod2', '2')], '2') }),
          // pod3 added (rv 3) and pod2 modified (rv 4) while the watch did not say so.
          cold('-(p|)', { p: listPage([pod('pod1', '1'), pod('pod2', '4'), pod('pod3', '3')], '4') }),
        ],
        watches: [cold('1499ms e', { e: expired() })],
      });
      const inf = informer(lw, { ...fast, resyncPeriod: 1000 });
      const noResync = recordNotifications(inf, { resyncPeriod: 0 });
      const withResync = recordNotifications(inf, { resyncPeriod: 1000 });
      inf.start();
      at(1001, () => {
        noResync.clear();
        withResync.clear();
      });
      stopAt(inf, 1999);
      at(1998, () => {
        expect(lw.listCalls).toHaveLength(2);
        expect(noResync.described().sort()).toEqual(['add ns/pod3@3', 'update ns/pod2@2->4']);
        expect(withResync.described().sort()).toEqual([
          'add ns/pod3@3',
          'update ns/pod1@1->1',
          'update ns/pod2@2->4',
        ]);
      });
    });
  });
});
