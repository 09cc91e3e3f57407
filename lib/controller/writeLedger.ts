import { metaNamespaceKeyFunc } from '../meta/keys.js';
import type { KubeObjectLike } from '../meta/kubeObject.js';
import type { WroteOptions } from '../write/writeTracker.js';
import type { AwaitedWrite, CacheReading } from './ownWrites.js';

/**
 * What the ledger needs of one of the controller's informers: reads of its store, and the kind of
 * its objects (`group/Kind`, e.g. `apps/Deployment`, `/ConfigMap`), known from `forKind` or
 * learned from the first object that carries one.
 */
export interface WatchedCache {
  kind: string | undefined;
  readonly getByKey?: (key: string) => KubeObjectLike | undefined;
  readonly lastSyncResourceVersion?: () => string;
}

/**
 * The {@link WatchedCache} of an informer (one without `getByKey` cannot be waited on).
 *
 * @example
 * ```ts
 * const cache = watchedCache(factory.configMaps(), '/ConfigMap');
 * ```
 */
export function watchedCache(informer: object, kind: string | undefined): WatchedCache {
  const i = informer as { getByKey?: (key: string) => KubeObjectLike | undefined; lastSyncResourceVersion?: () => string };
  return {
    kind,
    getByKey: typeof i.getByKey === 'function' ? (key) => i.getByKey?.(key) : undefined,
    lastSyncResourceVersion: typeof i.lastSyncResourceVersion === 'function' ? () => i.lastSyncResourceVersion?.() ?? '' : undefined,
  };
}

/**
 * `group/Kind` of an object (`apps/Deployment`, `/Pod`), or undefined without a kind.
 *
 * @example
 * ```ts
 * kindOf({ apiVersion: 'apps/v1', kind: 'Deployment' }); // 'apps/Deployment'
 * ```
 */
export function kindOf(obj: { apiVersion?: string; kind?: string }): string | undefined {
  if (typeof obj.kind !== 'string' || obj.kind === '') return undefined;
  const apiVersion = typeof obj.apiVersion === 'string' ? obj.apiVersion : '';
  return `${apiVersion.includes('/') ? apiVersion.split('/')[0] : ''}/${obj.kind}`;
}

/**
 * A controller's record of the writes each key's reconcile made, until the key's next reconcile
 * takes them to wait for (read-your-own-writes). A write is recorded for each informer of the
 * controller that holds objects of its kind (an object without a kind: the primary, if it has the
 * reconcile's key); a write of a kind no informer of the controller watches is not waited for
 * (nothing would ever show it).
 *
 * @example
 * ```ts
 * const ledger = new WriteLedger([{ kind: 'apps/Deployment', getByKey: (k) => deployments.getByKey(k) }]);
 * ledger.record('ns/web', written);
 * const pending = ledger.take('ns/web'); // [{ cache: 0, key: 'ns/web', resourceVersion: ... }]
 * ```
 */
export class WriteLedger {
  private readonly writes = new Map<string, Map<string, AwaitedWrite>>();

  constructor(readonly caches: ReadonlyArray<WatchedCache>) {}

  /** Learns the kind of informer `cache` from an object it handed out, if not known yet. */
  learnKind(cache: number, obj: KubeObjectLike): void {
    const c = this.caches[cache];
    if (c !== undefined && c.kind === undefined) c.kind = kindOf(obj);
  }

  /** Records `obj` as written by the reconcile of `reconcileKey`. Never throws. */
  record(reconcileKey: string, obj: KubeObjectLike, options: WroteOptions = {}): void {
    let key: string;
    try {
      key = metaNamespaceKeyFunc(obj);
    } catch {
      return; // not an object with a name: nothing an informer could show
    }
    const meta = obj.metadata ?? {};
    const version = typeof meta.resourceVersion === 'string' && meta.resourceVersion !== '' ? meta.resourceVersion : undefined;
    const uid = typeof meta.uid === 'string' ? meta.uid : undefined;
    for (const cache of this.cachesOf(reconcileKey, key, kindOf(obj))) {
      const before = this.caches[cache].getByKey?.(key)?.metadata?.resourceVersion;
      const write: AwaitedWrite = { cache, key, uid, resourceVersion: version, before, deleted: options.deleted === true };
      let forKey = this.writes.get(reconcileKey);
      if (forKey === undefined) this.writes.set(reconcileKey, (forKey = new Map()));
      forKey.set(`${cache}|${key}`, write);
    }
  }

  /** Whether writes are recorded for the next reconcile of `reconcileKey`. */
  has(reconcileKey: string): boolean {
    return this.writes.size !== 0 && this.writes.has(reconcileKey);
  }

  /** The writes the next reconcile of `reconcileKey` waits for (forgotten here), or undefined. */
  take(reconcileKey: string): ReadonlyArray<AwaitedWrite> | undefined {
    if (this.writes.size === 0) return undefined;
    const forKey = this.writes.get(reconcileKey);
    if (forKey === undefined) return undefined;
    this.writes.delete(reconcileKey);
    return [...forKey.values()];
  }

  /** What the informer of `write` shows of its object now. */
  read(write: AwaitedWrite): CacheReading {
    const c = this.caches[write.cache];
    return { object: c?.getByKey?.(write.key), lastSyncResourceVersion: c?.lastSyncResourceVersion?.() };
  }

  /** Keys with writes not yet taken. */
  size(): number {
    return this.writes.size;
  }

  clear(): void {
    this.writes.clear();
  }

  private cachesOf(reconcileKey: string, key: string, kind: string | undefined): number[] {
    const out: number[] = [];
    if (kind !== undefined) {
      this.caches.forEach((c, i) => {
        if (c.kind === kind && c.getByKey !== undefined) out.push(i);
      });
      if (out.length > 0) return out;
    }
    // No kind to go by (or the primary's kind not learned yet): the primary, if it is the key's object.
    const primary = this.caches[0];
    if (key === reconcileKey && primary?.getByKey !== undefined && (kind === undefined || primary.kind === undefined)) out.push(0);
    return out;
  }
}
