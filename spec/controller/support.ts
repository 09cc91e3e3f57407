// Fixtures for the controller marble tests: real informers over scripted list/watch answers, on
// the TestScheduler's virtual time.
import { expect } from '@jest/globals';
import { finalize, map, timer, type Observable, type SchedulerLike } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { informer, type Informer } from '../../lib/informer/informer.js';
import type { WatchEvent } from '../../lib/listwatch/watchEvent.js';
import type { OwnerReference } from '../../lib/meta/kubeObject.js';
import { fakeListWatch, listPage } from '../../lib/testing/marbles.js';
import type { ReconcileContext, ReconcileResult } from '../../lib/controller/reconciler.js';
import { HeldKeys } from '../workqueue/support.js';
import { listedPod } from '../support/pods.js';

export { HeldKeys };

export interface Obj {
  apiVersion: string;
  kind: string;
  metadata: {
    name: string;
    namespace: string;
    uid: string;
    resourceVersion: string;
    generation?: number;
    labels?: Record<string, string>;
    ownerReferences?: OwnerReference[];
  };
  status?: { ready?: number };
}

export const testScheduler = () => new TestScheduler((actual, expected) => expect(actual).toEqual(expected));

export const dep = (name: string, rv: string, generation = 1, extra: Partial<Obj['metadata']> = {}): Obj => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name, namespace: 'ns', uid: `uid-${name}`, resourceVersion: rv, generation, ...extra },
});

export const ownerRef = (name: string, controller = true, kind = 'Deployment', apiVersion = 'apps/v1'): OwnerReference => ({
  apiVersion,
  kind,
  name,
  uid: `uid-${name}`,
  controller,
});

export const pod = (name: string, rv: string, owners: OwnerReference[] = []): Obj =>
  listedPod(name, rv, { uid: `uid-${name}`, ownerReferences: owners });

export const modified = (object: Obj): WatchEvent<Obj> => ({ type: 'MODIFIED', object });
export const added = (object: Obj): WatchEvent<Obj> => ({ type: 'ADDED', object });

/**
 * An informer whose first list answers `listMarble` with `items` (at the frame of `p`) and whose
 * watch plays `watchMarble` with `events`.
 */
export function scriptedInformer(
  ts: TestScheduler,
  items: Obj[],
  watchMarble = '',
  events: Record<string, WatchEvent<Obj>> = {},
  listMarble = '5ms (p|)',
): Informer<Obj> {
  const lw = fakeListWatch<Obj>({
    lists: [ts.createColdObservable(listMarble, { p: listPage(items, '1') })],
    watches: watchMarble === '' ? [] : [ts.createColdObservable(watchMarble, events)],
  });
  return informer(lw, { scheduler: ts, reflector: { random: () => 0 } });
}

/**
 * A reconcile that records `key@time` when it starts, holds the key `holdMs` virtual ms (checking
 * that no other worker holds it), then emits `result(key, ctx)`.
 */
export function recordingReconcile(
  scheduler: SchedulerLike,
  held: HeldKeys,
  options: { holdMs?: number; result?: (key: string, ctx: ReconcileContext<Obj>) => ReconcileResult | void } = {},
) {
  const log: string[] = [];
  const reconcile = (key: string, ctx: ReconcileContext<Obj>): Observable<ReconcileResult | void> => {
    log.push(`${key}@${scheduler.now()}`);
    held.enter(key);
    // Leaves before the result is emitted: the controller may hand the key on as soon as it has it.
    return timer(options.holdMs ?? 10, scheduler).pipe(
      map(() => {
        held.leave(key);
        return options.result?.(key, ctx);
      }),
      finalize(() => held.leave(key)),
    );
  };
  return { log, reconcile };
}
