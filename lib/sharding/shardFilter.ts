import { filter, map, pairwise, startWith, mergeMap, from, type MonoTypeOperatorFunction, type Observable } from 'rxjs';
import { shardAssignment, type ShardAssignment } from './shardAssignment.js';

/**
 * Keeps the keys this replica owns at the moment each arrives: the key filter of a sharded
 * controller's queue.
 *
 * @example
 * ```ts
 * keys$.pipe(ownedKeys(shard)).subscribe((key) => queue.add(key));
 * ```
 */
export function ownedKeys(shard: { owns(key: string): boolean }): MonoTypeOperatorFunction<string> {
  return filter((key) => shard.owns(key));
}

/**
 * The keys a replica GAINS when its assignment changes (a member left, it became active): each
 * key of `listKeys()` it owns now and did not own before. A sharded controller enqueues them, since
 * their changes were filtered out while another member owned them.
 *
 * ```text
 * assignment$: -A{a,b}---------A{a}---------
 * gained:      -(keys a owns)--(b's keys)--
 * ```
 *
 * @example
 * ```ts
 * keysGained(shard.assignment$, () => informer.listKeys()).subscribe((key) => queue.add(key));
 * ```
 */
export function keysGained(assignment$: Observable<ShardAssignment>, listKeys: () => Iterable<string>): Observable<string> {
  return assignment$.pipe(
    startWith(shardAssignment('', [], false)),
    pairwise(),
    map(([prev, next]) => [...listKeys()].filter((key) => next.owns(key) && !prev.owns(key))),
    mergeMap((keys) => from(keys)),
  );
}
