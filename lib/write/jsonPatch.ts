import type { Draft, Patch } from 'immer';
import type { KubeObjectLike } from '../meta/kubeObject.js';
import { toJsonPointer } from './jsonPointer.js';
import { patchingImmer } from './patchingImmer.js';
import { plainCopy } from './plainCopy.js';
import { runSyncRecipe } from './syncRecipe.js';

/**
 * One RFC 6902 JSON patch operation, as `application/json-patch+json` carries it.
 *
 * @example
 * ```ts
 * const ops: JsonPatchOperation[] = [
 *   { op: 'test', path: '/metadata/resourceVersion', value: '42' },
 *   { op: 'add', path: '/metadata/labels/ready', value: '3' },
 * ];
 * ```
 */
export type JsonPatchOperation =
  | { readonly op: 'add' | 'replace' | 'test'; readonly path: string; readonly value: unknown }
  | { readonly op: 'remove'; readonly path: string }
  | { readonly op: 'move' | 'copy'; readonly from: string; readonly path: string };

/**
 * Options of {@link jsonPatch} and {@link mergePatch}.
 *
 * @example
 * ```ts
 * jsonPatch(cm, (d) => { d.data = { a: '1' }; }, { resourceVersion: false }); // no test op
 * ```
 */
export interface PatchOptions {
  /**
   * Make the patch conditional on the object's `metadata.resourceVersion` (optimistic concurrency:
   * the API server answers 422 to a failed `test`, 409 to a merge patch carrying a stale version).
   * Default true; ignored when the object has no resourceVersion.
   */
  readonly resourceVersion?: boolean;
}

/**
 * Immer's patches as RFC 6902 operations (immer's `length` replacement becomes removes). RFC 6902
 * needs a value on add and replace, and JSON has no undefined: a field set to undefined is
 * removed (or not added), an undefined array element (a hole) is `null`.
 */
function toOperations(patches: ReadonlyArray<Patch>, base: unknown): JsonPatchOperation[] {
  const ops: JsonPatchOperation[] = [];
  for (const p of patches) {
    const last = p.path[p.path.length - 1];
    if (p.op === 'replace' && last === 'length' && typeof p.value === 'number') {
      // Older immer shapes truncation as `length = n`; RFC 6902 has no such op: remove from the end.
      const arr = valueAt(base, p.path.slice(0, -1));
      const from = Array.isArray(arr) ? arr.length : p.value;
      for (let i = from - 1; i >= p.value; i--) ops.push({ op: 'remove', path: toJsonPointer([...p.path.slice(0, -1), i]) });
      continue;
    }
    const path = toJsonPointer(p.path);
    if (p.op === 'remove') ops.push({ op: 'remove', path });
    else if (p.value !== undefined) ops.push({ op: p.op, path, value: plainCopy(p.value) });
    else if (typeof last === 'number') ops.push({ op: p.op, path, value: null });
    else if (p.op === 'replace') ops.push({ op: 'remove', path });
    // An added field set to undefined: nothing to send.
  }
  return ops;
}

function valueAt(doc: unknown, path: ReadonlyArray<string | number>): unknown {
  let cur = doc;
  for (const seg of path) cur = cur !== null && typeof cur === 'object' ? (cur as Record<string | number, unknown>)[seg] : undefined;
  return cur;
}

/**
 * The RFC 6902 JSON patch that makes the changes `recipe` makes to a draft of `obj` (immer's
 * `produceWithPatches`; `obj` itself is not modified), led by a `test` of
 * `metadata.resourceVersion` so that the API server refuses it (422) if the object changed since
 * `obj` was read. An empty recipe gives `[]` (nothing to send). Paths are JSON pointers (`~0`/`~1`
 * escaped). A field set to undefined is removed; an undefined array element is `null`. The recipe
 * must be synchronous (a {@link PatchRecipeError} otherwise). `obj` may be frozen (informers hand
 * out frozen objects) or a client-node model instance (the recipe drafts a plain copy with wire
 * field names: `from`, not `_from`).
 *
 * client-node sends a PATCH body as `application/json-patch+json` unless told otherwise, so
 * sending it is one call, with either client-node 1.4 or 2.0:
 *
 * @example
 * ```ts
 * import { AppsV1Api, KubeConfig, type V1Deployment } from '@kubernetes/client-node';
 * import { jsonPatch } from 'rxkube';
 *
 * declare const kc: KubeConfig;
 * declare const deployment: V1Deployment; // from an informer's lister
 * const apps = kc.makeApiClient(AppsV1Api);
 * const body = jsonPatch(deployment, (d) => {
 *   d.metadata!.labels = { ...d.metadata!.labels, 'example.com/ready': '3' };
 * });
 * if (body.length > 0) {
 *   await apps.patchNamespacedDeployment({ name: 'web', namespace: 'shop', body });
 * }
 * ```
 */
export function jsonPatch<T extends KubeObjectLike>(
  obj: T,
  recipe: (draft: Draft<T>) => void,
  options: PatchOptions = {},
): JsonPatchOperation[] {
  const { operations: ops } = recipePatch(obj, recipe);
  if (ops.length === 0) return ops;
  const rv = obj.metadata?.resourceVersion;
  if (options.resourceVersion === false || !rv) return ops;
  return [{ op: 'test', path: '/metadata/resourceVersion', value: rv }, ...ops];
}

/**
 * Internal (not exported from the package): the RFC 6902 operations `recipe` makes to a plain copy
 * of `obj` (`base`), and the object they lead to (`result`, sharing what did not change with
 * `base`; `obj` is not modified). No `test` of the resource version. What {@link jsonPatch} and
 * rxkube/webhooks' mutations are built on.
 */
export function recipePatch<T>(obj: T, recipe: (draft: Draft<T>) => void): { operations: JsonPatchOperation[]; result: T; base: T } {
  const base = plainCopy(obj) as T;
  const [result, patches] = patchingImmer().produceWithPatches(base, (draft: Draft<T>) => runSyncRecipe(recipe, draft));
  return { operations: toOperations(patches, base), result: result as T, base };
}
