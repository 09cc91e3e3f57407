import type { Draft } from 'immer';
import type { KubeObjectLike } from '../meta/kubeObject.js';
import type { PatchOptions } from './jsonPatch.js';
import { patchingImmer } from './patchingImmer.js';
import { plainCopy, setOwn } from './plainCopy.js';
import { runSyncRecipe } from './syncRecipe.js';

/**
 * An RFC 7386 JSON merge patch body (`application/merge-patch+json`): objects merge, `null`
 * removes a field, anything else (arrays included) replaces.
 *
 * @example
 * ```ts
 * const body: MergePatchBody = { metadata: { labels: { stale: null, ready: '3' } } };
 * ```
 */
export type MergePatchBody = { [key: string]: unknown };

const isPlainObject = (v: unknown): v is { [key: string]: unknown } =>
  v !== null && typeof v === 'object' && !Array.isArray(v) && !(v instanceof Date);

/**
 * The merge patch turning `base` into `next`, or undefined if they are equal. Walks only what
 * changed: immer shares unchanged subtrees, so `===` skips them. New values are JSON values
 * ({@link plainCopy}: undefined array elements are `null`, as in {@link jsonPatch}).
 */
function diff(base: unknown, next: unknown): unknown {
  if (base === next) return undefined;
  if (!isPlainObject(base) || !isPlainObject(next)) {
    return JSON.stringify(base) === JSON.stringify(next) ? undefined : plainCopy(next);
  }
  const out: { [key: string]: unknown } = {};
  let changed = false;
  for (const k of Object.keys(next)) {
    if (next[k] === undefined) continue;
    // hasOwn, not `in`: `'__proto__' in base` is always true.
    const d = Object.hasOwn(base, k) && base[k] !== undefined ? diff(base[k], next[k]) : plainCopy(next[k]);
    if (d !== undefined) {
      setOwn(out, k, d);
      changed = true;
    }
  }
  for (const k of Object.keys(base)) {
    if (base[k] !== undefined && (!Object.hasOwn(next, k) || next[k] === undefined)) {
      setOwn(out, k, null);
      changed = true;
    }
  }
  return changed ? out : undefined;
}

/**
 * The RFC 7386 merge patch that makes the changes `recipe` makes to a draft of `obj` (`obj` is not
 * modified): changed fields with their new values, removed fields as `null`, a changed array
 * whole. Unless the recipe changed nothing (then `undefined`: nothing to send), the body carries
 * `metadata.resourceVersion`, so that the API server answers 409 Conflict if the object changed
 * since `obj` was read. A field set to undefined is removed (`null`); the recipe must be
 * synchronous (a {@link PatchRecipeError} otherwise).
 *
 * client-node sends PATCH bodies as JSON patch by default; a merge patch needs the content type,
 * set with client-node's `setHeaderOptions` (1.4 and 2.0 alike):
 *
 * @example
 * ```ts
 * import { CoreV1Api, KubeConfig, PatchStrategy, setHeaderOptions, type V1ConfigMap } from '@kubernetes/client-node';
 * import { mergePatch } from 'rxkube';
 *
 * declare const kc: KubeConfig;
 * declare const cm: V1ConfigMap;
 * const core = kc.makeApiClient(CoreV1Api);
 * const body = mergePatch(cm, (d) => {
 *   delete d.data!.stale;
 *   d.data!.fresh = 'yes';
 * });
 * if (body) {
 *   await core.patchNamespacedConfigMap(
 *     { name: 'settings', namespace: 'shop', body },
 *     setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
 *   );
 * }
 * ```
 */
export function mergePatch<T extends KubeObjectLike>(
  obj: T,
  recipe: (draft: Draft<T>) => void,
  options: PatchOptions = {},
): MergePatchBody | undefined {
  const base = plainCopy(obj) as T;
  const next = patchingImmer().produce(base, (draft: Draft<T>) => runSyncRecipe(recipe, draft));
  const body = diff(base, next) as MergePatchBody | undefined;
  if (!body) return undefined;
  const rv = obj.metadata?.resourceVersion;
  if (options.resourceVersion === false || !rv) return body;
  const meta = isPlainObject(body.metadata) ? body.metadata : {};
  return { ...body, metadata: { ...meta, resourceVersion: rv } };
}
