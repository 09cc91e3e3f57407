import { describe, expect, it } from '@jest/globals';
import { map } from 'rxjs';
import { IndexFunctionError } from '../../lib/store/indexErrors.js';
import type { RxkubeError } from '../../lib/errors.js';
import { informer } from '../../lib/informer/informer.js';
import type { WatchEvent } from '../../lib/listwatch/watchEvent.js';
import { fakeListWatch, listPage } from '../../lib/testing/marbles.js';
import { at, deleted, fast, modified, pod, stopAt, testScheduler, type Pod } from './support.js';

const bookmark = (rv: string): WatchEvent<Pod> =>
  ({ type: 'BOOKMARK', object: { metadata: { resourceVersion: rv } } }) as unknown as WatchEvent<Pod>;

describe('informer: the store follows the resource version (S7)', () => {
  it('getStore() and every store$ snapshot follow the list, event and bookmark RVs', () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const lw = fakeListWatch<Pod>({
        lists: [cold('-(p|)', { p: listPage([pod('a', '1'), pod('b', '1')], '1') })],
        watches: [
          cold('-m-d-b', { m: modified(pod('a', '2')), d: deleted(pod('b', '3')), b: bookmark('5') }),
        ],
      });
      const inf = informer(lw, fast);
      const rvs$ = inf.store$.pipe(map((s) => s.resourceVersion ?? 'none'));
      expectObservable(rvs$, '^ 9ms !').toBe('x12-3-5', { x: 'none', 1: '1', 2: '2', 3: '3', 5: '5' });
      at(3, () => expect(inf.getStore().resourceVersion).toBe('2'));
      at(5, () => expect(inf.getStore().resourceVersion).toBe('3'));
    });
  });

  it("lastSyncResourceVersion() is '' before the first list, then follows the list, event and bookmark RVs", () => {
    testScheduler().run(({ cold }) => {
      const lw = fakeListWatch<Pod>({
        lists: [cold('-(p|)', { p: listPage([pod('a', '1'), pod('b', '1')], '1') })],
        watches: [
          cold('-m-d-b', { m: modified(pod('a', '2')), d: deleted(pod('b', '3')), b: bookmark('5') }),
        ],
      });
      const inf = informer(lw, fast);
      inf.start();
      stopAt(inf, 9);
      const seen: string[] = [];
      for (const t of [0, 1, 3, 5, 7]) at(t, () => seen.push(inf.lastSyncResourceVersion()));
      at(8, () => expect(seen).toEqual(['', '1', '2', '3', '5']));
    });
  });

  it('an event whose object has no resource version leaves the store at its last valid one', () => {
    testScheduler().run(({ cold }) => {
      const noRv = { ...pod('a', ''), metadata: { name: 'a', namespace: 'ns' } } as unknown as Pod;
      const lw = fakeListWatch<Pod>({
        lists: [cold('-(p|)', { p: listPage([pod('a', '1')], '1') })],
        watches: [cold('-m-n', { m: modified(pod('a', '2')), n: modified(noRv) })],
      });
      const inf = informer(lw, fast);
      inf.start();
      stopAt(inf, 10);
      at(9, () => {
        expect(inf.getByKey('ns/a')).toBe(noRv);
        expect(inf.getStore().resourceVersion).toBe('2');
      });
    });
  });
});

describe('informer: a throwing index function (S8)', () => {
  const byBad = (p: Pod): string[] => {
    if (p.metadata.labels?.bad) throw new Error('no index for bad pods');
    return [p.metadata.labels?.app ?? ''];
  };

  it('is reported as IndexFunctionError on errors$; the store stays consistent and the informer goes on', () => {
    testScheduler().run(({ cold }) => {
      const bad = pod('b', '1', {
        metadata: { name: 'b', namespace: 'ns', resourceVersion: '1', labels: { bad: 'y' } },
      });
      const lw = fakeListWatch<Pod>({
        lists: [cold('-(p|)', { p: listPage([pod('a', '1'), bad, pod('c', '1')], '1') })],
        watches: [
          cold('-m-f', {
            m: modified(pod('a', '2')),
            f: modified(
              pod('b', '3', {
                metadata: { name: 'b', namespace: 'ns', resourceVersion: '3', labels: { app: 'x' } },
              }),
            ),
          }),
        ],
      });
      const inf = informer(lw, { ...fast, indexers: { byBad } });
      const errors: RxkubeError[] = [];
      inf.errors$.subscribe((e) => errors.push(e));
      const seen: string[] = [];
      inf.addEventHandler({
        add: (p) => void seen.push(`add ${p.metadata.name}`),
        update: (_o, p) => void seen.push(`update ${p.metadata.name}@${p.metadata.resourceVersion}`),
      });
      inf.start();
      stopAt(inf, 10);
      at(2, () => {
        expect(errors).toHaveLength(1);
        const e = errors[0] as IndexFunctionError;
        expect(e).toBeInstanceOf(IndexFunctionError);
        expect([e.indexName, e.key]).toEqual(['byBad', 'ns/b']);
        expect(e.message).toContain('no index for bad pods');
        expect(inf.listKeys().slice().sort()).toEqual(['ns/a', 'ns/c']);
        expect(inf.indexKeys('byBad', '').sort()).toEqual(['ns/a', 'ns/c']);
        expect(inf.hasSynced()).toBe(true);
      });
      at(9, () => {
        expect(inf.getByKey('ns/a')?.metadata.resourceVersion).toBe('2');
        expect(inf.indexKeys('byBad', 'x')).toEqual(['ns/b']);
        expect(seen).toEqual(['add a', 'add c', 'update a@2', 'add b']);
        expect(errors).toHaveLength(1);
      });
    });
  });
  it('an index function that returns no array (undefined here) is the same: reported, nothing of the object stored, not half-indexed', () => {
    testScheduler().run(({ cold }) => {
      const onlyOk = (p: Pod): ReadonlyArray<string> =>
        (p.metadata.labels?.ok ? ['v'] : undefined) as unknown as ReadonlyArray<string>;
      const good = pod('c', '1', { metadata: { name: 'c', namespace: 'ns', resourceVersion: '1', labels: { ok: 'y' } } });
      const lw = fakeListWatch<Pod>({ lists: [cold('-(p|)', { p: listPage([pod('b', '1'), good], '1') })], watches: [cold('-')] });
      const inf = informer(lw, { ...fast, indexers: { onlyOk } });
      const errors: RxkubeError[] = [];
      inf.errors$.subscribe((e) => errors.push(e));
      const adds: string[] = [];
      inf.addEventHandler({ add: (p) => void adds.push(p.metadata.name) });
      inf.start();
      stopAt(inf, 5);
      at(3, () => {
        // Before: ns/b was stored and in the namespace index, missing from onlyOk, and never notified.
        expect(inf.listKeys()).toEqual(['ns/c']);
        expect(inf.byIndex('namespace', 'ns').map((p) => p.metadata.name)).toEqual(['c']);
        expect(adds).toEqual(['c']);
        expect(errors).toHaveLength(1);
        expect(errors[0]).toBeInstanceOf(IndexFunctionError);
        expect([(errors[0] as IndexFunctionError).indexName, (errors[0] as IndexFunctionError).key]).toEqual(['onlyOk', 'ns/b']);
        expect(errors[0].message).toMatch(/returned undefined; an index function must return an array of strings/);
      });
    });
  });
});

describe('informer: snapshots handed out never change (S1), while its own reads follow each event', () => {
  it('getStore() kept across events keeps its objects; list() and getByKey() see every update', () => {
    testScheduler().run(({ cold }) => {
      const lw = fakeListWatch<Pod>({
        lists: [cold('-(p|)', { p: listPage([pod('a', '1'), pod('b', '1')], '1') })],
        watches: [
          cold('-x-y-z-w', {
            x: modified(pod('a', '2')),
            y: modified(pod('a', '3')),
            z: modified(pod('b', '4')),
            w: deleted(pod('a', '5')),
          }),
        ],
      });
      const inf = informer(lw, fast);
      inf.start();
      stopAt(inf, 12);
      const rvs = (pods: ReadonlyArray<Pod>) => pods.map((p) => `${p.metadata.name}@${p.metadata.resourceVersion}`).sort();
      // Informer reads between events (they hand out no snapshot): each sees the latest object.
      const lists: string[][] = [];
      for (const t of [2, 4, 6, 8, 10]) at(t, () => lists.push(rvs(inf.list())));
      let kept: ReturnType<typeof inf.getStore> | undefined;
      at(4, () => (kept = inf.getStore()));
      at(11, () => {
        expect(lists).toEqual([['a@1', 'b@1'], ['a@2', 'b@1'], ['a@3', 'b@1'], ['a@3', 'b@4'], ['b@4']]);
        expect(rvs(kept!.list())).toEqual(['a@2', 'b@1']);
        expect(kept!.getByKey('ns/a')?.metadata.resourceVersion).toBe('2');
        expect(kept!.size).toBe(2);
        expect(inf.getByKey('ns/a')).toBeUndefined();
      });
    });
  });
});
