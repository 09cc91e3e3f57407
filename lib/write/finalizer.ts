import { addFinalizer, hasFinalizer, isBeingDeleted, removeFinalizer, type Finalizable } from '../meta/finalizers.js';
import { apiErrorStatus } from './apiErrorStatus.js';
import { FinalizerError } from './finalizerError.js';
import { jsonPatch, type JsonPatchOperation } from './jsonPatch.js';
import { recordWrite, type WriteTracker } from './writeTracker.js';

/**
 * What the {@link finalizer} flow asks the reconciler to do: `apply` (the object lives and carries
 * the finalizer: make the world match it) or `cleanup` (it is being deleted: release what it
 * holds; the finalizer is removed once cleanup succeeds). kube-rs's `finalizer::Event`.
 *
 * @example
 * ```ts
 * const describe = (e: FinalizerEvent<V1ConfigMap>) => `${e.type} ${e.object.metadata?.name}`;
 * ```
 */
export type FinalizerEvent<T> = { readonly type: 'apply'; readonly object: T } | { readonly type: 'cleanup'; readonly object: T };

/**
 * The options of {@link finalizer}.
 *
 * @example
 * ```ts
 * const options: FinalizerOptions<V1ConfigMap, void> = {
 *   name: 'example.com/cleanup', object: cm, patch: async () => {}, reconcile: async () => {},
 * };
 * ```
 */
export interface FinalizerOptions<T extends Finalizable, R> {
  /** The finalizer, a qualified name such as `example.com/cleanup`. */
  readonly name: string;
  /** The object as last seen (from the informer's cache). */
  readonly object: T;
  /** Sends a JSON patch of the object to the API server (e.g. client-node's `patchNamespaced...`). */
  readonly patch: (object: T, body: JsonPatchOperation[]) => Promise<unknown>;
  /** Apply or clean up. Its errors propagate as they are (a `TerminalError` stays terminal). */
  readonly reconcile: (event: FinalizerEvent<T>) => R | Promise<R>;
  /**
   * Reads the object afresh (e.g. client-node's `readNamespaced...`; `undefined` or a 404: gone).
   * Optional: with it, a removal that lost a race with a change of the finalizers themselves is
   * retried on the fresh object instead of failing.
   */
  readonly get?: (object: T) => Promise<T | undefined>;
  /**
   * Where the finalizer's own writes are recorded (read-your-own-writes): pass the reconcile
   * context, and what `patch` resolves to (the patched object) is recorded with `wrote`.
   */
  readonly tracker?: WriteTracker;
}

/** Removal attempts after cleanup: the first, the finalizers-only retry, and re-reads with `get`. */
const MAX_REMOVE_ATTEMPTS = 5;

/**
 * kube-rs's `runtime::finalizer`: runs a reconcile as apply or cleanup, keeping a finalizer on the
 * object so that its deletion waits for the cleanup.
 * - Live, without the finalizer: adds it (a JSON patch tested on the resourceVersion) and returns
 *   `undefined` without applying: the write's own watch event brings the object back, now with
 *   the finalizer, and the next reconcile applies. So apply never runs before the finalizer is
 *   stored.
 * - Live, with the finalizer: `reconcile({ type: 'apply' })`.
 * - Being deleted, with the finalizer: `reconcile({ type: 'cleanup' })`, then removes the
 *   finalizer (the API server deletes the object when none is left). If cleanup throws, the
 *   finalizer stays and the error propagates: retry. Once cleanup succeeded it never runs again in
 *   this call: a removal answered 404 (the object is already gone) is done, and one answered 409 or
 *   422 (a stale resourceVersion) is retried conditional on the finalizers alone, then (with
 *   `get`) on a fresh read, up to 5 attempts.
 * - Being deleted, without the finalizer: nothing left to do (`undefined`).
 *
 * A failed patch throws a {@link FinalizerError} (usually a conflict: retry).
 *
 * @example
 * ```ts
 * import { AppsV1Api, type V1Deployment } from '@kubernetes/client-node';
 * import { finalizer } from 'rxkube';
 *
 * declare const apps: AppsV1Api;
 * declare const deployment: V1Deployment;
 * await finalizer({
 *   name: 'example.com/dns',
 *   object: deployment,
 *   patch: (d, body) =>
 *     apps.patchNamespacedDeployment({ name: d.metadata!.name!, namespace: d.metadata!.namespace!, body }),
 *   reconcile: async (event) => {
 *     if (event.type === 'apply') console.log('ensure the DNS record of', event.object.metadata?.name);
 *     else console.log('delete the DNS record of', event.object.metadata?.name);
 *   },
 * });
 * ```
 */
export async function finalizer<T extends Finalizable, R>(options: FinalizerOptions<T, R>): Promise<R | undefined> {
  const { name, object, reconcile, tracker } = options;
  // Every patch it sends (add and each removal attempt) is recorded on the tracker, if any.
  const patch = async (o: T, body: JsonPatchOperation[]) => recordWrite(tracker, await options.patch(o, body));
  const objectName = `${object.metadata?.namespace ? `${object.metadata.namespace}/` : ''}${object.metadata?.name ?? '?'}`;
  const has = hasFinalizer(object, name);
  if (!isBeingDeleted(object)) {
    if (has) return reconcile({ type: 'apply', object });
    await write('add', () => patch(object, jsonPatch(object, (d) => void addFinalizer(d as Finalizable, name))), name, objectName);
    return undefined;
  }
  if (!has) return undefined;
  const result = await reconcile({ type: 'cleanup', object });
  await removeAfterCleanup({ ...options, patch }, objectName);
  return result;
}

/**
 * Removes the finalizer once cleanup succeeded, never running cleanup again: a 404 (the object is
 * gone) is done; a 409/422 (a stale resourceVersion) is retried, first conditional on the
 * finalizers alone (they usually did not change: a status or spec write bumped the version), then,
 * with `get`, on a fresh read.
 */
async function removeAfterCleanup<T extends Finalizable, R>(options: FinalizerOptions<T, R>, objectName: string): Promise<void> {
  const { name, patch, get } = options;
  let current: T = options.object;
  let lastError: unknown;
  for (let attempt = 0; attempt < MAX_REMOVE_ATTEMPTS; attempt++) {
    const body =
      attempt === 0
        ? jsonPatch(current, (d) => void removeFinalizer(d as Finalizable, name))
        : attempt === 1 || get === undefined
          ? finalizersOnlyRemoval(current, name)
          : jsonPatch(current, (d) => void removeFinalizer(d as Finalizable, name));
    try {
      await patch(current, body);
      return;
    } catch (e) {
      const status = apiErrorStatus(e);
      if (status === 404) return; // gone: nothing holds it any more
      if (status !== 409 && status !== 422) throw new FinalizerError('remove', name, objectName, e);
      lastError = e;
    }
    if (attempt >= 1) {
      // The finalizers changed too: only a fresh read can say where ours is now.
      if (get === undefined) break;
      let fresh: T | undefined;
      try {
        fresh = await get(current);
      } catch (e) {
        if (apiErrorStatus(e) === 404) return;
        throw new FinalizerError('remove', name, objectName, e);
      }
      if (fresh === undefined || !hasFinalizer(fresh, name)) return;
      current = fresh;
    }
  }
  throw new FinalizerError('remove', name, objectName, lastError);
}

/**
 * A JSON patch that removes `name` conditional on the finalizers being as read (not on the
 * resourceVersion): safe over any other change, and refused (422) if the finalizers moved.
 */
function finalizersOnlyRemoval(object: Finalizable, name: string): JsonPatchOperation[] {
  const finalizers = object.metadata?.finalizers ?? [];
  return [
    { op: 'test', path: '/metadata/finalizers', value: [...finalizers] },
    { op: 'replace', path: '/metadata/finalizers', value: finalizers.filter((f) => f !== name) },
  ];
}

async function write(step: 'add' | 'remove', send: () => Promise<unknown>, name: string, objectName: string): Promise<void> {
  try {
    await send();
  } catch (e) {
    throw new FinalizerError(step, name, objectName, e);
  }
}
