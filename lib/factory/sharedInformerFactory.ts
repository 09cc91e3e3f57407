import type { KubeConfig } from '@kubernetes/client-node';
import type { DaemonSet, Deployment, ReplicaSet, StatefulSet } from 'kubernetes-types/apps/v1.js';
import type { CronJob, Job } from 'kubernetes-types/batch/v1.js';
import type {
  ConfigMap,
  Namespace,
  Node,
  PersistentVolume,
  PersistentVolumeClaim,
  Pod,
  Secret,
  Service,
  ServiceAccount,
} from 'kubernetes-types/core/v1.js';
import type { CustomResourceDefinition } from 'kubernetes-types/apiextensions/v1.js';
import type { Ingress } from 'kubernetes-types/networking/v1.js';
import { followCrd, type CrdFollowingInformer } from '../crd/followCrd.js';
import { Subject, type Observable, type SchedulerLike } from 'rxjs';
import { ConfigError } from '../configError.js';
import type { RxkubeError } from '../errors.js';
import type { LoggerOption } from '../logging/errorLogger.js';
import { informer, type Informer, type InformerOptions } from '../informer/informer.js';
import type { WaitForCacheSyncOptions } from '../informer/waitForSync.js';
import { dropsFields, droppedFields } from '../informer/fieldDroppingTransform.js';
import { listWatch } from '../listwatch/createListWatch.js';
import type { ListWatch } from '../listwatch/listWatch.js';
import { resourcePath } from '../listwatch/resourcePath.js';
import type { Tracing } from '../tracing/tracing.js';
import { metadataListWatch, type PartialObjectMetadata } from '../listwatch/metadataListWatch.js';
import { attachLifetime, lifetimeOf } from '../meta/lifetime.js';
import type { Resource, TypedResource } from '../listwatch/resource.js';
import type { KubeObjectLike } from '../meta/kubeObject.js';
import type { Indexers } from '../store/indexers.js';
import type { Transport } from '../transport/transport.js';
import { builtInResources, resourceName } from './builtInResources.js';
import { can, declareParts, declarePermissions } from '../rbac/permission.js';

/**
 * The selectors a shared informer factory sends on every list and watch of its informers.
 *
 * @example
 * ```ts
 * const selectors: ListSelectors = { labelSelector: 'app=web', fieldSelector: 'spec.nodeName=node-1' };
 * ```
 */
export interface ListSelectors {
  readonly labelSelector?: string;
  readonly fieldSelector?: string;
}

/**
 * Options of {@link sharedInformerFactory} (client-go's `WithNamespace`, `WithTweakListOptions`,
 * `WithCustomResyncConfig`, `WithTransform`).
 *
 * @example
 * ```ts
 * const options: SharedInformerFactoryOptions = {
 *   namespace: 'shop',
 *   tweakListOptions: (o) => ({ ...o, labelSelector: 'app.kubernetes.io/part-of=shop' }),
 *   resyncPeriod: 60_000,
 *   resyncPeriods: { 'deployments.apps': 10_000 },
 *   transform: stripManagedFields,
 * };
 * ```
 */
export interface SharedInformerFactoryOptions {
  /** Watch one namespace only; unset or `''`: all namespaces. Cluster-scoped resources ignore it. */
  readonly namespace?: string;
  /**
   * Selectors for every informer of the factory, sent on list and watch alike (client-go's
   * `WithTweakListOptions`). Gets the resource, to narrow some resources only.
   */
  readonly tweakListOptions?: (options: ListSelectors, resource: Resource) => ListSelectors;
  /** The default resync period (ms) of every informer; 0 (default) never resyncs. */
  readonly resyncPeriod?: number;
  /** Resync periods per resource, keyed by kubectl name (`pods`, `deployments.apps`). */
  readonly resyncPeriods?: Readonly<Record<string, number>>;
  /** Runs once on every object before it is stored (e.g. `stripManagedFields`). */
  readonly transform?: <T extends KubeObjectLike>(obj: T) => T;
  /** The clock of every informer's timers; default `asyncScheduler`. */
  readonly scheduler?: SchedulerLike;
  /**
   * Where every informer logs the errors it recovers from, explained and rate-limited: unset,
   * `console.error`; `false`, nowhere; or your own `Logger` (`{ error(message, error) }`). The
   * errors themselves, with their resource, are on the factory's `errors$`.
   */
  readonly logger?: LoggerOption;
  /**
   * Deep-freeze every stored object (opt-in mutation detection, see the informer's `freeze`).
   * Default false; recommended in tests.
   */
  readonly freeze?: boolean;
  /**
   * Traces (`openTelemetryTracing()` from rxkube/tracing): a span per list and watch request of
   * every informer. Unset: nothing is traced, at no cost.
   */
  readonly tracing?: Tracing;
  /** Other informer options for every informer (FIFO mode, watch-list, page size, reflector tuning). */
  readonly informerOptions?: Pick<
    InformerOptions<KubeObjectLike>,
    'fifoMode' | 'watchList' | 'pageSize' | 'reflector'
  >;
}

/**
 * An error of one of a factory's informers, with the name of its resource (`pods`,
 * `widgets.example.com`): what `factory.errors$` carries.
 *
 * @example
 * ```ts
 * factory.errors$.subscribe(({ resource, error }: ResourceError) => console.warn(resource, error.message));
 * ```
 */
export interface ResourceError {
  /** The resource's name, as kubectl says it: `pods`, `deployments.apps`, `widgets.example.com`. */
  readonly resource: string;
  /** What the informer's `errors$` carried. */
  readonly error: RxkubeError;
}

/**
 * Options of one `informerFor` call. They apply when the call creates the informer; a later call
 * for the same resource and namespace returns that informer and only adds `indexers` it lacks.
 *
 * @example
 * ```ts
 * factory.informerFor<Pod>(builtInResources.pods, {
 *   indexers: { byOwner: (p) => (p.metadata?.ownerReferences ?? []).map((o) => o.uid) },
 * });
 * ```
 */
export interface InformerForOptions<T> {
  /** Overrides the factory's namespace for this informer. */
  readonly namespace?: string;
  /** Overrides the resync period for this informer. */
  readonly resyncPeriod?: number;
  /** Runs after the factory's transform. */
  readonly transform?: (obj: T) => T;
  /** Index functions (besides `namespace`). */
  readonly indexers?: Indexers<T>;
}

/**
 * Options of the typed accessors (`pods()`, ...): those of {@link InformerForOptions}.
 *
 * @example
 * ```ts
 * factory.pods({ namespace: 'shop', resyncPeriod: 30_000 });
 * ```
 */
export type AccessorOptions<T> = InformerForOptions<T>;

/**
 * Keeps one informer per resource and namespace and starts, syncs and shuts them down together
 * (client-go's `SharedInformerFactory`). See {@link sharedInformerFactory}.
 *
 * @example
 * ```ts
 * const factory: SharedInformerFactory = sharedInformerFactory(kubeConfig);
 * factory.start();
 * ```
 */
export interface SharedInformerFactory {
  /**
   * The informer of any group/version/resource; the same one for the same resource and namespace
   * (L1). Given a custom resource's definition (`defineCustomResource` of `rxkube/crd`, a
   * {@link TypedResource}), the object type comes with it: `informerFor(backups)` is an
   * `Informer<Backup>`.
   */
  informerFor<T extends KubeObjectLike>(resource: TypedResource<T>, options?: InformerForOptions<T>): Informer<T>;
  /**
   * The metadata-only informer of a resource (client-go's metadata informer, controller-runtime's
   * `OnlyMetadata`): lists and watches ask for `PartialObjectMetadata`, so spec and status never
   * cross the wire nor sit in memory. A different informer from `informerFor`'s for the same
   * resource; one per resource and namespace. Its `waitForCacheSync` key is `metadata:pods`.
   */
  metadata(resource: Resource, options?: InformerForOptions<PartialObjectMetadata>): Informer<PartialObjectMetadata>;
  /**
   * The informer of a custom resource that runs only while its CRD is established and serves
   * `resource.version` (see `followCrd`), over the factory's shared CRD informer
   * (`informerFor(builtInResources.customResourceDefinitions)`). One per resource and namespace; a
   * new informer (with the same options) each time the CRD comes back. `start()` and `shutdown()`
   * include it; `waitForCacheSync()` waits for it to run and sync (key `crd:widgets.example.com`):
   * pass a `timeout` when the CRD may not be installed.
   */
  followCrd<T extends KubeObjectLike>(resource: TypedResource<T>, options?: InformerForOptions<T>): CrdFollowingInformer<T>;
  pods(options?: AccessorOptions<Pod>): Informer<Pod>;
  configMaps(options?: AccessorOptions<ConfigMap>): Informer<ConfigMap>;
  secrets(options?: AccessorOptions<Secret>): Informer<Secret>;
  services(options?: AccessorOptions<Service>): Informer<Service>;
  serviceAccounts(options?: AccessorOptions<ServiceAccount>): Informer<ServiceAccount>;
  persistentVolumeClaims(
    options?: AccessorOptions<PersistentVolumeClaim>,
  ): Informer<PersistentVolumeClaim>;
  persistentVolumes(options?: AccessorOptions<PersistentVolume>): Informer<PersistentVolume>;
  nodes(options?: AccessorOptions<Node>): Informer<Node>;
  namespaces(options?: AccessorOptions<Namespace>): Informer<Namespace>;
  deployments(options?: AccessorOptions<Deployment>): Informer<Deployment>;
  replicaSets(options?: AccessorOptions<ReplicaSet>): Informer<ReplicaSet>;
  statefulSets(options?: AccessorOptions<StatefulSet>): Informer<StatefulSet>;
  daemonSets(options?: AccessorOptions<DaemonSet>): Informer<DaemonSet>;
  jobs(options?: AccessorOptions<Job>): Informer<Job>;
  cronJobs(options?: AccessorOptions<CronJob>): Informer<CronJob>;
  ingresses(options?: AccessorOptions<Ingress>): Informer<Ingress>;
  /**
   * Every error of every informer of the factory (each informer's `errors$`, those made later
   * included), with its resource: one stream for the whole factory, beside the log. Hot: errors
   * from the subscription on; completes once `shutdown()` has stopped every informer.
   */
  readonly errors$: Observable<ResourceError>;
  /** Starts every informer not started yet; after `shutdown`, does nothing (L2). */
  start(): void;
  /**
   * Waits until every started informer has synced (informers not started are not waited for) and
   * resolves to each one's result: `true` synced, `false` stopped before syncing, or not synced when
   * the `timeout` passed or the `signal` aborted (it never rejects: the log and `errors$` say why).
   * Keys are `resourceName` or `namespace/resourceName`.
   */
  waitForCacheSync(options?: WaitForCacheSyncOptions): Promise<ReadonlyMap<string, boolean>>;
  /** Stops every informer; resolves once each has stopped and handler calls in flight settled. */
  shutdown(): Promise<void>;
  /** True once `shutdown` has been called. */
  isShutdown(): boolean;
}

interface Runnable {
  start(): void;
  waitForCacheSync(options?: WaitForCacheSyncOptions): Promise<boolean>;
  stop(): Promise<void>;
}

interface Entry {
  readonly key: string;
  readonly informer: Runnable;
  started: boolean;
}

/**
 * Creates a shared informer factory (client-go's `NewSharedInformerFactoryWithOptions`): one informer
 * per resource and namespace, built lazily by the typed accessors (`pods()`, `deployments()`, ...
 * typed with `kubernetes-types`: the JSON that arrives, timestamps as strings) or `informerFor(resource)` for any resource.
 * Connects through a `KubeConfig` (Node: the client-node transport) or any `Transport` (e.g.
 * `fetchTransport` in a browser).
 *
 * ```text
 * factory.pods() ---------- same informer ---------- factory.pods()     (L1)
 * start():  starts pods, deployments     start() again: starts only what is new
 * waitForCacheSync(): Map { 'pods' => true, 'deployments.apps' => true }
 * shutdown(): stops all, resolves when every one has stopped; start() is a no-op afterwards
 * ```
 *
 * @example
 * ```ts
 * const kc = new KubeConfig();
 * kc.loadFromDefault();
 * const factory = sharedInformerFactory(kc, { namespace: 'shop', resyncPeriod: 60_000 });
 * const pods = factory.pods();
 * const deployments = factory.deployments();
 * pods.addEventHandler({ update: (oldPod, pod) => console.log(pod.status?.phase) });
 * factory.start();
 * await factory.waitForCacheSync();
 * pods.lister().list('app=web');
 * await factory.shutdown();
 * ```
 */
export function sharedInformerFactory(
  source: KubeConfig | Transport,
  options: SharedInformerFactoryOptions = {},
): SharedInformerFactory {
  if ((options as { onError?: unknown } | undefined)?.onError !== undefined) {
    throw new ConfigError('onError', 'sharedInformerFactory: the onError option is gone; subscribe to factory.errors$ (each error with its resource) instead', {
      value: (options as { onError?: unknown }).onError,
    });
  }
  const entries = new Map<string, Entry>();
  const errors = new Subject<ResourceError>();
  let shutDown = false;
  // Made from the fake API server's KubeConfig: the server's close() stops this factory if it still runs.
  const lifetime = lifetimeOf(source);

  function informerFor<T extends KubeObjectLike>(
    resource: Resource,
    opts: InformerForOptions<T> = {},
    metadataOnly = false,
  ): Informer<T> {
    const namespace = resource.namespaced ? (opts.namespace ?? options.namespace ?? '') : '';
    const name = resourceName(resource);
    const prefix = metadataOnly ? 'metadata:' : '';
    const key = namespace === '' ? `${prefix}${name}` : `${namespace}/${prefix}${name}`;
    const identity = `${resource.group}/${resource.version}/${resource.plural}|${namespace}${metadataOnly ? '|metadata' : ''}`;
    const existing = entries.get(identity);
    if (existing) {
      const shared = existing.informer as unknown as Informer<T>;
      const missing = Object.entries(opts.indexers ?? {}).filter(
        ([n]) => !shared.getStore().indexNames().includes(n),
      );
      if (missing.length > 0 && !shared.isStopped()) shared.addIndexers(Object.fromEntries(missing));
      return shared;
    }
    const inf = attachLifetime(buildInformer<T>(resource, opts, namespace, metadataOnly), lifetime);
    entries.set(identity, { key, informer: inf, started: false });
    // Declared now, for RBAC generation (permissionsOf): the informer lists and watches its resource.
    declarePermissions(inf, [can.read(resource, namespace || undefined)]);
    declareParts(self, [inf]);
    return inf;
  }

  /** A new informer of the resource with the factory's options and these (not registered). */
  function buildInformer<T extends KubeObjectLike>(resource: Resource, opts: InformerForOptions<T>, namespace: string, metadataOnly: boolean): Informer<T> {
    const name = resourceName(resource);
    const prefix = metadataOnly ? 'metadata:' : '';
    const selectors = options.tweakListOptions ? options.tweakListOptions({}, resource) : {};
    const lwOptions = {
      namespace,
      labelSelector: selectors.labelSelector,
      fieldSelector: selectors.fieldSelector,
      scheduler: options.scheduler,
    };
    const plain = metadataOnly
      ? (metadataListWatch(source, resource, { ...lwOptions, logger: options.logger }) as unknown as ListWatch<T>)
      : listWatch<T>(source, resource, lwOptions);
    const lw = options.tracing === undefined ? plain : options.tracing.traceListWatch(plain, { resource: name, path: resourcePath(resource, namespace), namespace, scheduler: options.scheduler });
    const factoryTransform = options.transform;
    const ownTransform = opts.transform;
    const composed =
      factoryTransform && ownTransform
        ? (obj: T) => ownTransform(factoryTransform(obj))
        : (ownTransform ?? (factoryTransform ? (obj: T) => factoryTransform(obj) : undefined));
    // What either declares it drops, the composition drops too (each sees the other's output).
    const drops = [...droppedFields(factoryTransform), ...droppedFields(ownTransform)];
    const transform = composed && drops.length > 0 ? dropsFields(composed, drops) : composed;
    const inf = informer<T>(lw, {
      ...options.informerOptions,
      name: `${prefix}${name}`,
      resyncPeriod: opts.resyncPeriod ?? options.resyncPeriods?.[name] ?? options.resyncPeriod ?? 0,
      indexers: opts.indexers,
      transform,
      scheduler: options.scheduler,
      logger: options.logger,
      freeze: options.freeze,
    });
    // The factory's errors$ is one subscriber of each informer's error stream (it completes when
    // the informer stops).
    inf.errors$.subscribe((error: RxkubeError) => errors.next({ resource: name, error }));
    return inf;
  }

  function followCrdOf<T extends KubeObjectLike>(resource: Resource, opts: InformerForOptions<T> = {}): CrdFollowingInformer<T> {
    const namespace = resource.namespaced ? (opts.namespace ?? options.namespace ?? '') : '';
    const name = resourceName(resource);
    const identity = `crd|${resource.group}/${resource.version}/${resource.plural}|${namespace}`;
    const existing = entries.get(identity);
    if (existing) return existing.informer as unknown as CrdFollowingInformer<T>;
    const crds = informerFor<CustomResourceDefinition>(builtInResources.customResourceDefinitions);
    const follower = followCrd<T>(crds, resource, () => buildInformer<T>(resource, opts, namespace, false), { scheduler: options.scheduler });
    entries.set(identity, { key: namespace === '' ? `crd:${name}` : `${namespace}/crd:${name}`, informer: follower, started: false });
    declarePermissions(follower, [can.read(resource, namespace || undefined)]);
    declareParts(follower, [crds]);
    declareParts(self, [follower]);
    return follower;
  }

  const typed =
    <T extends KubeObjectLike>(resource: Resource) =>
    (opts?: AccessorOptions<T>) =>
      informerFor<T>(resource, opts);
  const r = builtInResources;

  const self: SharedInformerFactory = Object.freeze({
    informerFor: <T extends KubeObjectLike>(resource: TypedResource<T>, opts?: InformerForOptions<T>) => informerFor<T>(resource, opts),
    metadata: (resource: Resource, opts?: InformerForOptions<PartialObjectMetadata>) =>
      informerFor<PartialObjectMetadata>(resource, opts, true),
    followCrd: followCrdOf,
    pods: typed<Pod>(r.pods),
    configMaps: typed<ConfigMap>(r.configMaps),
    secrets: typed<Secret>(r.secrets),
    services: typed<Service>(r.services),
    serviceAccounts: typed<ServiceAccount>(r.serviceAccounts),
    persistentVolumeClaims: typed<PersistentVolumeClaim>(r.persistentVolumeClaims),
    persistentVolumes: typed<PersistentVolume>(r.persistentVolumes),
    nodes: typed<Node>(r.nodes),
    namespaces: typed<Namespace>(r.namespaces),
    deployments: typed<Deployment>(r.deployments),
    replicaSets: typed<ReplicaSet>(r.replicaSets),
    statefulSets: typed<StatefulSet>(r.statefulSets),
    daemonSets: typed<DaemonSet>(r.daemonSets),
    jobs: typed<Job>(r.jobs),
    cronJobs: typed<CronJob>(r.cronJobs),
    ingresses: typed<Ingress>(r.ingresses),
    errors$: errors.asObservable(),

    start(): void {
      if (shutDown) return;
      for (const entry of entries.values()) {
        if (entry.started) continue;
        entry.started = true;
        entry.informer.start();
      }
    },

    async waitForCacheSync(waitOptions?: WaitForCacheSyncOptions): Promise<ReadonlyMap<string, boolean>> {
      const started = [...entries.values()].filter((e) => e.started);
      const results = await Promise.all(started.map((e) => e.informer.waitForCacheSync(waitOptions)));
      return new Map(started.map((e, i) => [e.key, results[i]]));
    },

    async shutdown(): Promise<void> {
      shutDown = true;
      release?.();
      await Promise.all([...entries.values()].map((e) => e.informer.stop()));
      errors.complete();
    },

    isShutdown: () => shutDown,
  });
  const release = lifetime?.adopt(
    self,
    () => `a sharedInformerFactory with the informers ${[...entries.values()].filter((e) => e.started).map((e) => e.key).join(', ') || '(none started)'} (call factory.shutdown())`,
    () => self.shutdown(),
  );
  return self;
}
