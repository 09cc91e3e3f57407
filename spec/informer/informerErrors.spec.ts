import { describe, expect, it } from '@jest/globals';
import { asyncScheduler } from 'rxjs';
import { ConfigError } from '../../lib/configError.js';
import { HandlerError, type RxkubeError } from '../../lib/errors.js';
import { informer } from '../../lib/informer/informer.js';
import { ApiStatusError } from '../../lib/errors.js';
import { fakeListWatch, listPage, recordNotifications } from '../../lib/testing/marbles.js';
import { at, deleted, fast, modified, pod, stopAt, testScheduler, type Pod } from './support.js';

// List errors (I8) and failing handlers (I10).
describe('informer: errors (I8, I10)', () => {
  it('an informer made from something that is not a ListWatch is a ConfigError naming listWatch when made', () => {
    const make = (lw: unknown) => () => informer(lw as Parameters<typeof informer>[0]);
    expect(make({})).toThrow(ConfigError);
    expect(make(null)).toThrow(/listWatch must have list and watch functions .*got null/);
    expect(make({ list: () => undefined })).toThrow(/got an object with list/);
  });

  it('a handler that could never be called is a ConfigError when added, not a HandlerError per notification', () => {
    const inf = informer(fakeListWatch<Pod>({ lists: [] }), { logger: false });
    const add = (handler: unknown, options?: object) => () => inf.addEventHandler(handler as Parameters<typeof inf.addEventHandler>[0], options);
    expect(add(null)).toThrow(ConfigError);
    expect(add(() => undefined)).toThrow(/got a function; pass \{ add, update, delete \} callbacks/);
    expect(add({ add: 5 })).toThrow(/handler.add is a number, not a function/);
    expect(add({ next: 'x' })).toThrow(/handler.next is a string/);
    expect(add({}, { buffer: { size: Number.NaN } })).toThrow(/buffer.size must be at least 1 \(Infinity: unbounded\), got NaN/);
    expect(add({}, { buffer: { size: Infinity } })).not.toThrow();
    expect(add({ add: () => undefined, update: undefined })).not.toThrow();
  });

  it('I8: a list error reaches errors$ and the logger when it happens, and the informer retries', () => {
    testScheduler().run(({ cold }) => {
      const forbidden = new ApiStatusError({ code: 403, reason: 'Forbidden', message: 'pods is forbidden' });
      const lw = fakeListWatch<Pod>({
        lists: [cold('--#', undefined, forbidden), cold('-(p|)', { p: listPage([pod('a', '1')], '1') })],
      });
      const reported: Array<[number, RxkubeError]> = [];
      const inf = informer(lw, { ...fast, logger: { error: (_message, e) => void reported.push([-1, e as RxkubeError]) } });
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
      { name: 'bad' },
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
    await inf.stop();
  });
});
