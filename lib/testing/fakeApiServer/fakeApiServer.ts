import type { KubeConfig } from '@kubernetes/client-node';
import type { Resource } from '../../listwatch/resource.js';
import type { ObjectMeta } from '../../meta/kubeObject.js';
import type { FakeToken } from './auth/authenticator.js';
import type { FakeKubeConfigOptions } from './auth/kubeConfig.js';
import type { TokenRequestSpec } from './rbac/tokenRequest.js';
import type { ClientCertificate, ClientCertificateOptions } from './auth/certificates.js';
import type { AdmissionPlugin } from './admission/attributes.js';
import type { AdmissionStage } from './admission/chain.js';
import type { FaultControl } from './faults/faults.js';
import type { PatchType } from './registry/patch.js';
import type { CreateOptions, DeleteOptions } from './registry/store.js';
import type { RecordedRequest } from './handlers/requestLog.js';
import type { Stoppable } from './serverLifetime.js';
import type { ResourceDefinition, ResourceRef, ResourceType } from './resources.js';
import type { Recording } from '../record/recording.js';
import type { ServerReplay, ServerReplayOptions } from '../record/replayIntoServer.js';

export type { FakeApiServerOptions } from './options.js';
export type { FakeKubeConfigOptions } from './auth/kubeConfig.js';
export type { TokenRequestSpec } from './rbac/tokenRequest.js';

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
 * The fake API server's admission chain, for in-process plugins.
 *
 * @example
 * ```ts
 * const remove = api.admission.register({ name: 'no-latest', validate: (a) => (JSON.stringify(a.object).includes(':latest"') ? { allowed: false, status: { message: 'pin your images' } } : undefined) });
 * remove();
 * ```
 */
export interface AdmissionControl {
  /**
   * Adds a plugin at the end of its stage (`webhook` by default; `policy` runs before the webhooks,
   * as MutatingAdmissionPolicy and ValidatingAdmissionPolicy do); returns the function that removes it.
   */
  register(plugin: AdmissionPlugin, options?: { readonly stage?: Exclude<AdmissionStage, 'builtIn'> }): () => void;
  /** The plugins in chain order, built-ins included. */
  plugins(): ReadonlyArray<{ readonly name: string; readonly stage: AdmissionStage }>;
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
  /**
   * The admission chain (kube's order: NamespaceLifecycle and the built-ins, then mutating
   * policies, mutating webhooks; after defaulting and validation, validating policies and
   * webhooks): register in-process plugins that may change or refuse writes (see docs/testing.md).
   */
  readonly admission: AdmissionControl;
  /**
   * Issues a ServiceAccount token as `POST .../serviceaccounts/{name}/token` does (same defaults,
   * checks and errors, thrown as `ApiStatusError`); the server authenticates it as that
   * ServiceAccount until it expires, or the ServiceAccount (or bound object) is deleted.
   */
  createToken(namespace: string, name: string, spec?: TokenRequestSpec): { readonly token: string; readonly expirationTimestamp: string };
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
