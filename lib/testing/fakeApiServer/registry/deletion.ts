import type { JsonObject, ResourceType } from '../resources.js';
import { invalid } from '../status.js';

/**
 * How a delete treats the object's dependents (metav1.DeletionPropagation).
 *
 * @example
 * ```ts
 * api.delete('deployments.apps', 'ns', 'web', { propagationPolicy: 'Foreground' satisfies PropagationPolicy });
 * ```
 */
export type PropagationPolicy = 'Foreground' | 'Background' | 'Orphan';

/** The finalizer an Orphan delete adds: the garbage collector removes the owner's references from dependents first. */
export const ORPHAN_FINALIZER = 'orphan';
/** The finalizer a Foreground delete adds: the garbage collector deletes the blocking dependents first. */
export const FOREGROUND_FINALIZER = 'foregroundDeletion';

// Types whose registry defaults to orphaning (DefaultGarbageCollectionPolicy), and types without
// garbage collection (events: GC finalizers are never added).
const ORPHAN_BY_DEFAULT = new Set(['replicationcontrollers', 'jobs.batch']);
const NO_GC = new Set(['events', 'events.events.k8s.io']);
const POLICIES = new Set(['Foreground', 'Background', 'Orphan']);

interface GcOptions {
  readonly propagationPolicy?: unknown;
  readonly orphanDependents?: unknown;
}

/**
 * apimachinery's `ValidateDeleteOptions` for the propagation fields: both set, or an unknown
 * policy, is a 422 on `DeleteOptions.meta.k8s.io`.
 *
 * @example
 * ```ts
 * validateDeleteOptions({ propagationPolicy: 'Sideways' }); // throws 422 Unsupported value
 * ```
 */
export function validateDeleteOptions(options: GcOptions | undefined): void {
  const policy = options?.propagationPolicy;
  if (policy === undefined || policy === null) return;
  if (options?.orphanDependents !== undefined && options.orphanDependents !== null) {
    throw invalid('DeleteOptions', 'meta.k8s.io', '', [
      { field: 'propagationPolicy', type: 'FieldValueInvalid', body: `Invalid value: ${JSON.stringify(policy)}: orphanDependents and deletionPropagation cannot be both set` },
    ]);
  }
  if (typeof policy !== 'string' || !POLICIES.has(policy)) {
    throw invalid('DeleteOptions', 'meta.k8s.io', '', [
      { field: 'propagationPolicy', type: 'FieldValueNotSupported', body: `Unsupported value: ${JSON.stringify(policy)}: supported values: "Foreground", "Background", "Orphan", "nil"` },
    ]);
  }
}

/**
 * The object's `metadata.finalizers` after a DELETE with `options`, as kube's generic store
 * decides (`deletionFinalizersForGarbageCollection`): `orphanDependents`, then
 * `propagationPolicy`, then an `orphan`/`foregroundDeletion` finalizer already there, then the
 * type's default. Orphan adds `orphan`, Foreground adds `foregroundDeletion`, Background removes both.
 *
 * @example
 * ```ts
 * finalizersOnDelete(deploymentsType, ['example.com/x'], { propagationPolicy: 'Foreground' }); // ['example.com/x', 'foregroundDeletion']
 * ```
 */
export function finalizersOnDelete(type: ResourceType, finalizers: ReadonlyArray<string> | undefined, options: GcOptions | undefined): string[] {
  const current = [...(finalizers ?? [])];
  if (NO_GC.has(type.id)) return current;
  const policy = options?.propagationPolicy as PropagationPolicy | undefined;
  const orphanDependents = options?.orphanDependents;
  let orphan: boolean;
  let foreground: boolean;
  if (typeof orphanDependents === 'boolean') {
    orphan = orphanDependents;
    foreground = false;
  } else if (policy) {
    orphan = policy === 'Orphan';
    foreground = policy === 'Foreground';
  } else if (current.includes(ORPHAN_FINALIZER) || current.includes(FOREGROUND_FINALIZER)) {
    orphan = current.includes(ORPHAN_FINALIZER);
    foreground = !orphan;
  } else {
    orphan = ORPHAN_BY_DEFAULT.has(type.id);
    foreground = false;
  }
  const rest = current.filter((f) => f !== ORPHAN_FINALIZER && f !== FOREGROUND_FINALIZER);
  if (orphan) return [...rest, ORPHAN_FINALIZER];
  if (foreground) return [...rest, FOREGROUND_FINALIZER];
  return rest;
}

/**
 * Whether an object marked for deletion must stay: it has finalizers (and, for a Namespace,
 * `spec.finalizers` too).
 *
 * @example
 * ```ts
 * mustWaitForFinalizers(namespacesType, ns); // true while spec.finalizers holds 'kubernetes'
 * ```
 */
export function mustWaitForFinalizers(type: ResourceType, obj: JsonObject): boolean {
  const meta = obj.metadata as { finalizers?: unknown[] } | undefined;
  if ((meta?.finalizers?.length ?? 0) > 0) return true;
  if (type.id !== 'namespaces') return false;
  const spec = obj.spec as { finalizers?: unknown[] } | undefined;
  return (spec?.finalizers?.length ?? 0) > 0;
}

/**
 * The 422 for finalizers added to an object being deleted (`ValidateNoNewFinalizers`).
 *
 * @example
 * ```ts
 * checkNoNewFinalizers(type, 'a', ['x'], ['x', 'y']); // throws 422
 * ```
 */
export function checkNoNewFinalizers(type: ResourceType, name: string, before: ReadonlyArray<string> | undefined, after: ReadonlyArray<string> | undefined): void {
  const added = (after ?? []).filter((f) => !(before ?? []).includes(f));
  if (added.length === 0) return;
  throw invalid(type.kind, type.group, name, [
    {
      field: 'metadata.finalizers',
      type: 'FieldValueForbidden',
      body: `Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{${added.map((f) => JSON.stringify(f)).join(', ')}}`,
    },
  ]);
}
