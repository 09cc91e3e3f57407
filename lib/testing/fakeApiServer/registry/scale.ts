import { labelSelectorFromObject, labelSelectorFromSet, type LabelSelectorObject } from '../../../labels/labelSelector.js';
import type { JsonObject } from '../resources.js';
import { invalidValue } from '../schema/fieldErrors.js';
import { badRequest, internalError, invalid } from '../status.js';
import type { FieldPath, Subresource, SubresourceForm } from './strategy.js';
import { getAt, setAt } from './fieldPaths.js';

// The scale subresource (PIPELINE.md §7; TESTCLUSTER.md §1 for custom resources): an
// autoscaling/v1 Scale read from the parent (KK `scaleFromDeployment` and its siblings, AX
// `scaleFromCustomResource`) and written back into it (`scaleUpdatedObjectInfo`): only the spec
// replicas, through the parent's update path.

/**
 * Where a type keeps what its Scale shows: the spec and status replicas, and the label selector
 * (a `metav1.LabelSelector`, a ReplicationController's label map, or a custom resource's string).
 *
 * @example
 * ```ts
 * const deployments: ScalePaths = { specReplicas: ['spec', 'replicas'], statusReplicas: ['status', 'replicas'], selector: { path: ['spec', 'selector'], as: 'labelSelector' } };
 * ```
 */
export interface ScalePaths {
  readonly specReplicas: FieldPath;
  readonly statusReplicas: FieldPath;
  readonly selector?: { readonly path: FieldPath; readonly as: 'labelSelector' | 'labelMap' | 'string' };
}

const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);



const jsonPath = (path: FieldPath): string => `.${path.join('.')}`;

function selectorString(parent: JsonObject, selector: ScalePaths['selector']): string | undefined {
  if (!selector) return undefined;
  const v = getAt(parent, selector.path);
  if (v === undefined || v === null) return undefined;
  if (selector.as === 'string') return typeof v === 'string' ? v : undefined;
  try {
    const s = selector.as === 'labelMap' ? labelSelectorFromSet(v as { [k: string]: string }) : labelSelectorFromObject(v as LabelSelectorObject);
    return s.toString();
  } catch (e) {
    // kube's scaleFromDeployment: a selector it cannot convert is a 400.
    throw badRequest(e instanceof Error ? e.message : String(e));
  }
}

/** The view: autoscaling/v1 Scale (spec.replicas omitted at 0, status.replicas always there). */
function readScale(paths: ScalePaths, builtIn: boolean, parent: JsonObject): JsonObject {
  const meta = (parent.metadata ?? {}) as JsonObject;
  const spec = getAt(parent, paths.specReplicas);
  if (!builtIn && spec === undefined) throw internalError(`the spec replicas field "${jsonPath(paths.specReplicas)}" does not exist`);
  const replicas = typeof spec === 'number' ? spec : 0;
  const status = getAt(parent, paths.statusReplicas);
  const selector = selectorString(parent, paths.selector);
  const keep = ['name', 'namespace', 'uid', 'resourceVersion', 'creationTimestamp'];
  return {
    kind: 'Scale',
    apiVersion: 'autoscaling/v1',
    metadata: Object.fromEntries(keep.filter((k) => meta[k] !== undefined).map((k) => [k, meta[k]])),
    spec: replicas === 0 ? {} : { replicas },
    status: { replicas: typeof status === 'number' ? status : 0, ...(selector ? { selector } : {}) },
  };
}

/** kube's decoding into a Scale and `ValidateScale`; then the parent with the new spec replicas. */
function writeScale(paths: ScalePaths, parent: JsonObject, view: JsonObject): JsonObject {
  const { kind, apiVersion } = view;
  const name = String((parent.metadata as JsonObject).name ?? '');
  if (kind !== undefined && kind !== 'Scale') throw badRequest(`${String(kind)} in version "v1" cannot be handled as a Scale: the kind does not match the resource`);
  if (apiVersion !== undefined && apiVersion !== 'autoscaling/v1') {
    throw badRequest(`the API version in the data (${String(apiVersion)}) does not match the expected API version (autoscaling/v1)`);
  }
  const spec = isObject(view.spec) ? view.spec : {};
  const replicas = spec.replicas ?? 0;
  if (typeof replicas !== 'number' || !Number.isInteger(replicas) || replicas > 2147483647) {
    throw badRequest(`Scale in version "v1" cannot be handled as a Scale: json: cannot unmarshal ${typeof replicas} into Go struct field ScaleSpec.spec.replicas of type int32`);
  }
  if (replicas < 0) throw invalid('Scale', 'autoscaling', name, [invalidValue('spec.replicas', replicas, 'must be greater than or equal to 0')]);
  const rv = isObject(view.metadata) ? view.metadata.resourceVersion : undefined;
  // An empty resourceVersion in the Scale is no precondition: the parent's stays.
  if (typeof rv === 'string' && rv !== '') (parent.metadata as JsonObject).resourceVersion = rv;
  setAt(parent, paths.specReplicas, replicas);
  return parent;
}

/**
 * The `scale` subresource of a type whose replicas and selector live at `paths` (`builtIn`: a
 * workload's ScaleREST; else a custom resource's, whose spec replicas must exist to be read).
 *
 * @example
 * ```ts
 * const entry = { subresources: { scale: scaleSubresource(DEPLOYMENT_SCALE, true) } };
 * ```
 */
export function scaleSubresource(paths: ScalePaths, builtIn: boolean): Subresource {
  const form: SubresourceForm = {
    kind: 'Scale',
    apiVersion: 'autoscaling/v1',
    read: (parent) => readScale(paths, builtIn, parent),
    write: (parent, view) => writeScale(paths, parent, view),
    missingParent: builtIn ? 'subresource' : 'parent',
  };
  return Object.freeze({ verbs: ['get', 'patch', 'update'] as const, writes: [paths.specReplicas], kind: { group: 'autoscaling', version: 'v1', kind: 'Scale' }, form });
}

/** The workloads' paths: `spec.replicas`, `status.replicas`, `spec.selector` (a LabelSelector). */
export const WORKLOAD_SCALE: ScalePaths = Object.freeze({
  specReplicas: ['spec', 'replicas'],
  statusReplicas: ['status', 'replicas'],
  selector: { path: ['spec', 'selector'], as: 'labelSelector' as const },
});

/** A ReplicationController's: its `spec.selector` is a label map. */
export const REPLICATION_CONTROLLER_SCALE: ScalePaths = Object.freeze({ ...WORKLOAD_SCALE, selector: { path: ['spec', 'selector'], as: 'labelMap' as const } });

/**
 * A CRD version's `subresources.scale` as paths (`.spec.replicas` -> `['spec', 'replicas']`), or
 * undefined when it has none.
 *
 * @example
 * ```ts
 * scalePathsOf({ specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas' });
 * ```
 */
export function scalePathsOf(scale: unknown): ScalePaths | undefined {
  if (!isObject(scale)) return undefined;
  const path = (v: unknown): FieldPath | undefined => (typeof v === 'string' && v.startsWith('.') ? v.slice(1).split('.') : undefined);
  const specReplicas = path(scale.specReplicasPath);
  const statusReplicas = path(scale.statusReplicasPath);
  if (!specReplicas || !statusReplicas) return undefined;
  const selector = path(scale.labelSelectorPath);
  return { specReplicas, statusReplicas, ...(selector ? { selector: { path: selector, as: 'string' as const } } : {}) };
}
