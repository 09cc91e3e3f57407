import { describe, expect, it } from '@jest/globals';
import { TestScheduler } from 'rxjs/testing';
import { map } from 'rxjs';
import { DeletedFinalStateUnknown } from '../../lib/meta/deletedFinalStateUnknown.js';
import type { KubeObject } from '../../lib/meta/kubeObject.js';
import { IndexConflictError, StoreWriteError } from '../../lib/store/indexErrors.js';
import type { Store } from '../../lib/store/store.js';
import { storeWriter } from '../../lib/store/storeWriter.js';
import { podOnNode } from '../support/pods.js';

const byNode = (p: KubeObject) => [(p as { spec: { nodeName: string } }).spec.nodeName];
const keys = (s: Store<KubeObject>) => [...s.listKeys()].sort().join(',');

describe('storeWriter', () => {
  it('store$ replays the current snapshot to every new subscriber, then emits each new one', () => {
    const writer = storeWriter();
    const early: string[] = [];
    const sub1 = writer.store$.subscribe((s) => early.push(`${keys(s)}@${s.resourceVersion ?? '-'}`));
    writer.replace([podOnNode('ns', 'a'), podOnNode('ns', 'b')], '10');
    const late: string[] = [];
    const sub2 = writer.store$.subscribe((s) => late.push(`${keys(s)}@${s.resourceVersion ?? '-'}`));
    writer.add(podOnNode('ns', 'c'));
    writer.delete(new DeletedFinalStateUnknown('ns/a', podOnNode('ns', 'a')));
    writer.setResourceVersion('12');
    expect(early).toEqual(['@-', 'ns/a,ns/b@10', 'ns/a,ns/b,ns/c@10', 'ns/b,ns/c@10', 'ns/b,ns/c@12']);
    expect(late).toEqual(['ns/a,ns/b@10', 'ns/a,ns/b,ns/c@10', 'ns/b,ns/c@10', 'ns/b,ns/c@12']);
    expect(keys(writer.current)).toBe('ns/b,ns/c');
    sub1.unsubscribe();
    sub2.unsubscribe();
  });

  it('store$ as a marble: replay on subscribe, one emission per write or batch, none for a no-op, completes on complete()', () => {
    new TestScheduler((actual, expected) => expect(actual).toEqual(expected)).run(
      ({ cold, expectObservable }) => {
        const writer = storeWriter();
        const a = podOnNode('ns', 'a');
        const writes = {
          r: () => writer.replace([a], '1'),
          n: () => writer.add(a), // the same frozen object: no change, no emission
          b: () =>
            writer.batch((m) => {
              m.upsert(podOnNode('ns', 'b'));
              m.upsert(podOnNode('ns', 'c'));
              m.setResourceVersion('3');
            }),
          x: () => writer.complete(),
        };
        cold('-r-n-b-x|', writes).subscribe((write) => write());
        expectObservable(writer.store$.pipe(map((s) => `${s.size}@${s.resourceVersion ?? '-'}`))).toBe(
          '01---3-|',
          {
            0: '0@-',
            1: '1@1',
            3: '3@3',
          },
        );
      },
    );
  });

  it('upsert returns the object it replaced (undefined for a new key) and emits the new snapshot once', () => {
    const w = storeWriter<KubeObject>();
    const seen: Array<Store<KubeObject>> = [];
    w.store$.subscribe((s) => seen.push(s));
    const a1 = podOnNode('ns', 'a', 'n1', '1');
    const a2 = podOnNode('ns', 'a', 'n2', '2');
    expect(w.upsert(a1)).toBeUndefined();
    expect(w.upsert(a2)).toBe(a1);
    expect(w.upsert(podOnNode('ns', 'b'))).toBeUndefined();
    // The same object again changes nothing: no emission, and it is its own predecessor.
    expect(w.upsert(a2)).toBe(a2);
    expect(seen.map((s) => keys(s))).toEqual(['', 'ns/a', 'ns/a', 'ns/a,ns/b']);
    expect(seen[2].getByKey('ns/a')).toBe(a2);
    w.complete();
    expect(() => w.upsert(a1)).toThrow(StoreWriteError);
  });

  it('batch returns its function result and emits once; apply takes one change or many', () => {
    const writer = storeWriter();
    const emitted: number[] = [];
    const sub = writer.store$.subscribe((s) => emitted.push(s.size));
    const replaced = writer.batch((m) => {
      m.upsert(podOnNode('ns', 'a'));
      return m.upsert(podOnNode('ns', 'a', 'n2', '2'));
    });
    expect(replaced?.metadata?.resourceVersion).toBe('1');
    writer.apply({ type: 'add', object: podOnNode('ns', 'b') });
    writer.apply([
      { type: 'update', object: podOnNode('ns', 'b', 'n1', '3') },
      { type: 'delete', object: podOnNode('ns', 'a') },
      { type: 'replace', items: [podOnNode('ns', 'z')], resourceVersion: '50' },
      { type: 'add', object: podOnNode('ns', 'y') },
      { type: 'resourceVersion', resourceVersion: '51' },
    ]);
    expect(emitted).toEqual([0, 1, 2, 2]);
    expect(keys(writer.current)).toBe('ns/y,ns/z');
    expect(writer.current.resourceVersion).toBe('51');
    sub.unsubscribe();
  });

  it('S4: addIndexers on a running writer indexes what is stored and keeps indexing later writes; a clash throws', () => {
    const writer = storeWriter();
    writer.replace([podOnNode('a', 'p1', 'n1'), podOnNode('a', 'p2', 'n2'), podOnNode('b', 'p3', 'n1')], '5');
    const snapshots: Array<Store<KubeObject>> = [];
    const sub = writer.store$.subscribe((s) => snapshots.push(s));
    writer.addIndexers({ byNode });
    expect(writer.current.indexKeys('byNode', 'n1').sort()).toEqual(['a/p1', 'b/p3']);
    writer.add(podOnNode('c', 'p4', 'n1'));
    writer.update(podOnNode('a', 'p1', 'n3'));
    expect(writer.current.indexKeys('byNode', 'n1').sort()).toEqual(['b/p3', 'c/p4']);
    expect(writer.current.indexKeys('byNode', 'n3')).toEqual(['a/p1']);
    expect(() => writer.addIndexers({ byNode })).toThrow(IndexConflictError);
    expect(snapshots).toHaveLength(4);
    sub.unsubscribe();
  });

  it('refuses writes from inside its own batch and after complete(), with StoreWriteError', () => {
    const writer = storeWriter();
    expect(() => writer.batch(() => writer.add(podOnNode('ns', 'a')))).toThrow(StoreWriteError);
    expect(writer.current.size).toBe(0);
    writer.add(podOnNode('ns', 'b'));
    let completed = false;
    const sub = writer.store$.subscribe({ complete: () => (completed = true) });
    writer.complete();
    writer.complete();
    expect(completed).toBe(true);
    expect(() => writer.add(podOnNode('ns', 'c'))).toThrow(/writer is complete/);
    expect(writer.current.size).toBe(1);
    sub.unsubscribe();
  });
});
