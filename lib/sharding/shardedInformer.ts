import { map, type Observable, type SchedulerLike } from 'rxjs';
import type { Informer } from '../informer/informer.js';
import type { KubeObjectLike } from '../meta/kubeObject.js';
import { informerRuns, type InformerRuns } from '../runs/informerRuns.js';
import type { ShardAssignment } from './shardAssignment.js';
import { shardRangeOf, type ShardRange } from './shardRange.js';

/**
 * The range of hash space an assignment gives its replica: equal ranges over the live members
 * (sorted), `undefined` while it is not an active member.
 *
 * @example
 * ```ts
 * shard.assignment$.pipe(map(assignedRange));
 * ```
 */
export const assignedRange = (a: ShardAssignment): ShardRange | undefined => (a.active ? shardRangeOf(a.self, a.members) : undefined);

const sameRange = (a: ShardRange, b: ShardRange): boolean => a.start === b.start && a.end === b.end;

/**
 * An informer of this replica's share, following membership: for each range the assignment gives
 * (`sharding()`'s `assignment$`: equal ranges over the live members), the informer `create`
 * builds for it (typically over `shardedListWatch`), so the server sends only this range when it
 * supports KEP-5866. When membership changes the range changes: the informer of the new range
 * starts, and the old one stays current until the new one has synced (`syncFirst`), so no key is
 * unowned during the change; a key may be held by two replicas for that moment.
 *
 * ```text
 * members:  [a,b,c]            [a,b]  (c left)
 * range:    a: [0, 1/3)        a: [0, 1/2)
 * runs:     [#1 ---------------[#2 syncing]  #1 current until #2 has synced
 *                               [#2 ------------
 * ```
 *
 * @example
 * ```ts
 * const pods = shardedInformer(shard.assignment$, (range) => informer(shardedListWatch<Pod>(kc, builtInResources.pods, [range])));
 * pods.start();
 * ```
 */
export function shardedInformer<T extends KubeObjectLike>(
  assignment$: Observable<ShardAssignment>,
  create: (range: ShardRange) => Informer<T>,
  options: { readonly scheduler?: SchedulerLike } = {},
): InformerRuns<T> {
  return informerRuns(assignment$.pipe(map(assignedRange)), create, { ...options, handover: 'syncFirst', same: sameRange });
}
