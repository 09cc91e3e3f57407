// Type-level test (issue 15): a predicate written for KubeObject must not widen the element type.
// Before the fix, `predicateFilter(generationPredicate)` was an OperatorFunction<KubeObject,
// KubeObject>, so the `(d: V1Deployment) => ...` subscriber below did not compile.
import { describe, expect, it } from '@jest/globals';
import { TestScheduler } from 'rxjs/testing';
import type { Observable } from 'rxjs';
import type { V1Deployment } from '@kubernetes/client-node';
import { applied } from '../../lib/operators/applied.js';
import { generationPredicate, predicateFilter, resourceVersionPredicate } from '../../lib/operators/predicateFilter.js';
import { addNotification, updateNotification, type Notification } from '../../lib/informer/notification.js';

const deployment = (generation: number, replicas: number): V1Deployment => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web', namespace: 'ns', uid: 'u1', generation, resourceVersion: String(replicas) },
  spec: { replicas, selector: {}, template: {} },
});

describe('predicateFilter keeps the element type', () => {
  it('a V1Deployment stream stays a V1Deployment stream (spec.replicas readable without a cast)', () => {
    const ts = new TestScheduler((a, e) => expect(a).toEqual(e));
    ts.run(({ cold, expectObservable }) => {
      const values = {
        a: addNotification(deployment(1, 1), true),
        u: updateNotification(deployment(1, 1), deployment(1, 2)),
        g: updateNotification(deployment(1, 2), deployment(2, 3)),
      };
      const events$: Observable<Notification<V1Deployment>> = cold('a-u-g|', values);
      const replicas: number[] = [];
      const filtered: Observable<V1Deployment> = events$.pipe(
        applied(),
        predicateFilter(generationPredicate),
        predicateFilter(resourceVersionPredicate),
      );
      filtered.subscribe((d: V1Deployment) => replicas.push(d.spec?.replicas ?? -1));
      expectObservable(filtered.pipe()).toBe('a---g|', { a: deployment(1, 1), g: deployment(2, 3) });
      ts.flush();
      expect(replicas).toEqual([1, 3]);
    });
  });
});
