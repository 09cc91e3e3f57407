import { describe, expect, it } from '@jest/globals';
import { DeletedFinalStateUnknown } from '../../lib/meta/deletedFinalStateUnknown.js';
import { addNotification, deleteNotification, updateNotification } from '../../lib/informer/notification.js';
import { stripManagedFields } from '../../lib/informer/stripManagedFields.js';
import {
  applyNotifications,
  describeNotification,
  fakeListWatch,
  listPage,
} from '../../lib/testing/marbles.js';
import { pod, testScheduler, type Pod } from './support.js';

describe('rxkube/testing marble helpers', () => {
  it('fakeListWatch answers the n-th call with the n-th Observable, records the options, and hangs past the end', () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const lw = fakeListWatch<Pod>({ lists: [cold('-(p|)', { p: listPage([pod('a', '1')], '1') })] });
      expectObservable(lw.list({ resourceVersion: '0', limit: 500 })).toBe('-(p|)', {
        p: listPage([pod('a', '1')], '1'),
      });
      expectObservable(lw.list({ resourceVersion: '1' }), '^ 5ms !').toBe('');
      expectObservable(lw.watch({ resourceVersion: '1' }), '^ 5ms !').toBe('');
      const byFunction = fakeListWatch<Pod>({
        watches: (o, call) =>
          cold('a|', { a: { type: 'BOOKMARK', object: pod(`call${call}`, o.resourceVersion ?? '') } }),
      });
      expectObservable(byFunction.watch({ resourceVersion: '7' })).toBe('a|', {
        a: { type: 'BOOKMARK', object: pod('call0', '7') },
      });
    });
    const lw = fakeListWatch<Pod>({});
    lw.list({ resourceVersion: '0' }).subscribe().unsubscribe();
    lw.watch({ resourceVersion: '5', allowWatchBookmarks: true }).subscribe().unsubscribe();
    expect(lw.listCalls).toEqual([{ resourceVersion: '0' }]);
    expect(lw.watchCalls).toEqual([{ resourceVersion: '5', allowWatchBookmarks: true }]);
  });

  it('describeNotification and applyNotifications cover adds, updates, deletes and tombstones', () => {
    const a1 = pod('a', '1');
    const a2 = pod('a', '2');
    const b1 = pod('b', '1');
    const ns = [
      addNotification(a1, true),
      addNotification(b1, false),
      updateNotification(a1, a2),
      deleteNotification(a2),
      deleteNotification<Pod>(new DeletedFinalStateUnknown('ns/b', b1)),
    ];
    expect(ns.map((n) => describeNotification(n))).toEqual([
      'add ns/a@1 initial',
      'add ns/b@1',
      'update ns/a@1->2',
      'delete ns/a@2',
      'delete ns/b@1 tombstone',
    ]);
    expect([...applyNotifications(new Map(), ns.slice(0, 3))]).toEqual([
      ['ns/a', a2],
      ['ns/b', b1],
    ]);
    expect(applyNotifications(new Map(), ns).size).toBe(0);
  });

  it('stripManagedFields drops metadata.managedFields without touching the input, and returns objects without it as they are', () => {
    const withFields = pod('a', '1');
    withFields.metadata.managedFields = [{ manager: 'kubectl' }];
    const stripped = stripManagedFields(withFields);
    expect(stripped).not.toBe(withFields);
    expect('managedFields' in stripped.metadata).toBe(false);
    expect(withFields.metadata.managedFields).toHaveLength(1);
    const plain = pod('b', '1');
    expect(stripManagedFields(plain)).toBe(plain);
  });
});
