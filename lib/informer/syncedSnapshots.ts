import { combineLatest, distinctUntilChanged, filter, map, type Observable } from 'rxjs';

/**
 * The store snapshots from the first synced one on: `store$` while `synced$` is `true`.
 *
 * `store$` replays the current snapshot, which before the first list is the empty one; filtering it
 * by `hasSynced()` at each emission drops the first full snapshot, because the store is written
 * before the informer says it has synced (the store first, then handlers, then `synced$`). Combining the two streams takes
 * the snapshot that is current when `synced$` turns `true`, then every later one.
 *
 * ```text
 * store$:   S0--S1(full)--------S2---S3--|
 * synced$:  f---------t------------------|
 * result:   ----------S1--------S2---S3--|
 * ```
 *
 * @example
 * ```ts
 * const counts$ = syncedSnapshots(pods.store$, pods.synced$).pipe(map((s) => s.size));
 * ```
 */
export function syncedSnapshots<S>(store$: Observable<S>, synced$: Observable<boolean>): Observable<S> {
  return combineLatest([store$, synced$]).pipe(
    filter(([, synced]) => synced),
    map(([store]) => store),
    distinctUntilChanged(),
  );
}
