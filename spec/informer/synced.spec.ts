import { describe, expect, it } from '@jest/globals';
import { map } from 'rxjs';
import type { RunHelpers } from 'rxjs/testing';
import { informer } from '../../lib/informer/informer.js';
import type { WatchEvent } from '../../lib/listwatch/watchEvent.js';
import { fakeListWatch, listPage } from '../../lib/testing/marbles.js';
import { at, fast, modified, pod, stopAt, testScheduler, type Pod } from './support.js';

// synced$ holds its value (a late subscriber gets it at once), syncedStore$ skips the empty snapshot.
describe('informer: synced$ and syncedStore$', () => {
  const names = (s: { list(): ReadonlyArray<Pod> }): string =>
    s
      .list()
      .map((p) => `${p.metadata.name}@${p.metadata.resourceVersion}`)
      .join();

  /** An informer whose one list (pod a@1) answers at `listMarble`, and whose watch stays open. */
  const listedOnce = (cold: RunHelpers['cold'], listMarble: string) =>
    informer(
      fakeListWatch<Pod>({
        lists: [cold(listMarble, { p: listPage([pod('a', '1')], '1') })],
        watches: [cold<WatchEvent<Pod>>('-')],
      }),
      fast,
    );

  it('synced$ gives every subscriber the current value and completes only when the informer stops', () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const inf = listedOnce(cold, '---(p|)');
      inf.start();
      expectObservable(inf.synced$).toBe('f--t 16ms |', { f: false, t: true });
      // A subscriber that comes after the sync (an Angular component created later) gets true at once.
      expectObservable(inf.synced$, '------^').toBe('------t 13ms |', { t: true });
      stopAt(inf, 20);
    });
  });

  it("a handler registration's synced$ gives a late subscriber true at once", () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const inf = listedOnce(cold, '-(p|)');
      const reg = inf.addEventHandler({});
      inf.start();
      expectObservable(reg.synced$, '----^').toBe('----t 5ms |', { t: true });
      at(8, () => expect(reg.hasSynced()).toBe(true));
      stopAt(inf, 10);
    });
  });

  it('syncedStore$ starts the informer and emits the first full snapshot, never the empty one before it', () => {
    testScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const list = cold('--(p|)', { p: listPage([pod('a', '1'), pod('b', '1')], '1') });
      const watch = cold('---m', { m: modified(pod('a', '2')) });
      const inf = informer(fakeListWatch<Pod>({ lists: [list], watches: [watch] }), fast);
      expectObservable(inf.syncedStore$.pipe(map(names)), '^ 9ms !').toBe('--f--m', {
        f: 'a@1,b@1',
        m: 'a@2,b@1',
      });
      expectSubscriptions(list.subscriptions).toBe('^-!');
    });
  });

  it('syncedStore$ gives a subscriber that comes after the sync the current snapshot at once', () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const inf = listedOnce(cold, '-(p|)');
      inf.start();
      expectObservable(inf.syncedStore$.pipe(map(names)), '----^').toBe('----a 5ms |', { a: 'a@1' });
      stopAt(inf, 10);
    });
  });
});
