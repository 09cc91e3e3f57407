import type { SchedulerLike } from 'rxjs';
import type { ConversionWebhook } from '../../webhooks/conversionWebhook.js';
import type { Recording } from '../record/recording.js';
import type { FakeToken } from './auth/authenticator.js';
import type { AuthorizationMode } from './rbac/accessControl.js';
import type { GarbageCollectionMode } from './controllers/controllers.js';
import type { TypeRules } from './registry/typeRules.js';
import type { ResourceDefinition } from './resources.js';
import type { WebhookEndpoints } from './admission/admissionRegistration.js';

// The options of a fake API server, apart from the server's interface (fakeApiServer.ts), so that
// what builds the server from them (context.ts) needs nothing of what it builds.

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
   * user `admin` in group `system:masters`, allowed everything. Default over HTTP: `false` (authentication off), because
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
  /**
   * How requests are authorized (kube-apiserver's `--authorization-mode`). `'AlwaysAllow'` (the
   * default): everyone authenticated may do everything but what a token's deny list forbids.
   * `'RBAC'`: the Roles, ClusterRoles and bindings stored in the server decide, as on a cluster
   * (kube's bootstrap ClusterRoles and bindings are created at start; `system:masters`, the group of
   * the default credential, may do everything), and every request needs a credential. The access
   * reviews (`kubectl auth can-i`) answer in both modes. See docs/testing.md.
   */
  readonly authorization?: AuthorizationMode;
  /** Streaming lists (`sendInitialEvents`); false answers 422 as kube with the WatchList gate off. Default true. */
  readonly watchList?: boolean;
  /**
   * Server-side sharding (KEP-5866, Kubernetes 1.36 alpha gate ShardedListAndWatch): lists and
   * watches honour `shardSelector` and lists answer `metadata.shardInfo`. Default false: the
   * parameter is ignored, as by a server with the gate off.
   */
  readonly shardedListAndWatch?: boolean;
  /**
   * Create a missing namespace on first use instead of answering kube's 404 `namespaces "x" not
   * found` (NamespaceLifecycle admission). Default false: create namespaces as a cluster needs them
   * (`namespaces`, or `api.create('namespaces', ...)`).
   */
  readonly autoCreateNamespaces?: boolean;
  /**
   * kube's ServiceAccount machinery, as on a real cluster: every namespace gets the ServiceAccount
   * `default` and the ConfigMap `kube-root-ca.crt` (the server's CA; kube-controller-manager's
   * serviceaccounts-controller and root-ca-cert-publisher, acting as the other controllers do, see
   * `garbageCollection`), and the ServiceAccount admission plugin runs: a Pod runs as `default`
   * unless it names a ServiceAccount, which must exist (else kube's 403), and gets the projected
   * token volume `kube-api-access-*` mounted unless automount is off. Default false (as envtest,
   * which runs no controller manager: a test sees only the objects it made); the
   * `rxkube-fake-apiserver` bin turns it on (`--no-service-accounts` turns it off).
   */
  readonly serviceAccounts?: boolean;
  /** Namespaces to create at start (besides default, kube-system, kube-public and kube-node-lease). */
  readonly namespaces?: ReadonlyArray<string>;
  /**
   * Rules of built-in types by type id (`configmaps`, `deployments.apps`), used instead of the
   * server's own for those types: defaults, validation, immutability, warnings (see `TypeRules`).
   * For a test that needs stricter (or no) rules than kube's; admission plugins are the way to add
   * checks on top of them.
   */
  readonly typeRules?: ReadonlyMap<string, TypeRules>;
  /** How long a list or watch at a future resourceVersion waits for it before 504 (kube's watch cache: 3 s). Default 3000. */
  readonly tooLargeResourceVersionWaitMs?: number;
  /** Timers (bookmarks, watch timeouts, slowEvents, waits) and the clock of creationTimestamp. Default asyncScheduler. */
  readonly scheduler?: SchedulerLike;
  /** Create this many realistic pods (spread over namespaces `ns-0`..`ns-49`) at start. */
  readonly seedPods?: number;
  /**
   * CustomResourceDefinitions to install at start, through the server's own CRD path (checked as
   * kube checks a CRD write, then served, then marked Established one scheduler tick later): CRD
   * objects as JSON (as `readManifests` reads them) or definitions from `rxkube/crd` (anything with
   * a `crd()` method). One kube would refuse makes `startFakeApiServer` reject with its 422 message.
   */
  readonly crds?: ReadonlyArray<object | { crd(): object }>;
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
  /**
   * Where the admission webhooks of the ValidatingWebhookConfigurations and
   * MutatingWebhookConfigurations written to the server go when they name a Service (a test
   * cluster has no DNS for `<svc>.<ns>.svc`: a base URL or an in-process handler, such as a
   * `rxkube/webhooks` webhook object) or a URL to answer in process. Webhooks configured by a URL
   * not listed here are called over HTTPS, checked against their `caBundle`. See docs/testing.md.
   */
  readonly webhooks?: WebhookEndpoints;
  /** A recording (see `recordTraffic`) to seed the server with and play on its scheduler, as `replay` does. */
  readonly replay?: Recording;
  /**
   * Conversion webhooks called in process (no HTTPS), each for the CRD it names (`crdName`) when
   * that CRD's `spec.conversion.strategy` is `Webhook`: `conversionWebhook(...)` from
   * `rxkube/webhooks`, or anything with its `crdName` and `review`. The review still goes through
   * JSON and kube's checks of the answer. Other Webhook CRDs are called at their `clientConfig`.
   */
  readonly conversionWebhooks?: ReadonlyArray<Pick<ConversionWebhook, 'crdName' | 'review'>>;
  /** How long one conversion webhook call may take before kube's `context deadline exceeded`. Default 30000. */
  readonly conversionWebhookTimeoutMs?: number;
}
