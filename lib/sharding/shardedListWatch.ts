import type { KubeConfig } from '@kubernetes/client-node';
import { filter, map, type Observable } from 'rxjs';
import type { LoggerOption } from '../logging/errorLogger.js';
import { listWatch, type ListWatchOptions } from '../listwatch/createListWatch.js';
import type { ListOptions, ListPage, ListWatch, WatchOptions } from '../listwatch/listWatch.js';
import type { Resource } from '../listwatch/resource.js';
import { resourcePath } from '../listwatch/resourcePath.js';
import type { WatchEvent } from '../listwatch/watchEvent.js';
import type { KubeObjectLike } from '../meta/kubeObject.js';
import { logOnce } from '../meta/logOnce.js';
import type { Transport } from '../transport/transport.js';
import { inShardRanges, shardSelector, type ShardField, type ShardRange } from './shardRange.js';

/**
 * Who filters a sharded ListWatch's objects: `unknown` before its first list answer, `server`
 * once a list answer carried `metadata.shardInfo` for its selector (KEP-5866), `client` once one
 * did not (a server without the feature ignores the selector: this replica then drops what is not
 * in its range itself).
 *
 * @example
 * ```ts
 * const mode: ShardFiltering = lw.filtering();
 * ```
 */
export type ShardFiltering = 'unknown' | 'server' | 'client';

/**
 * A {@link ListWatch} of one shard, which says who filters.
 *
 * @example
 * ```ts
 * if (lw.filtering() === 'client') console.log('the server ignores shard selectors');
 * ```
 */
export interface ShardedListWatch<T> extends ListWatch<T> {
  filtering(): ShardFiltering;
}

/**
 * Options of {@link shardedListWatch}: those of `listWatch`, the field hashed, and where to say
 * (once) that the server ignored the selector.
 *
 * @example
 * ```ts
 * const options: ShardedListWatchOptions = { namespace: 'shop', logger: false };
 * ```
 */
export interface ShardedListWatchOptions extends Omit<ListWatchOptions, 'shardSelector'> {
  /** The field hashed; default `object.metadata.uid`. */
  readonly field?: ShardField;
  /** Unset: `console.error` (unless `RXKUBE_LOG=off`); `false`: nowhere; or your own `Logger`. */
  readonly logger?: LoggerOption;
}

/**
 * The ListWatch of the objects whose 64-bit FNV-1a hash of `metadata.uid` falls in `ranges`
 * (server-side sharding, KEP-5866): lists and watches carry `shardSelector`, so a 1.36+ server
 * with the ShardedListAndWatch gate sends only this shard. A server that ignores it (the gate is
 * alpha and off by default) is told from the list answer, which then lacks
 * `metadata.shardInfo`: the objects outside the ranges are dropped here, so the informer holds the
 * same objects either way: none lost, none doubled across replicas using disjoint ranges.
 *
 * ```text
 * list  shardSelector=shardRange(object.metadata.uid, '0x..', '0x..')
 *   <- metadata.shardInfo.selector == ours  -> filtering 'server': items as they are
 *   <- no shardInfo                         -> filtering 'client': items filtered here (logged once)
 * watch: filtered here unless the last list said 'server'
 * ```
 *
 * @example
 * ```ts
 * const range = shardRangeOf('replica-1', ['replica-0', 'replica-1', 'replica-2'])!;
 * const pods = informer(shardedListWatch<Pod>(kubeConfig, builtInResources.pods, [range]));
 * ```
 */
export function shardedListWatch<T extends KubeObjectLike>(
  source: KubeConfig | Transport,
  resource: Resource,
  ranges: ReadonlyArray<ShardRange>,
  options: ShardedListWatchOptions = {},
): ShardedListWatch<T> {
  const { logger, field = 'object.metadata.uid', ...rest } = options;
  const selector = shardSelector(ranges, field);
  const inner = listWatch<T>(source, resource, { ...rest, shardSelector: selector });
  const valueOf = (obj: T): string => (field === 'object.metadata.uid' ? obj?.metadata?.uid : obj?.metadata?.namespace) ?? '';
  const mine = (obj: T): boolean => inShardRanges(valueOf(obj), ranges);
  let mode: ShardFiltering = 'unknown';
  const warn = logOnce(logger);
  const tell = (): void =>
    warn(
      `rxkube: GET ${resourcePath(resource, options.namespace)}: the server ignored the shard selector (no metadata.shardInfo; ` +
        'KEP-5866 ShardedListAndWatch is off or unsupported); filtering the shard on the client',
    );
  const keep = (e: WatchEvent<T>): boolean =>
    mode === 'server' || e.type === 'BOOKMARK' || e.type === 'ERROR' || e.type === 'MALFORMED' || mine(e.object);
  return {
    filtering: () => mode,
    list(listOptions: ListOptions): Observable<ListPage<T>> {
      return inner.list(listOptions).pipe(
        map((page) => {
          if (page.shardInfo?.selector === selector) {
            mode = 'server';
            return page;
          }
          mode = 'client';
          tell();
          return { ...page, items: page.items.filter(mine) };
        }),
      );
    },
    watch(watchOptions: WatchOptions): Observable<WatchEvent<T>> {
      return inner.watch(watchOptions).pipe(filter(keep));
    },
    watchBursts(watchOptions: WatchOptions): Observable<ReadonlyArray<WatchEvent<T>>> {
      const bursts = inner.watchBursts?.(watchOptions) ?? inner.watch(watchOptions).pipe(map((e) => [e]));
      return bursts.pipe(map((burst) => (mode === 'server' ? burst : burst.filter(keep))));
    },
  };
}
