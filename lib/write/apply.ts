import type { KubeConfig } from '@kubernetes/client-node';
import { catchError, defer, map, throwError, type Observable } from 'rxjs';
import { ApiStatusError } from '../errors.js';
import type { Resource } from '../listwatch/resource.js';
import { resourcePath } from '../listwatch/resourcePath.js';
import type { KubeObject } from '../meta/kubeObject.js';
import { jsonRequest$ } from '../transport/jsonRequest.js';
import { transportFor } from '../transport/kubeConfigTransport.js';
import type { Transport } from '../transport/transport.js';
import { ApplyConflictError } from './applyConflictError.js';
import { ApplyInputError } from './applyInputError.js';
import { recordWrite, type WriteTracker } from './writeTracker.js';

/**
 * `T` with every field optional, at every depth (arrays of deep-partial items; dates as they are).
 *
 * @example
 * ```ts
 * const p: DeepPartial<{ spec: { replicas: number; paused: boolean } }> = { spec: { replicas: 3 } };
 * ```
 */
export type DeepPartial<T> = T extends Date
  ? T
  : T extends ReadonlyArray<infer U>
    ? ReadonlyArray<DeepPartial<U>>
    : T extends object
      ? { [K in keyof T]?: DeepPartial<T[K]> }
      : T;

/**
 * What a server-side apply sends: the fields this manager has an opinion on, and only those
 * (everything deep-partial), with the object's identity required: `apiVersion`, `kind`,
 * `metadata.name` (and `metadata.namespace` for a namespaced resource, checked at run time). As
 * client-go's generated apply configurations and controller-runtime's `client.Apply` objects.
 *
 * @example
 * ```ts
 * import type { V1Deployment } from '@kubernetes/client-node';
 * const config: ApplyConfiguration<V1Deployment> = {
 *   apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', namespace: 'shop' },
 *   spec: { replicas: 3 },
 * };
 * ```
 */
export type ApplyConfiguration<T extends object = KubeObject> = DeepPartial<Omit<T, 'apiVersion' | 'kind' | 'metadata'>> & {
  apiVersion: string;
  kind: string;
  metadata: DeepPartial<NonNullable<T extends { metadata?: infer M } ? M : never>> & { name: string; namespace?: string };
};

/**
 * Options of {@link apply}.
 *
 * @example
 * ```ts
 * const options: ApplyOptions = { fieldManager: 'example.com/backup-controller', force: true };
 * ```
 */
export interface ApplyOptions {
  /** Who applies: the field manager that owns what it applies (required, at most 128 bytes). */
  readonly fieldManager: string;
  /** Take fields other managers own instead of failing with {@link ApplyConflictError}. Default false. */
  readonly force?: boolean;
  /** Apply to the `status` subresource: only `.status` counts, owned as `subresource: status`. */
  readonly subresource?: 'status';
  /** Aborts the request; the promise then rejects with the signal's reason. */
  readonly signal?: AbortSignal;
  /**
   * Where the stored object is recorded (read-your-own-writes): pass the reconcile's context
   * (`ctx`), and the key's next reconcile waits until the informer has seen this write.
   */
  readonly tracker?: WriteTracker;
}

const APPLY_PATCH = 'application/apply-patch+yaml';

function check<T extends object = KubeObject>(resource: Resource, object: ApplyConfiguration<T>, options: ApplyOptions): { namespace: string | undefined; name: string } {
  if (typeof options?.fieldManager !== 'string' || options.fieldManager === '') {
    throw new ApplyInputError('apply needs a fieldManager (the API server refuses an apply without one): pass { fieldManager: "example.com/my-controller" }');
  }
  if (new TextEncoder().encode(options.fieldManager).length > 128) throw new ApplyInputError(`fieldManager must be at most 128 bytes: ${options.fieldManager.slice(0, 40)}...`);
  if (typeof object !== 'object' || object === null || Array.isArray(object)) throw new ApplyInputError('apply needs an object (apiVersion, kind, metadata.name and the fields to apply)');
  const want = resource.group ? `${resource.group}/${resource.version}` : resource.version;
  if (typeof object.apiVersion !== 'string' || object.apiVersion === '') throw new ApplyInputError(`the object to apply has no apiVersion (${want} for this resource)`);
  if (typeof object.kind !== 'string' || object.kind === '') throw new ApplyInputError(`the object to apply has no kind${resource.kind ? ` (${resource.kind} for this resource)` : ''}`);
  if (object.apiVersion !== want) throw new ApplyInputError(`the object's apiVersion ${object.apiVersion} is not the resource's (${want})`);
  if (resource.kind && object.kind !== resource.kind) throw new ApplyInputError(`the object's kind ${object.kind} is not the resource's (${resource.kind})`);
  const meta = object.metadata as { name?: unknown; namespace?: unknown } | undefined;
  if (typeof meta?.name !== 'string' || meta.name === '') throw new ApplyInputError(`the ${object.kind} to apply has no metadata.name`);
  const namespace = typeof meta.namespace === 'string' && meta.namespace !== '' ? meta.namespace : undefined;
  if (resource.namespaced && !namespace) throw new ApplyInputError(`${object.kind} ${meta.name} has no metadata.namespace, and ${resource.plural} are namespaced`);
  if (!resource.namespaced && namespace) throw new ApplyInputError(`${resource.plural} are cluster-scoped: ${object.kind} ${meta.name} cannot have a namespace`);
  return { namespace, name: meta.name };
}

/**
 * The server-side apply request as a cold Observable (each subscription sends it, unsubscribing
 * aborts it): what {@link apply} sends. Errors as {@link apply} rejects, bad input included (in
 * the stream, when subscribed).
 *
 * @example
 * ```ts
 * apply$(transport, configMaps, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', namespace: 'ns' }, data: { k: 'v' } },
 *   { fieldManager: 'me' }).subscribe((stored) => console.log(stored.metadata?.resourceVersion));
 * ```
 */
export function apply$<T extends object = KubeObject>(source: KubeConfig | Transport, resource: Resource, object: ApplyConfiguration<T>, options: ApplyOptions): Observable<T> {
  return defer(() => {
    const { namespace, name } = check(resource, object, options);
    const path = `${resourcePath(resource, namespace)}/${encodeURIComponent(name)}${options.subresource === 'status' ? '/status' : ''}`;
    const query: Record<string, string> = { fieldManager: options.fieldManager, ...(options.force ? { force: 'true' } : {}) };
    return (jsonRequest$(transportFor(source), 'PATCH', path, object, { query, contentType: APPLY_PATCH }) as Observable<T>).pipe(
      map((stored) => recordWrite(options.tracker, stored)),
      catchError((e: unknown) =>
        throwError(() =>
          e instanceof ApiStatusError && e.statusCode === 409 && (e.status.details?.causes ?? []).some((c) => c.reason === 'FieldManagerConflict')
            ? new ApplyConflictError(e.status, { context: `apply ${path}`, cause: e })
            : e,
        ),
      ),
    );
  });
}

/**
 * Server-side apply (`PATCH`, `application/apply-patch+yaml`): the API server merges `object` into
 * the stored object (creating it if missing), records `fieldManager` as the owner of exactly the
 * fields in `object`, and removes fields this manager applied before and no longer applies (unless
 * someone else owns them too). Resolves with the object the server stored: its
 * `metadata.resourceVersion` is the write's version. As controller-runtime's `client.Apply` and
 * kube-rs's `Patch::Apply`. Over a `KubeConfig` (client-node's credentials) or any
 * {@link Transport} (e.g. `fetchTransport` in a browser).
 *
 * Rejects with {@link ApplyInputError} before any request when the field manager or the object's
 * identity is missing; with {@link ApplyConflictError} when fields other managers own would change
 * (pass `force: true` to take them); with `ApiStatusError` for other refusals.
 *
 * @example
 * ```ts
 * import type { KubeConfig, V1ConfigMap } from '@kubernetes/client-node';
 * import { apply, type Resource } from 'rxkube';
 *
 * declare const kc: KubeConfig;
 * const configMaps: Resource = { group: '', version: 'v1', plural: 'configmaps', kind: 'ConfigMap', namespaced: true };
 * const stored = await apply<V1ConfigMap>(kc, configMaps,
 *   { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings', namespace: 'shop' }, data: { mode: 'fast' } },
 *   { fieldManager: 'example.com/settings-controller' });
 * console.log(stored.metadata?.resourceVersion);
 * ```
 */
export function apply<T extends object = KubeObject>(source: KubeConfig | Transport, resource: Resource, object: ApplyConfiguration<T>, options: ApplyOptions): Promise<T> {
  const request = apply$(source, resource, object, options);
  const signal = options.signal;
  if (signal?.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => {
      subscription.unsubscribe();
      reject(signal?.reason);
    };
    const subscription = request.subscribe({
      next: (stored) => {
        signal?.removeEventListener('abort', onAbort);
        resolve(stored);
      },
      error: (e: unknown) => {
        signal?.removeEventListener('abort', onAbort);
        reject(e);
      },
    });
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
