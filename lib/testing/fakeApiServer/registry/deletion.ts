import type { JsonObject } from '../resources.js';
import { invalid, type FieldError } from '../status.js';
import type { Strategy } from './strategy.js';

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

/**
 * `DeleteOptions` fields the fake honours.
 *
 * @example
 * ```ts
 * api.delete('pods', 'ns', 'a', { preconditions: { uid: pod.metadata.uid } });
 * ```
 */
export interface DeleteOptions {
  readonly preconditions?: { readonly uid?: string; readonly resourceVersion?: string };
  /** What happens to the dependents (objects whose ownerReferences name this one). Default: Background (Orphan for Jobs and ReplicationControllers). */
  readonly propagationPolicy?: PropagationPolicy;
  /** Legacy: true is Orphan, false Background; cannot be set with `propagationPolicy`. */
  readonly orphanDependents?: boolean;
}

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
 * type's default (its strategy's). Orphan adds `orphan`, Foreground adds `foregroundDeletion`,
 * Background removes both; a type without garbage collection (Events) gets neither.
 *
 * @example
 * ```ts
 * finalizersOnDelete('Background', ['example.com/x'], { propagationPolicy: 'Foreground' }); // ['example.com/x', 'foregroundDeletion']
 * ```
 */
export function finalizersOnDelete(policy: Strategy['garbageCollection'], finalizers: ReadonlyArray<string> | undefined, options: GcOptions | undefined): string[] {
  const current = [...(finalizers ?? [])];
  if (policy === 'none') return current;
  const given = options?.propagationPolicy as PropagationPolicy | undefined;
  const orphanDependents = options?.orphanDependents;
  let orphan: boolean;
  let foreground: boolean;
  if (typeof orphanDependents === 'boolean') {
    orphan = orphanDependents;
    foreground = false;
  } else if (given) {
    orphan = given === 'Orphan';
    foreground = given === 'Foreground';
  } else if (current.includes(ORPHAN_FINALIZER) || current.includes(FOREGROUND_FINALIZER)) {
    orphan = current.includes(ORPHAN_FINALIZER);
    foreground = !orphan;
  } else {
    orphan = policy === 'Orphan';
    foreground = false;
  }
  const rest = current.filter((f) => f !== ORPHAN_FINALIZER && f !== FOREGROUND_FINALIZER);
  if (orphan) return [...rest, ORPHAN_FINALIZER];
  if (foreground) return [...rest, FOREGROUND_FINALIZER];
  return rest;
}

/**
 * Whether an object marked for deletion must stay: it has finalizers, or its type holds it
 * otherwise (a Namespace's `spec.finalizers`).
 *
 * @example
 * ```ts
 * holdsDeletion(namespaceStrategy, ns); // true while spec.finalizers holds 'kubernetes'
 * ```
 */
export function holdsDeletion(strategy: Strategy, obj: JsonObject): boolean {
  const meta = obj.metadata as { finalizers?: unknown[] } | undefined;
  if ((meta?.finalizers?.length ?? 0) > 0) return true;
  return strategy.hooks.holdsDeletion?.(obj) ?? false;
}

/**
 * The causes of a 422 for finalizers added to an object being deleted (`ValidateNoNewFinalizers`).
 *
 * @example
 * ```ts
 * newFinalizerErrors(['x'], ['x', 'y']); // one cause
 * ```
 */
export function newFinalizerErrors(before: ReadonlyArray<string> | undefined, after: ReadonlyArray<string> | undefined): FieldError[] {
  const added = (after ?? []).filter((f) => !(before ?? []).includes(f));
  if (added.length === 0) return [];
  return [
    {
      field: 'metadata.finalizers',
      type: 'FieldValueForbidden',
      body: `Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{${added.map((f) => JSON.stringify(f)).join(', ')}}`,
    },
  ];
}
