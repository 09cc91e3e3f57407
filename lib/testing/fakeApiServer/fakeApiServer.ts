import type { KubeConfig } from '@kubernetes/client-node';
import type { SchedulerLike } from 'rxjs';
import type { Resource } from '../../listwatch/resource.js';
import type { ObjectMeta } from '../../meta/kubeObject.js';
import type { FakeToken } from './auth.js';
import type { ClientCertificate, ClientCertificateOptions } from './certificates.js';
import type { FaultControl } from './faults.js';
import type { PatchType } from './patch.js';
import type { CreateOptions, DeleteOptions } from './registry.js';
import type { GarbageCollectionMode } from './controllers.js';
import type { Stoppable } from './serverLifetime.js';
import type { RecordedRequest } from './requestLog.js';
import type { ResourceDefinition, ResourceRef, ResourceType } from './resources.js';
import type { Recording } from '../record/recording.js';
import type { ServerReplay, ServerReplayOptions } from '../record/replayIntoServer.js';

/**
 * Options of {@link startFakeApiServer}. Every one is optional.
 *
 * @example
 * ```ts
 * const api = await startFakeApiServer({ http: true, seed: 7, historyLimit: 100, bookmarkIntervalMs: 1000 });
 * ```
 */
export interface FakeApiServerOptions {
  /**
   * Where `close()` says what was still running or watching when it was called: a function, or
   * `false` for nothing. By default `console.warn`, unless the environment has `RXKUBE_LOG=off`.
   */
  readonly warn?: false | ((message: string) => void);
  /** Serve plain HTTP instead of HTTPS (HTTPS with a generated CA is the default). */
  readonly http?: boolean;
  /** 0 (the default) picks a free port. */
  readonly port?: number;
  /** Only loopback is served. */
  readonly host?: '127.0.0.1';
  /** Seed of every random choice (uids, generated names, default watch timeouts, probabilistic faults). Default 1. */
  readonly seed?: number;
  /** How many changes history keeps (watch resumption, exact lists, continue tokens). Default 10000. */
  readonly historyLimit?: number;
  /** Interval of bookmarks on watches that allow them. Default 60000 (kube's ~1 min); 0 disables. */
  readonly bookmarkIntervalMs?: number;
  /** Send a BOOKMARK (current revision) first on bookmark-enabled watches that resume from a revision. */
  readonly initialBookmark?: boolean;
  /**
   * Accepted bearer tokens and their deny lists. Default over HTTPS: one token, {@link DEFAULT_TOKEN},
   * user `admin`, allowed everything. Default over HTTP: `false` (authentication off), because
   * kubectl (clientcmd) sends no credentials over plain HTTP, as kube's old insecure port did.
   */
  readonly tokens?: ReadonlyArray<FakeToken> | false;
  /**
   * The default kubeconfig authenticates with a client certificate (user `admin`, group
   * `system:masters`, as kind's and kubeadm's) instead of a token, and, unless `tokens` is given,
   * no token is accepted. Client certificates signed by the server's CA are verified over HTTPS
   * either way (user = CN, groups = O), as kube-apiserver with `--client-ca-file` does.
   */
  readonly clientCertificateAuth?: boolean;
  /** Streaming lists (`sendInitialEvents`); false answers 422 as kube with the WatchList gate off. Default true. */
  readonly watchList?: boolean;
  /**
   * Server-side sharding (KEP-5866, Kubernetes 1.36 alpha gate ShardedListAndWatch): lists and
   * watches honour `shardSelector` and lists answer `metadata.shardInfo`. Default false: the
   * parameter is ignored, as by a server with the gate off.
   */
  readonly shardedListAndWatch?: boolean;
  /** Create a missing namespace on first use instead of answering 404. Default true. */
  readonly autoCreateNamespaces?: boolean;
  /** How long a list or watch at a future resourceVersion waits for it before 504 (kube's watch cache: 3 s). Default 3000. */
  readonly tooLargeResourceVersionWaitMs?: number;
  /** Timers (bookmarks, watch timeouts, slowEvents, waits) and the clock of creationTimestamp. Default asyncScheduler. */
  readonly scheduler?: SchedulerLike;
  /** Create this many realistic pods (spread over namespaces `ns-0`..`ns-49`) at start. */
  readonly seedPods?: number;
  /** Extra resource types (custom resources) to serve from the start. */
  readonly resources?: ReadonlyArray<ResourceDefinition>;
  /** How many requests `requests` keeps (oldest dropped first). Default 10000. */
  readonly requestLogLimit?: number;
  /**
   * When the garbage collector and the namespace controller act (see docs/testing.md): `'scheduled'`
   * (default) on `scheduler`, `controllerDelayMs` after the write that gave them work; `'immediate'`
   * before that write returns; `'off'` never (as envtest).
   */
  readonly garbageCollection?: GarbageCollectionMode;
  /** The delay of `'scheduled'` collection. Default 0 (the next macrotask with `asyncScheduler`). */
  readonly controllerDelayMs?: number;
  /** A recording (see `recordTraffic`) to seed the server with and play on its scheduler, as `replay` does. */
  readonly replay?: Recording;
}

/**
 * Which credential a kubeconfig of {@link FakeApiServer} carries: a token, a client certificate
 * (inline data), or, by default, the server's default credential.
 *
 * @example
 * ```ts
 * const kc = api.kubeConfig({ clientCertificate: api.issueClientCertificate('alice', ['devs']) });
 * ```
 */
export interface FakeKubeConfigOptions {
  readonly token?: string;
  readonly clientCertificate?: ClientCertificate;
}

/**
 * The metadata the server guarantees on a stored object.
 *
 * @example
 * ```ts
 * const meta: StoredObjectMeta = api.get('pods', 'ns', 'a')!.metadata;
 * ```
 */
export interface StoredObjectMeta extends ObjectMeta {
  name: string;
  uid: string;
  resourceVersion: string;
  creationTimestamp: string;
  generation?: number;
  deletionTimestamp?: string;
  deletionGracePeriodSeconds?: number;
  finalizers?: string[];
}

/**
 * An object as the data-plane helpers return it: the given shape plus the server-set metadata.
 *
 * @example
 * ```ts
 * const cm: Stored<V1ConfigMap> = api.create('configmaps', { metadata: { name: 'a', namespace: 'ns' } });
 * cm.metadata.resourceVersion; // '5'
 * ```
 */
export type Stored<T> = T & { metadata: StoredObjectMeta };

/**
 * A stored object of any type (the default of the helpers' type parameter).
 *
 * @example
 * ```ts
 * const w: Stored<AnyObject> | undefined = api.get('widgets.example.com', 'ns', 'w');
 * ```
 */
export type AnyObject = { apiVersion?: string; kind?: string; [field: string]: unknown };

/**
 * What `list` returns: the objects and the list's resourceVersion.
 *
 * @example
 * ```ts
 * const { items, resourceVersion }: FakeList<V1Pod> = api.list<V1Pod>('pods', 'default');
 * ```
 */
export interface FakeList<T> {
  readonly items: ReadonlyArray<Stored<T>>;
  readonly resourceVersion: string;
}

/**
 * A running fake Kubernetes API server. The data-plane helpers (`create`, `update`, `patch`,
 * `delete`) write through the same registry as HTTP requests and emit the same watch events; they
 * throw `ApiStatusError` with the Status the HTTP API would answer. Objects returned are frozen copies.
 *
 * @example
 * ```ts
 * const api = await startFakeApiServer();
 * const kc = api.kubeConfig();
 * api.create('pods', { metadata: { name: 'a', namespace: 'default' }, spec: { containers: [] } });
 * await api.close();
 * ```
 */
export interface FakeApiServer {
  /** `https://127.0.0.1:PORT` (or `http://`). */
  readonly url: string;
  readonly port: number;
  /** The CA certificate (PEM) of an HTTPS server. */
  readonly caCert: string | undefined;
  /** The token the default kubeconfig uses (undefined when authentication is off or by client certificate). */
  readonly token: string | undefined;
  /** The current global resourceVersion. */
  readonly resourceVersion: string;
  readonly faults: FaultControl;
  /** Requests received so far, oldest first (bounded by `requestLogLimit`). */
  readonly requests: ReadonlyArray<RecordedRequest>;
  clearRequests(): void;
  /** Number of open watches, of one resource or all. */
  openWatches(resource?: ResourceRef): number;
  /** Resolves once at least `count` watches of `resource` (or of any resource) are open. */
  waitForWatches(count?: number, resource?: ResourceRef): Promise<void>;
  /** A @kubernetes/client-node KubeConfig for this server (optionally as another token or certificate). */
  kubeConfig(options?: FakeKubeConfigOptions): KubeConfig;
  /** The same kubeconfig as JSON (which kubectl reads as YAML). */
  kubeConfigText(options?: FakeKubeConfigOptions): string;
  /** Writes `kubeConfigText` to a file. */
  writeKubeConfig(file: string, options?: FakeKubeConfigOptions): Promise<void>;
  /** Signs a client certificate with the server's CA (user = CN, groups = O). HTTPS only. */
  issueClientCertificate(user: string, groups?: ReadonlyArray<string>, options?: ClientCertificateOptions): ClientCertificate;
  /** Accepts one more bearer token (replacing one with the same value). */
  addToken(token: FakeToken): void;
  /** Stops accepting a token (from the next request on: open watches go on, as in kube). True if it was known. */
  revokeToken(token: string): boolean;
  /** Serves a new resource type (a custom resource), namespaced or cluster-scoped. */
  registerResource(def: ResourceDefinition | Resource): ResourceType;
  /**
   * Creates (POST semantics); the namespace is `metadata.namespace` or `default`. As in kube, the
   * status of a type with a status subresource is reset (Pods: `Pending`) or dropped, unless
   * `options.withStatus` keeps it (seeding an object as its controller would have reported it).
   */
  create<T extends object>(resource: ResourceRef, obj: T, options?: CreateOptions): Stored<T>;
  /** Replaces (PUT semantics: 409 on a stale resourceVersion, no event on a no-op); the stored status is kept where the type has a status subresource. */
  update<T extends object>(resource: ResourceRef, obj: T): Stored<T>;
  /** Replaces the status only (PUT on `/status`: the rest of the object is kept); 404 for a type without a status subresource. */
  updateStatus<T extends object>(resource: ResourceRef, obj: T): Stored<T>;
  /**
   * Creates or replaces each object (POST or PUT semantics, events included) without returning them:
   * for bulk loads and benchmarks, where copying results back would cost more than the writes.
   * Returns the resourceVersion after the last write. With `subresource: 'status'`, existing objects
   * get their status replaced (PUT on `/status`) and missing ones are created with their status.
   */
  writeMany(resource: ResourceRef, objects: Iterable<object>, options?: { readonly subresource?: 'status' }): string;
  /** Patches (merge patch by default); `subresource: 'status'` patches `/status`, where only the status changes. */
  patch<T extends object = AnyObject>(resource: ResourceRef, namespace: string | undefined, name: string, patch: unknown, type?: PatchType, subresource?: 'status'): Stored<T>;
  /** Deletes; returns the final state (or the object marked for deletion when it has finalizers). */
  delete<T extends object = AnyObject>(resource: ResourceRef, namespace: string | undefined, name: string, options?: DeleteOptions): Stored<T>;
  get<T extends object = AnyObject>(resource: ResourceRef, namespace: string | undefined, name: string): Stored<T> | undefined;
  list<T extends object = AnyObject>(resource: ResourceRef, namespace?: string): FakeList<T>;
  /**
   * Plays a recording (see `recordTraffic`): the first lists are written at once, the events then
   * follow at their recorded times on `options.scheduler` (default the server's).
   */
  replay(recording: Recording, options?: ServerReplayOptions): ServerReplay;
  /**
   * Registers something that runs against the server (a factory, a controller, a leader elector:
   * anything with `shutdown()`, `stop()` or `[Symbol.asyncDispose]()`); `close()` stops it first,
   * newest first. Returns it. (What is made from `kubeConfig()` registers itself; this is for the rest.)
   */
  use<T extends Stoppable>(thing: T): T;
  /**
   * Closes the server and every socket, open watches included. First it stops, newest first, what
   * was made from its `kubeConfig()` and still runs (factories, controllers, leader electors) and
   * what `use()` registered; then, if anything but `use()`'s was still running or watching, it says
   * so in one message naming each (and each open watch's User-Agent and resource) and what to call,
   * through the `warn` option.
   */
  close(): Promise<void>;
  /** `close()`: `await using api = await startFakeApiServer()` closes the server when the scope ends, a failing test's included. */
  [Symbol.asyncDispose](): Promise<void>;
}
