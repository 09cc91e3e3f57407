import type { KubeConfig } from '@kubernetes/client-node';
import { map, type Observable } from 'rxjs';
import type { LoggerOption } from '../logging/errorLogger.js';
import type { KubeObject, ObjectMeta } from '../meta/kubeObject.js';
import { logOnce } from '../meta/logOnce.js';
import type { Transport } from '../transport/transport.js';
import { listWatch, type ListWatchOptions } from './createListWatch.js';
import type { DroppableField } from './droppableField.js';
import type { ListOptions, ListPage, ListWatch, WatchOptions } from './listWatch.js';
import type { Resource } from './resource.js';
import { resourcePath } from './resourcePath.js';
import type { WatchEvent } from './watchEvent.js';

/**
 * An object's metadata only, as the API server sends it to a metadata-only list or watch
 * (`meta.k8s.io/v1` `PartialObjectMetadata`): no spec, no status.
 *
 * @example
 * ```ts
 * const p: PartialObjectMetadata = { apiVersion: 'meta.k8s.io/v1', kind: 'PartialObjectMetadata', metadata: { name: 'a' } };
 * ```
 */
export interface PartialObjectMetadata extends KubeObject {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
}

/**
 * The `Accept` headers of metadata-only lists and watches, as client-go's metadata client sends
 * them less protobuf: the conversion first, plain JSON as the fallback a server that cannot convert
 * answers with (then the objects are cut down here).
 *
 * @example
 * ```ts
 * transport.request({ method: 'GET', path: '/api/v1/pods', query: {}, accept: metadataAccept.list, signal });
 * ```
 */
export const metadataAccept = Object.freeze({
  list: 'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json',
  watch: 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json',
});

/**
 * Options of {@link metadataListWatch}: those of `listWatch`, and where to say (once) that the
 * server sent full objects.
 *
 * @example
 * ```ts
 * const options: MetadataListWatchOptions = { namespace: 'shop', logger: false };
 * ```
 */
export interface MetadataListWatchOptions extends Omit<ListWatchOptions, 'accept'> {
  /** Unset: `console.error` (unless `RXKUBE_LOG=off`); `false`: nowhere; or your own `Logger`. */
  readonly logger?: LoggerOption;
}

const partialKind = 'PartialObjectMetadata';
const partialListKind = 'PartialObjectMetadataList';

/** The metadata of a full object, as the server would have sent it. */
const toPartial = (obj: KubeObject): PartialObjectMetadata => ({
  apiVersion: 'meta.k8s.io/v1',
  kind: partialKind,
  metadata: obj?.metadata ?? {},
});

/**
 * A metadata-only {@link ListWatch} (client-go's metadata informer's ListWatch, kube-rs's
 * `metadata_watcher`): lists ask for `PartialObjectMetadataList`, watches for
 * `PartialObjectMetadata`, so spec and status never cross the wire. Give it to `informer()` (or use
 * `factory.metadata(resource)`) for listers and indexers over metadata.
 *
 * A server (or proxy) that ignores the Accept header answers with full objects: that is seen from
 * the answer's `kind` (a list not `PartialObjectMetadataList`, an object not
 * `PartialObjectMetadata`), the objects are cut down to their metadata here, and it is said once in
 * the log. Nothing is lost: the store holds the same metadata either way.
 *
 * ```text
 * list  ->  Accept: ...;as=PartialObjectMetadataList;...   <- PartialObjectMetadataList  (as is)
 *                                                          <- PodList  (items cut to metadata; logged once)
 * watch ->  Accept: ...;as=PartialObjectMetadata;...       <- {type, object: PartialObjectMetadata}
 * ```
 *
 * @example
 * ```ts
 * const lw = metadataListWatch(kubeConfig, { group: '', version: 'v1', plural: 'pods', namespaced: true });
 * const pods = informer(lw, { name: 'pods (metadata)' });
 * pods.start();
 * await pods.waitForCacheSync();
 * pods.getStore().list().map((p) => p.metadata?.labels);
 * ```
 */
export function metadataListWatch(
  source: KubeConfig | Transport,
  resource: Resource,
  options: MetadataListWatchOptions = {},
): ListWatch<PartialObjectMetadata> {
  // Not destructured with the rest: `dropping` below needs the options as given.
  const given = options;
  const { logger, ...rest } = options;
  const inner = listWatch<KubeObject>(source, resource, { ...rest, accept: metadataAccept });
  const path = resourcePath(resource, options.namespace);
  const warn = logOnce(logger);
  const tell = (got: string | undefined): void =>
    warn(
      `rxkube: GET ${path}: asked for metadata only, the server sent ${got ?? 'objects without a kind'}; ` +
        'keeping only their metadata (an older server, or a proxy that drops the Accept header?)',
    );
  const cutObject = (obj: KubeObject): PartialObjectMetadata => {
    if (obj?.kind === partialKind) return obj;
    tell(obj?.kind);
    return toPartial(obj);
  };
  const cutEvent = (e: WatchEvent<KubeObject>): WatchEvent<PartialObjectMetadata> => {
    if (e.type === 'ERROR' || e.type === 'MALFORMED') return e;
    return e.object?.kind === partialKind ? (e as WatchEvent<PartialObjectMetadata>) : { type: e.type, object: cutObject(e.object) };
  };
  return {
    list(listOptions: ListOptions): Observable<ListPage<PartialObjectMetadata>> {
      return inner.list(listOptions).pipe(
        map((page) => {
          if (page.kind === partialListKind) return page as ListPage<PartialObjectMetadata>;
          tell(page.kind);
          return { ...page, items: page.items.map(toPartial) };
        }),
      );
    },
    watch(watchOptions: WatchOptions): Observable<WatchEvent<PartialObjectMetadata>> {
      return inner.watch(watchOptions).pipe(map(cutEvent));
    },
    watchBursts(watchOptions: WatchOptions): Observable<ReadonlyArray<WatchEvent<PartialObjectMetadata>>> {
      const bursts = inner.watchBursts?.(watchOptions) ?? inner.watch(watchOptions).pipe(map((e) => [e]));
      return bursts.pipe(map((burst) => burst.map(cutEvent)));
    },
    dropping(fields: ReadonlyArray<DroppableField>): ListWatch<PartialObjectMetadata> {
      return metadataListWatch(source, resource, { ...given, drop: fields });
    },
  };
}
