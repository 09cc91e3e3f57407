import type { MaybePromise } from '../admission/attributes.js';
import type { JsonObject } from '../resources.js';

// A subresource that is an action rather than a view of its object (kube's `pods/eviction`,
// a `rest.Creater` on a subresource path): a POST runs it against the store.

/**
 * What an action may do: read stored objects of any type (by id), write a status, delete, each
 * as the request's user and with its dry run.
 *
 * @example
 * ```ts
 * const pod = host.stored('pods', 'shop', 'web-0');
 * ```
 */
export interface SubresourceHost {
  /** A stored object (storage form), or undefined. */
  stored(id: string, namespace: string, name: string): JsonObject | undefined;
  /** Every stored object of a type in a namespace. */
  listed(id: string, namespace: string): JsonObject[];
  /** A `/status` write with the object's resourceVersion as precondition. */
  writeStatus(id: string, obj: JsonObject): MaybePromise<unknown>;
  /** A DELETE with kube's DeleteOptions. */
  remove(id: string, namespace: string, name: string, deleteOptions: JsonObject | undefined): MaybePromise<unknown>;
  /** The request is a dry run (`dryRun=All`): nothing is written. */
  readonly dryRun: boolean;
  /** RFC 3339 now, as the store stamps it. */
  timestamp(): string;
}

/**
 * A POST to a subresource of one object: the HTTP code and the body it answers with.
 *
 * @example
 * ```ts
 * const ok: SubresourceAction = () => ({ code: 201, answer: { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success' } });
 * ```
 */
export type SubresourceAction = (host: SubresourceHost, namespace: string, name: string, body: unknown) => MaybePromise<{ code: number; answer: JsonObject }>;

/**
 * A connect subresource's request (`pods/log`, `pods/exec`, ...): its query and whether it asks
 * for a protocol upgrade (SPDY or WebSocket streams).
 *
 * @example
 * ```ts
 * const request: ConnectRequest = { query: new URLSearchParams('container=app'), upgrade: false };
 * ```
 */
export interface ConnectRequest {
  readonly query: URLSearchParams;
  readonly upgrade: boolean;
}

/**
 * A connect subresource (kube's `rest.Connecter`: logs, exec, attach, port forwarding, proxy),
 * which reaches a kubelet or a pod on a cluster: the answer the test cluster, which has none, gives.
 * Throws kube's Status where kube refuses first (a missing pod, a bad container name).
 *
 * @example
 * ```ts
 * const empty: SubresourceConnect = () => ({ code: 200, contentType: 'text/plain', body: '' });
 * ```
 */
export type SubresourceConnect = (host: SubresourceHost, namespace: string, name: string, request: ConnectRequest) => { code: number; contentType: string; body: string };
