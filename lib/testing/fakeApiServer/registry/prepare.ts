import type { JsonObject } from '../resources.js';
import { sameJson } from './sameContent.js';
import type { GenerationPolicy, Strategy } from './strategy.js';
import { getAt, setAt } from './fieldPaths.js';

// The strategy stage of a write (kube's `PrepareForCreate` / `PrepareForUpdate` with `BeforeUpdate`'s
// kept system metadata), driven by the type's strategy entry: what a create does to the status,
// what a write to the main resource or to a subresource takes from the request and what it keeps
// from the stored object (TESTCLUSTER.md §1), and when metadata.generation moves. Pure functions
// over parsed objects.

type Meta = { [k: string]: unknown; generation?: number };



/**
 * What a create does to the object beyond metadata: the status reset (`PrepareForCreate`; kept with
 * `withStatus`, the data plane's seeding), generation 1, the type's own hook. Mutates `obj`.
 *
 * @example
 * ```ts
 * prepareForCreate(podStrategy, pod, false); // pod.status is { phase: 'Pending', qosClass: 'BestEffort' }
 * ```
 */
export function prepareForCreate(strategy: Strategy, obj: JsonObject, withStatus: boolean): void {
  const onCreate = strategy.status?.onCreate;
  if (onCreate && onCreate !== 'keep' && !withStatus) {
    const status = onCreate(obj);
    if (status === undefined) delete obj.status;
    else obj.status = status;
  }
  if (strategy.generation) (obj.metadata as Meta).generation = 1;
  strategy.hooks.prepareForCreate?.(obj);
}

/**
 * The object an update stores, from the request's `next` and the stored `prev`: through the main
 * resource, `next` with the strategy's reset fields (the status where there is a `/status`, a
 * Namespace's `spec.finalizers`) taken from `prev`; through a subresource, `prev` with only the
 * fields that subresource writes taken from `next`. Returns the object (`next`, or a new one).
 *
 * @example
 * ```ts
 * const toStore = mergeForUpdate(deploymentStrategy, request, parseStored(old), undefined); // request with old's status
 * ```
 */
export function mergeForUpdate(strategy: Strategy, next: JsonObject, prev: JsonObject, subresource: string | undefined): JsonObject {
  if (subresource) {
    const writes = strategy.subresources[subresource]?.writes ?? [];
    // metadata is the stored one (the request's resourceVersion was checked already), unless written.
    const out: JsonObject = { ...prev, metadata: { ...(prev.metadata as Meta) } };
    for (const path of writes) setAt(out, path, getAt(next, path));
    return out;
  }
  if (strategy.status) setAt(next, ['status'], prev.status);
  for (const path of strategy.resetFields) setAt(next, path, getAt(prev, path));
  return next;
}

// Decoded objects compared, as kube's DeepEqual does: a client's key order is no change.
const same = sameJson;

/**
 * Whether an update moves `metadata.generation` (kube's `PrepareForUpdate`): one of the policy's
 * paths changed, or any top-level field but the excepted ones. Subresource writes never do.
 *
 * @example
 * ```ts
 * generationChanged({ paths: [['spec']] }, next, prev, undefined); // true when spec differs
 * ```
 */
export function generationChanged(policy: GenerationPolicy, next: JsonObject, prev: JsonObject, subresource: string | undefined): boolean {
  if (subresource) return false;
  if ('paths' in policy) return policy.paths.some((p) => !same(getAt(next, p), getAt(prev, p)));
  const keys = new Set([...Object.keys(next), ...Object.keys(prev)]);
  for (const k of keys) if (!policy.except.includes(k) && !same(next[k], prev[k])) return true;
  return false;
}

/**
 * `BeforeUpdate`'s kept system metadata: uid, creationTimestamp and the deletion fields come from
 * the stored object; generation moves by the strategy (or is kept). Mutates `next`.
 *
 * @example
 * ```ts
 * keepSystemMetadata(strategy, next, prev, undefined);
 * ```
 */
export function keepSystemMetadata(strategy: Strategy, next: JsonObject, prev: JsonObject, subresource: string | undefined): void {
  const meta = next.metadata as Meta;
  const old = prev.metadata as Meta;
  meta.uid = old.uid;
  meta.creationTimestamp = old.creationTimestamp;
  for (const k of ['deletionTimestamp', 'deletionGracePeriodSeconds']) {
    if (old[k] === undefined) delete meta[k];
    else meta[k] = old[k];
  }
  // A subresource with an object of its own (Scale) writes through the main strategy: generation moves.
  const main = subresource && strategy.subresources[subresource]?.form ? undefined : subresource;
  if (strategy.generation) meta.generation = (old.generation ?? 1) + (generationChanged(strategy.generation, next, prev, main) ? 1 : 0);
  else if (old.generation !== undefined) meta.generation = old.generation;
  else delete meta.generation;
}
