import { describe, expect, it } from '@jest/globals';
import { TestScheduler } from 'rxjs/testing';
import { applied } from '../../lib/operators/applied.js';
import { touched } from '../../lib/operators/touched.js';
import { ofType } from '../../lib/operators/ofType.js';
import {
  generationPredicate,
  predicateFilter,
  resourceVersionPredicate,
} from '../../lib/operators/predicateFilter.js';
import { keyedView } from '../../lib/operators/keyedView.js';
import { listed } from '../../lib/operators/listed.js';
import { addNotification, deleteNotification, updateNotification } from '../../lib/informer/notification.js';
import { DeletedFinalStateUnknown } from '../../lib/meta/deletedFinalStateUnknown.js';
import { IndexNotFoundError } from '../../lib/store/indexErrors.js';
import type { ListerSource } from '../../lib/lister/lister.js';

interface Pod {
  metadata: {
    name: string;
    namespace: string;
    uid?: string;
    generation?: number;
    resourceVersion?: string;
    labels?: Record<string, string>;
  };
  status?: { phase?: string };
}
const pod = (name: string, extra: Partial<Pod['metadata']> = {}, phase?: string): Pod => ({
  metadata: { name, namespace: 'ns', uid: `uid-${name}`, ...extra },
  ...(phase ? { status: { phase } } : {}),
});

const testScheduler = () => new TestScheduler((actual, expected) => expect(actual).toEqual(expected));

// A stand-in for a store snapshot: just enough for the operators' structural input type.
const snapshot = (...items: Pod[]): ListerSource<Pod> => ({
  list: () => items,
  getByKey: (key) => items.find((p) => `${p.metadata.namespace}/${p.metadata.name}` === key),
  byIndex: (name) => {
    throw new IndexNotFoundError(name);
  },
});

const A = pod('a', { resourceVersion: '1' });
const A2 = pod('a', { resourceVersion: '2' });
const C = pod('c', { resourceVersion: '3' });
const events = {
  a: addNotification(A, false),
  u: updateNotification(A, A2),
  d: deleteNotification(A2),
  t: deleteNotification(new DeletedFinalStateUnknown('ns/c', C)),
};

describe('operators (marble tests)', () => {
  it('ofType keeps notifications of the given types', () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const source = cold('-a-u-d-a-|', events);
      expectObservable(source.pipe(ofType('add', 'delete'))).toBe('-a---d-a-|', events);
      expectObservable(source.pipe(ofType('update'))).toBe('---u-----|', events);
    });
  });

  it('applied emits added and updated objects, not deletions', () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const source = cold('-a-u-d-|', events);
      expectObservable(source.pipe(applied())).toBe('-A-B---|', { A, B: A2 });
    });
  });

  it('touched emits added, updated and deleted objects, unwrapping tombstones', () => {
    testScheduler().run(({ cold, expectObservable }) => {
      const source = cold('-a-u-d-t-|', events);
      expectObservable(source.pipe(touched())).toBe('-A-B-B-C-|', { A, B: A2, C });
    });
  });

  it('predicateFilter(generationPredicate) passes only changes of generation, per key', () => {
    const objs = {
      x: pod('a', { generation: 1, resourceVersion: '1' }),
      y: pod('a', { generation: 1, resourceVersion: '2' }), // status-only update
      z: pod('a', { generation: 2, resourceVersion: '3' }),
      b: pod('b', { generation: 1 }),
      r: pod('a', { generation: 2, uid: 'recreated' }), // deleted and re-created under the same name
      n: pod('n'), // no generation: always passes
    };
    testScheduler().run(({ cold, expectObservable }) => {
      const source = cold('-x-y-z-b-z-r-n-n-|', objs);
      expectObservable(source.pipe(predicateFilter(generationPredicate))).toBe('-x---z-b---r-n-n-|', objs);
    });
  });

  it('predicateFilter keeps its memory per subscription', () => {
    const objs = { x: pod('a', { resourceVersion: '1' }), y: pod('a', { resourceVersion: '1' }) };
    testScheduler().run(({ cold, expectObservable }) => {
      const filtered = cold('-x-y|', objs).pipe(predicateFilter(resourceVersionPredicate));
      expectObservable(filtered).toBe('-x--|', objs);
      expectObservable(filtered).toBe('-x--|', objs);
    });
  });

  it('keyedView groups each snapshot by a key, leaving out undefined keys', () => {
    const p1 = pod('p1', {}, 'Running');
    const p2 = pod('p2', {}, 'Pending');
    const p3 = pod('p3', {}, 'Running');
    const p4 = pod('p4');
    testScheduler().run(({ cold, expectObservable }) => {
      const store$ = cold('-s--t-|', { s: snapshot(p1, p2), t: snapshot(p1, p2, p3, p4) });
      expectObservable(store$.pipe(keyedView((p: Pod) => p.status?.phase))).toBe('-m--n-|', {
        m: new Map([
          ['Running', [p1]],
          ['Pending', [p2]],
        ]),
        n: new Map([
          ['Running', [p1, p3]],
          ['Pending', [p2]],
        ]),
      });
    });
  });

  it('listed emits the selector result only when it changes', () => {
    const web1 = pod('w1', { labels: { app: 'web' } });
    const web2 = pod('w2', { labels: { app: 'web' } });
    const db = pod('db', { labels: { app: 'db' } });
    const db2 = pod('db', { labels: { app: 'db' }, resourceVersion: '9' });
    testScheduler().run(({ cold, expectObservable }) => {
      const store$ = cold('-s-t-u-|', {
        s: snapshot(web1, db),
        t: snapshot(web1, db2), // a change outside the selector: no emission
        u: snapshot(web1, db2, web2),
      });
      expectObservable(store$.pipe(listed<Pod>('app=web'))).toBe('-r---q-|', { r: [web1], q: [web1, web2] });
    });
  });

  it('listed narrows to a namespace', () => {
    const here = pod('h', { labels: { app: 'web' } });
    const there: Pod = { metadata: { name: 't', namespace: 'other', labels: { app: 'web' } } };
    testScheduler().run(({ cold, expectObservable }) => {
      const store$ = cold('-s-|', { s: snapshot(here, there) });
      expectObservable(store$.pipe(listed<Pod>('app', { namespace: 'other' }))).toBe('-r-|', { r: [there] });
    });
  });
});
