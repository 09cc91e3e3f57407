// KEP-5866 (Kubernetes 1.36, alpha, feature gate ShardedListAndWatch, off by default): a list or
// watch may carry `shardSelector=shardRange(object.metadata.uid, '0x<start>', '0x<end>')` (ranges
// joined by `||`), and gets only the objects whose 64-bit FNV-1a hash of that field falls in
// [start, end); a list answer says which shard it served in `metadata.shardInfo.selector` (the
// selector echoed). With the gate off the parameter is ignored and the answer has no shardInfo:
// that is how a client tells. This fake does the same behind its `shardedListAndWatch` option.
import { RxkubeError } from '../../../errors.js';
import { inShardRanges, parseShardSelector } from '../../../sharding/shardRange.js';
import type { Selectable, Selectors } from './selectors.js';
import { badRequest } from '../status.js';
import type { StoredObject } from './storedObject.js';

/** A shard selector the server applies: the echoed string and its filter. */
export interface AppliedShard {
  readonly selector: string;
  matches(o: StoredObject): boolean;
}

/**
 * The shard selector of a list or watch, when the server applies it (`enabled`, and the
 * parameter given); a malformed one is a 400 as kube answers it.
 */
export function shardOf(query: URLSearchParams, enabled: boolean): AppliedShard | undefined {
  const selector = query.get('shardSelector');
  if (!enabled || selector === null || selector === '') return undefined;
  let parsed;
  try {
    parsed = parseShardSelector(selector);
  } catch (e) {
    if (e instanceof RxkubeError) throw badRequest(e.message);
    throw e;
  }
  const { field, ranges } = parsed;
  return {
    selector,
    matches: (o) => inShardRanges(field === 'object.metadata.uid' ? o.uid : o.namespace, ranges),
  };
}

/** The selectors with the shard's filter added (no longer empty: no remainingItemCount, as kube). */
export function withShard(selectors: Selectors, shard: AppliedShard | undefined): Selectors {
  if (shard === undefined) return selectors;
  return { isEmpty: false, matches: (o: Selectable) => selectors.matches(o) && shard.matches(o as StoredObject) };
}
