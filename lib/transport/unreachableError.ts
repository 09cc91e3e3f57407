import { causeMessage } from '../errors.js';
import { TransportError } from './transportError.js';

/**
 * What a kubeconfig says about where requests go, for messages: the server, the context's name, and
 * whether it is client-node's fallback (`loadFromDefault()` found no kubeconfig at all and chose
 * `http://localhost:8080`).
 *
 * @example
 * ```ts
 * const target: ApiServerTarget = { server: 'https://10.0.0.1:6443', context: 'prod', isFallback: false };
 * ```
 */
export interface ApiServerTarget {
  readonly server: string;
  readonly context: string;
  readonly isFallback: boolean;
}

const WHAT_TO_DO =
  'Set KUBECONFIG or create ~/.kube/config (e.g. `kind create cluster` writes one), or load one with kubeConfig.loadFromFile(path); ' +
  'to try rxkube without a cluster, use startFakeApiServer() from rxkube/testing (its kubeConfig() is ready to use).';

/** What client-node's `loadFromDefault()` builds when it finds no kubeconfig, no in-cluster account. */
const FALLBACK = { cluster: 'cluster', server: 'http://localhost:8080', user: 'user', context: 'loaded-context' };

/**
 * Is this client-node's no-kubeconfig fallback (`loadFromClusterAndUser({ name: 'cluster', server:
 * 'http://localhost:8080' }, { name: 'user' })`, context `loaded-context`)?
 *
 * @example
 * ```ts
 * isFallbackKubeConfig({ cluster: 'cluster', server: 'http://localhost:8080', user: 'user', context: 'loaded-context' }); // true
 * ```
 */
export function isFallbackKubeConfig(kc: {
  readonly cluster?: string;
  readonly server?: string;
  readonly user?: string;
  readonly context?: string;
}): boolean {
  return (
    kc.cluster === FALLBACK.cluster &&
    kc.server === FALLBACK.server &&
    kc.user === FALLBACK.user &&
    kc.context === FALLBACK.context
  );
}

// Failures to reach the server at all, as Node names them; others (TLS, resets mid-body) keep the
// plain TransportError.
const UNREACHABLE = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'ETIMEDOUT']);

/**
 * Is `cause` a failure to reach the server at all (refused, no such host, unreachable, timed out)?
 *
 * @example
 * ```ts
 * isUnreachable(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' })); // true
 * ```
 */
export function isUnreachable(cause: unknown): boolean {
  const code = (cause as { code?: unknown } | null)?.code;
  return typeof code === 'string' && UNREACHABLE.has(code);
}

/**
 * The API server could not be reached at all. The message says where rxkube tried, why that
 * address (the kubeconfig's context, or client-node's fallback when no kubeconfig was found) and
 * what to do.
 *
 * @example
 * ```ts
 * errors$.pipe(filter((e) => e.cause instanceof ApiServerUnreachableError)).subscribe(alert);
 * ```
 */
export class ApiServerUnreachableError extends TransportError {
  /** Where the request went. */
  readonly target: ApiServerTarget;

  constructor(path: string, target: ApiServerTarget, cause: unknown) {
    super(path, cause);
    this.target = target;
    const why = causeMessage(cause);
    this.message = target.isFallback
      ? `no kubeconfig found: @kubernetes/client-node's loadFromDefault() found no KUBECONFIG, no ~/.kube/config ` +
        `and no in-cluster service account, so it used ${target.server}, and that failed (${why}). ` +
        `${WHAT_TO_DO}`
      : `cannot reach the API server at ${target.server} (kubeconfig context "${target.context}"): ${why}. ` +
        `Is the cluster running, and is the kubeconfig's server address right?`;
  }
}

/**
 * The KubeConfig is client-node's no-kubeconfig fallback: `loadFromDefault()` found no KUBECONFIG,
 * no ~/.kube/config and no in-cluster service account, and chose `http://localhost:8080` with no
 * user. client-node 1.4 and 2.x both refuse plain HTTP without `insecure-skip-tls-verify` ("HTTP
 * protocol is not allowed when skipTLSVerify is not set or false"), so no request could succeed:
 * rxkube says so before sending any, with what to do.
 *
 * @example
 * ```ts
 * errors$.pipe(filter((e) => e.cause instanceof NoKubeConfigError)).subscribe(() => showSetupHelp());
 * ```
 */
export class NoKubeConfigError extends ApiServerUnreachableError {
  constructor(path: string, target: ApiServerTarget) {
    super(path, target, undefined);
    this.name = 'NoKubeConfigError';
    this.message =
      `no kubeconfig found: @kubernetes/client-node's loadFromDefault() found no KUBECONFIG, no ~/.kube/config ` +
      `and no in-cluster service account, so it fell back to ${target.server} with no user, which client-node ` +
      `cannot use (plain HTTP without insecure-skip-tls-verify). ${WHAT_TO_DO}`;
  }
}
