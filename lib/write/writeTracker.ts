import type { KubeObjectLike } from '../meta/kubeObject.js';

/**
 * Options of {@link WriteTracker.wrote}.
 *
 * @example
 * ```ts
 * const options: WroteOptions = { deleted: true };
 * ```
 */
export interface WroteOptions {
  /** The object was deleted: the write is seen once the informer has seen the deletion. */
  readonly deleted?: boolean;
}

/**
 * Where a write is recorded so that the next reconcile of the same key waits until the
 * controller's informers have seen it (read-your-own-writes). A controller's reconcile context is
 * one (`ctx`); rxkube's write helpers that send requests ({@link finalizer}, apply) take one as
 * their `tracker` option and record what the server answered. Code that writes with client-node
 * directly calls `ctx.wrote(answer)` with the object the server returned.
 *
 * @example
 * ```ts
 * import { AppsV1Api, type V1Deployment } from '@kubernetes/client-node';
 * import type { WriteTracker } from 'rxkube';
 *
 * declare const apps: AppsV1Api;
 * declare const ctx: WriteTracker;
 * declare const d: V1Deployment;
 * const written = await apps.replaceNamespacedDeploymentStatus({ name: 'web', namespace: 'shop', body: d });
 * ctx.wrote(written);
 * ```
 */
export interface WriteTracker {
  /**
   * Records a write: `obj` is what the server returned (it carries the new `resourceVersion`), or,
   * for a deletion, the object deleted. Never throws: an object without a name is ignored, one
   * without a resourceVersion is waited for only up to the controller's bound.
   */
  wrote(obj: KubeObjectLike, options?: WroteOptions): void;
}

/**
 * Records `obj` on `tracker` if there is one and `obj` looks like a Kubernetes object (has
 * `metadata.name`); returns `obj`. For helpers that send a write and hand its answer back.
 *
 * @example
 * ```ts
 * const written = recordWrite(ctx, await apps.patchNamespacedDeployment({ name, namespace, body }));
 * ```
 */
export function recordWrite<R>(tracker: WriteTracker | undefined, obj: R, options?: WroteOptions): R {
  if (tracker !== undefined && isNamedObject(obj)) tracker.wrote(obj, options);
  return obj;
}

function isNamedObject(v: unknown): v is KubeObjectLike {
  if (v === null || typeof v !== 'object') return false;
  const meta = (v as KubeObjectLike).metadata;
  return meta !== null && typeof meta === 'object' && typeof meta.name === 'string' && meta.name !== '';
}
