import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { Socket } from 'node:net';
import { writeFile } from 'node:fs/promises';
import { asyncScheduler, type SchedulerLike } from 'rxjs';
import { serveCustomResourceDefinitions, servedAtStart } from './customResourceDefinitions.js';
import type { Resource } from '../../listwatch/resource.js';
import { checkClientNode } from './clientNodeCheck.js';
import type { KubeConfig } from '@kubernetes/client-node';
import { ApiStatusError } from '../../errors.js';
import type { ObjectMeta } from '../../meta/kubeObject.js';
import { Authenticator, type FakeToken, type Principal } from './auth.js';
import { generateCertificates, type ClientCertificate, type ClientCertificateOptions } from './certificates.js';
import { rvWaiter, type ServerContext } from './context.js';
import { CONTROL_PREFIX, handleControl } from './controlHandler.js';
import { discoveryDocument } from './discovery.js';
import { Faults, type FaultControl } from './faults.js';
import { writeError, writeJson, writeNotFoundPage, writeStatus } from './http.js';
import { applyPatch, type PatchType } from './patch.js';
import { seededRandom } from './random.js';
import { Registry, type DeleteOptions } from './registry.js';
import { requestInfo, type RequestInfo } from './requestInfo.js';
import { handleResource } from './resourceHandler.js';
import { ResourceTypes, type JsonObject, type ResourceDefinition, type ResourceRef, type ResourceType } from './resources.js';
import { realisticPod } from './seedPods.js';
import { failure, StatusError } from './status.js';
import { Storage } from './storage.js';
import { parseStored, type StoredObject } from './storedObject.js';
import { WatchHub } from './watchHub.js';

/**
 * Options of {@link startFakeApiServer}. Every one is optional.
 *
 * @example
 * ```ts
 * const api = await startFakeApiServer({ http: true, seed: 7, historyLimit: 100, bookmarkIntervalMs: 1000 });
 * ```
 */
export interface FakeApiServerOptions {
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
 * The token accepted by default over HTTPS (user `admin`).
 *
 * @example
 * ```ts
 * fetch(`${api.url}/api/v1/pods`, { headers: { Authorization: `Bearer ${DEFAULT_TOKEN}` } });
 * ```
 */
export const DEFAULT_TOKEN = 'rxkube-fake-admin-token';

/**
 * One request the server received, for asserting what a client sent.
 *
 * @example
 * ```ts
 * const lists = api.requests.filter((r) => r.verb === 'list' && r.resource === 'pods');
 * expect(lists[0].query.limit).toBe('500');
 * ```
 */
export interface RecordedRequest {
  readonly method: string;
  readonly path: string;
  readonly query: { readonly [name: string]: string };
  /** Kubernetes verb for resource requests (get, list, watch, create, update, patch, delete, deletecollection), else the lower-case method. */
  readonly verb: string;
  /** `pods`, `deployments.apps`; undefined for non-resource requests. */
  readonly resource: string | undefined;
  readonly namespace: string | undefined;
  readonly name: string | undefined;
  readonly contentType: string | undefined;
  /** The user the request acts as (the impersonated one when it impersonates); undefined on a 401. */
  readonly user: string | undefined;
  /** The groups of that user (a certificate's O, a token's `groups`, `Impersonate-Group`). */
  readonly groups?: ReadonlyArray<string>;
  /** How the request authenticated. */
  readonly authenticatedBy?: 'token' | 'certificate';
  /** The authenticated user, when the request impersonated `user` (`Impersonate-User`). */
  readonly impersonator?: string;
  /** True when the request was answered 401 Unauthorized. */
  readonly unauthorized?: boolean;
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
  /** Creates (POST semantics); the namespace is `metadata.namespace` or `default`. */
  create<T extends object>(resource: ResourceRef, obj: T): Stored<T>;
  /** Replaces (PUT semantics: 409 on a stale resourceVersion, no event on a no-op). */
  update<T extends object>(resource: ResourceRef, obj: T): Stored<T>;
  /**
   * Creates or replaces each object (POST or PUT semantics, events included) without returning them:
   * for bulk loads and benchmarks, where copying results back would cost more than the writes.
   * Returns the resourceVersion after the last write.
   */
  writeMany(resource: ResourceRef, objects: Iterable<object>): string;
  /** Patches (merge patch by default). */
  patch<T extends object = AnyObject>(resource: ResourceRef, namespace: string | undefined, name: string, patch: unknown, type?: PatchType): Stored<T>;
  /** Deletes; returns the final state (or the object marked for deletion when it has finalizers). */
  delete<T extends object = AnyObject>(resource: ResourceRef, namespace: string | undefined, name: string, options?: DeleteOptions): Stored<T>;
  get<T extends object = AnyObject>(resource: ResourceRef, namespace: string | undefined, name: string): Stored<T> | undefined;
  list<T extends object = AnyObject>(resource: ResourceRef, namespace?: string): FakeList<T>;
  /** Closes the server and every socket, open watches included. */
  close(): Promise<void>;
}

function deepFreeze<T>(o: T): T {
  if (o && typeof o === 'object' && !Object.isFrozen(o)) {
    Object.freeze(o);
    for (const v of Object.values(o)) deepFreeze(v);
  }
  return o;
}

const frozen = <T>(s: StoredObject): Stored<T> => deepFreeze(parseStored(s)) as Stored<T>;

function rethrow(e: unknown): never {
  if (e instanceof StatusError) throw new ApiStatusError(e.status, { retryAfterSeconds: e.status.details?.retryAfterSeconds });
  throw e;
}

const HEALTH = new Set(['/healthz', '/livez', '/readyz']);

/**
 * Starts a fake Kubernetes API server on 127.0.0.1: list, watch, writes, discovery, bearer-token
 * auth and faults, in memory, speaking the real protocol (see docs/testing.md).
 *
 * @example
 * ```ts
 * const api = await startFakeApiServer();
 * const core = api.kubeConfig().makeApiClient(CoreV1Api);
 * await core.listNamespacedPod({ namespace: 'default' });
 * await api.close();
 * ```
 */
export async function startFakeApiServer(options: FakeApiServerOptions = {}): Promise<FakeApiServer> {
  checkClientNode(); // loading client-node 2 on Node < 22.19 would crash the process
  const clientNode = await import('@kubernetes/client-node');
  const scheduler = options.scheduler ?? asyncScheduler;
  const rng = seededRandom(options.seed ?? 1);
  const storage = new Storage(options.historyLimit ?? 10000);
  const types = new ResourceTypes(servedAtStart);
  for (const def of options.resources ?? []) types.register(def);
  const registry = new Registry(storage, types, rng, () => scheduler.now(), options.autoCreateNamespaces ?? true);
  const hub = new WatchHub();
  storage.onChange(serveCustomResourceDefinitions(types)); // before the hub: a watch of the CRD sees it served
  storage.onChange((c) => hub.dispatch(c));
  const waiter = rvWaiter(storage, scheduler, options.tooLargeResourceVersionWaitMs ?? 3000);
  const ctx: ServerContext = {
    storage,
    registry,
    types,
    hub,
    scheduler,
    rng,
    bookmarkIntervalMs: options.bookmarkIntervalMs ?? 60000,
    initialBookmark: options.initialBookmark ?? false,
    watchList: options.watchList ?? true,
    tooLargeResourceVersionWaitMs: options.tooLargeResourceVersionWaitMs ?? 3000,
    slowMs: 0,
    waitForRv: waiter.waitForRv,
  };
  const faults = new Faults(hub, storage, rng, (ms) => (ctx.slowMs = ms));
  const certAuth = !options.http && (options.clientCertificateAuth ?? false);
  const tokens = options.tokens ?? (options.http || certAuth ? false : [{ token: DEFAULT_TOKEN, user: 'admin' }]);
  const auth = new Authenticator(tokens, () => scheduler.now(), certAuth);
  const requestLogLimit = options.requestLogLimit ?? 10000;
  let requests: RecordedRequest[] = [];
  const watchWaiters = new Set<() => void>();
  const notifyWatchers = () => [...watchWaiters].forEach((w) => w());
  const hubAdd = hub.add.bind(hub);
  hub.add = (s) => {
    hubAdd(s);
    notifyWatchers();
  };

  for (const ns of ['default', 'kube-system', 'kube-public', 'kube-node-lease']) {
    registry.create(types.resolve('namespaces'), '', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
  }
  for (let i = 0; i < (options.seedPods ?? 0); i++) {
    const pod = realisticPod(i);
    registry.create(types.resolve('pods'), pod.metadata.namespace, pod);
  }

  const certs = options.http ? undefined : generateCertificates();
  let serverAddress = '127.0.0.1';

  const log = (req: IncomingMessage, url: URL, info: RequestInfo, principal: Principal | undefined, unauthorized: boolean): void => {
    requests.push({
      method: req.method ?? 'GET',
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      verb: info.verb,
      resource: info.isResourceRequest ? (info.group ? `${info.resource}.${info.group}` : info.resource) : undefined,
      namespace: info.isResourceRequest && info.namespace ? info.namespace : undefined,
      name: info.name || undefined,
      contentType: req.headers['content-type'],
      user: principal?.user,
      ...(principal ? { groups: principal.groups, authenticatedBy: principal.via } : {}),
      ...(principal?.impersonator !== undefined ? { impersonator: principal.impersonator } : {}),
      ...(unauthorized ? { unauthorized } : {}),
    });
    if (requests.length > requestLogLimit) requests = requests.slice(-requestLogLimit);
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const info = requestInfo(req.method ?? 'GET', url.pathname, url.searchParams);
    try {
      if (HEALTH.has(url.pathname)) {
        res.writeHead(200, { 'Content-Type': 'text/plain; charset=utf-8' });
        res.end('ok');
        return;
      }
      const control = url.pathname.startsWith(CONTROL_PREFIX);
      let principal: Principal | undefined;
      try {
        principal = url.pathname === '/version' ? undefined : auth.authenticate(req);
      } catch (e) {
        // A rejected request (401, or a 403 on impersonation) is logged too, never its credential.
        if (!control) log(req, url, info, undefined, e instanceof StatusError && e.status.code === 401);
        throw e;
      }
      if (control) {
        await handleControl(faults, req, res, url.pathname);
        return;
      }
      if (faults.partitions.intercept(req, res, principal?.user)) return;
      log(req, url, info, principal, false);
      const injected = faults.takeFailure(info);
      if (injected) {
        writeStatus(res, injected);
        return;
      }
      if (!info.isResourceRequest) {
        const doc = discoveryDocument(url.pathname, types.all(), serverAddress);
        if (doc) writeJson(res, 200, JSON.stringify(doc));
        else writeNotFoundPage(res);
        return;
      }
      auth.authorize(principal, info);
      const type = types.find(info.group, info.version, info.resource);
      if (!type) {
        if (types.all().some((t) => t.group === info.group && t.version === info.version)) {
          writeStatus(res, failure(404, 'NotFound', 'the server could not find the requested resource', {}));
        } else writeNotFoundPage(res);
        return;
      }
      await handleResource(ctx, req, res, info, type, url.searchParams);
    } catch (e) {
      writeError(res, e);
    }
  };

  const listener = (req: IncomingMessage, res: ServerResponse) => void handle(req, res);
  // Client certificates are asked for, never required: each request then authenticates by one, by
  // a token, or gets a 401 (kube-apiserver's VerifyClientCertIfGiven), rather than a TLS failure.
  const tlsOptions = certs && { cert: certs.serverCert, key: certs.serverKey, ca: certs.caCert, requestCert: true, rejectUnauthorized: false };
  const server: Server = tlsOptions ? createHttpsServer(tlsOptions, listener) : createHttpServer(listener);
  server.keepAliveTimeout = 60000;
  const sockets = new Set<Socket>();
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  serverAddress = `127.0.0.1:${port}`;
  const url = `${certs ? 'https' : 'http'}://127.0.0.1:${port}`;
  const defaultToken = tokens === false ? undefined : tokens[0]?.token;
  // client-node 1.4 refuses an http:// server unless skipTLSVerify is set ("HTTP protocol is not
  // allowed when skipTLSVerify is not set"); there is no TLS to verify, so say so.
  const plainHttpCluster = { 'insecure-skip-tls-verify': true };
  const issueClientCertificate = (user: string, groups?: ReadonlyArray<string>, o?: ClientCertificateOptions): ClientCertificate => {
    if (!certs) throw new Error('client certificates need an HTTPS fake API server (not http: true)');
    return certs.issueClientCertificate(user, groups, o);
  };
  let defaultCertificate: ClientCertificate | undefined;
  const credential = (o?: FakeKubeConfigOptions): JsonObject => {
    const cert = o?.clientCertificate ?? (o?.token === undefined && certAuth ? (defaultCertificate ??= issueClientCertificate('admin', ['system:masters'])) : undefined);
    if (cert) return { 'client-certificate-data': Buffer.from(cert.cert).toString('base64'), 'client-key-data': Buffer.from(cert.key).toString('base64') };
    const token = o?.token ?? defaultToken;
    return token ? { token } : {};
  };

  const kubeConfigText = (o?: FakeKubeConfigOptions): string => {
    return JSON.stringify(
      {
        apiVersion: 'v1',
        kind: 'Config',
        clusters: [{ name: 'rxkube-fake', cluster: { server: url, ...(certs ? { 'certificate-authority-data': Buffer.from(certs.caCert).toString('base64') } : plainHttpCluster) } }],
        users: [{ name: 'rxkube-fake-user', user: credential(o) }],
        contexts: [{ name: 'rxkube-fake', context: { cluster: 'rxkube-fake', user: 'rxkube-fake-user', namespace: 'default' } }],
        'current-context': 'rxkube-fake',
        preferences: {},
      },
      null,
      2,
    );
  };

  const resolveNs = (type: ResourceType, obj: object): string =>
    type.namespaced ? (((obj as JsonObject).metadata as { namespace?: string } | undefined)?.namespace ?? 'default') : '';
  const nameOf = (obj: object): string => (((obj as JsonObject).metadata as { name?: string } | undefined)?.name ?? '');
  // Writes only touch the top level and metadata of the object given (nested values are serialised
  // at once, never kept), so a shallow copy keeps the caller's object untouched.
  const copy = <T>(o: T): T => {
    if (typeof o !== 'object' || o === null || Array.isArray(o)) return o;
    const m = (o as JsonObject).metadata;
    return { ...o, metadata: typeof m === 'object' && m !== null ? { ...m } : m } as T;
  };
  let closed: Promise<void> | undefined;

  const api: FakeApiServer = {
    url,
    port,
    caCert: certs?.caCert,
    token: defaultToken,
    get resourceVersion() {
      return String(storage.resourceVersion);
    },
    faults,
    get requests() {
      return requests;
    },
    clearRequests: () => {
      requests = [];
    },
    openWatches: (resource) => {
      const id = resource === undefined ? undefined : types.resolve(resource).id;
      return hub.all().filter((s) => s.isOpen && (id === undefined || s.type.id === id)).length;
    },
    waitForWatches: (count = 1, resource) =>
      new Promise<void>((resolve) => {
        const check = () => {
          if (api.openWatches(resource) >= count) {
            watchWaiters.delete(check);
            resolve();
          }
        };
        watchWaiters.add(check);
        check();
      }),
    kubeConfig: (o) => {
      const kc = new clientNode.KubeConfig();
      kc.loadFromString(kubeConfigText(o));
      return kc;
    },
    kubeConfigText,
    writeKubeConfig: (file, o) => writeFile(file, kubeConfigText(o), { mode: 0o600 }),
    issueClientCertificate,
    addToken: (t) => auth.addToken(t),
    revokeToken: (t) => auth.revokeToken(t),
    registerResource: (def) => types.register(def),
    create: <T extends object>(resource: ResourceRef, obj: T): Stored<T> => {
      try {
        const type = types.resolve(resource);
        return frozen<T>(registry.create(type, resolveNs(type, obj), copy(obj)));
      } catch (e) {
        return rethrow(e);
      }
    },
    update: <T extends object>(resource: ResourceRef, obj: T): Stored<T> => {
      try {
        const type = types.resolve(resource);
        return frozen<T>(registry.update(type, resolveNs(type, obj), nameOf(obj), copy(obj)));
      } catch (e) {
        return rethrow(e);
      }
    },
    writeMany: (resource, objects) => {
      try {
        const type = types.resolve(resource);
        for (const obj of objects) {
          const ns = resolveNs(type, obj);
          if (storage.get(type, type.namespaced ? `${ns}/${nameOf(obj)}` : nameOf(obj))) registry.update(type, ns, nameOf(obj), copy(obj));
          else registry.create(type, ns, copy(obj));
        }
        return String(storage.resourceVersion);
      } catch (e) {
        return rethrow(e);
      }
    },
    patch: <T extends object>(resource: ResourceRef, namespace: string | undefined, name: string, patch: unknown, type: PatchType = 'merge'): Stored<T> => {
      try {
        const t = types.resolve(resource);
        return frozen<T>(registry.patch(t, namespace ?? '', name, type, patch).stored);
      } catch (e) {
        return rethrow(e);
      }
    },
    delete: <T extends object>(resource: ResourceRef, namespace: string | undefined, name: string, o?: DeleteOptions): Stored<T> => {
      try {
        return frozen<T>(registry.delete(types.resolve(resource), namespace ?? '', name, o).stored);
      } catch (e) {
        return rethrow(e);
      }
    },
    get: <T extends object>(resource: ResourceRef, namespace: string | undefined, name: string): Stored<T> | undefined => {
      const type = types.resolve(resource);
      const s = storage.get(type, type.namespaced ? `${namespace ?? ''}/${name}` : name);
      return s ? frozen<T>(s) : undefined;
    },
    list: <T extends object>(resource: ResourceRef, namespace?: string): FakeList<T> => {
      const type = types.resolve(resource);
      const items = [...storage.snapshot(type, storage.resourceVersion, namespace)].map((s) => frozen<T>(s));
      return deepFreeze({ items, resourceVersion: String(storage.resourceVersion) });
    },
    close: () =>
      (closed ??= new Promise<void>((resolve) => {
        waiter.cancelAll();
        for (const s of hub.all()) s.destroy();
        server.close(() => resolve());
        for (const s of sockets) s.destroy();
        watchWaiters.clear();
      })),
  };
  return api;
}

// applyPatch is re-exported for users who want to compute a patch result the way the server does.
export { applyPatch };
