import type { JsonObject, ResourceType } from '../resources.js';

// The status subresource as kube's registry strategies apply it (TESTCLUSTER.md §1): a write to the
// main resource keeps the stored status, a write to `/status` keeps everything but the status,
// and metadata.generation follows spec changes only. Pure functions over parsed objects.

type Meta = { [k: string]: unknown; labels?: unknown; ownerReferences?: unknown; annotations?: unknown; generation?: number };

/**
 * The status each built-in type with a status subresource gets on create (its `PrepareForCreate`
 * resets it; the Go structs' non-omitempty fields show as zeros). Pods and PVCs get their defaults;
 * nodes keep the status they are created with, as kube's node strategy allows.
 */
const CREATE_STATUS: { readonly [id: string]: ((obj: JsonObject) => JsonObject | undefined) | 'keep' } = {
  pods: (obj) => ({ phase: 'Pending', qosClass: qosClass(obj.spec) }),
  namespaces: () => ({ phase: 'Active' }),
  nodes: 'keep',
  services: () => ({ loadBalancer: {} }),
  persistentvolumeclaims: () => ({ phase: 'Pending' }),
  'deployments.apps': () => ({}),
  'replicasets.apps': () => ({ replicas: 0 }),
  'statefulsets.apps': () => ({ replicas: 0, availableReplicas: 0 }),
  'daemonsets.apps': () => ({ currentNumberScheduled: 0, numberMisscheduled: 0, desiredNumberScheduled: 0, numberReady: 0 }),
  'customresourcedefinitions.apiextensions.k8s.io': () => undefined,
};

/**
 * Whether `type` has a `/status` subresource: the built-ins with a status, and custom resources
 * whose CRD (or definition) enables `subresources.status`.
 *
 * @example
 * ```ts
 * hasStatusSubresource(types.resolve('pods')); // true
 * hasStatusSubresource(types.resolve('configmaps')); // false
 * ```
 */
export function hasStatusSubresource(type: ResourceType): boolean {
  return type.builtIn ? type.id in CREATE_STATUS : type.statusSubresource === true;
}

/** A Pod's QoS class from its containers' requests and limits (kube's `GetPodQOS`, cpu and memory). */
function qosClass(spec: unknown): string {
  const containers = [...list((spec as JsonObject | undefined)?.containers), ...list((spec as JsonObject | undefined)?.initContainers)];
  let any = false;
  let guaranteed = containers.length > 0;
  for (const c of containers) {
    const res = (c as JsonObject).resources as { requests?: JsonObject; limits?: JsonObject } | undefined;
    const requests = res?.requests ?? {};
    const limits = res?.limits ?? {};
    for (const r of ['cpu', 'memory']) {
      if (requests[r] !== undefined || limits[r] !== undefined) any = true;
      const request = requests[r] ?? limits[r]; // a limit alone defaults the request
      if (limits[r] === undefined || String(request) !== String(limits[r])) guaranteed = false;
    }
  }
  if (!any) return 'BestEffort';
  return guaranteed ? 'Guaranteed' : 'Burstable';
}

const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/**
 * What a create does to `status`: reset per type (built-ins), dropped (custom resources with a
 * status subresource), or kept (everything else). Mutates `obj`.
 *
 * @example
 * ```ts
 * prepareStatusForCreate(podsType, pod); // pod.status is now { phase: 'Pending', qosClass: 'BestEffort' }
 * ```
 */
export function prepareStatusForCreate(type: ResourceType, obj: JsonObject): void {
  if (!hasStatusSubresource(type)) return;
  const reset = type.builtIn ? CREATE_STATUS[type.id] : () => undefined;
  if (reset === 'keep') return;
  const status = reset(obj);
  if (status === undefined) delete obj.status;
  else obj.status = status;
}

/**
 * The object a write stores, from the request's object and the stored one: on the main resource
 * the stored status is kept; on `/status` only the status comes from the request; on a Namespace's `/finalize` only `spec.finalizers`. Returns the
 * object to store (`next` itself, or a copy of `prev`).
 *
 * @example
 * ```ts
 * const stored = mergeForUpdate(deploymentsType, request, parseStored(old), undefined); // request with old's status
 * ```
 */
export function mergeForUpdate(type: ResourceType, next: JsonObject, prev: JsonObject, subresource: string | undefined): JsonObject {
  if (subresource === 'finalize') {
    const spec = { ...((prev.spec as JsonObject | undefined) ?? {}), finalizers: (next.spec as JsonObject | undefined)?.finalizers };
    return { ...prev, metadata: next.metadata, spec };
  }
  if (subresource === 'status') {
    // Only the status comes from the request: metadata changes are ignored, as kube does for custom
    // resources (its built-in strategies would also take annotations and finalizers from it).
    const metadata = { ...(prev.metadata as Meta), resourceVersion: (next.metadata as Meta).resourceVersion };
    const out: JsonObject = { ...prev, metadata };
    if (next.status === undefined) delete out.status;
    else out.status = next.status;
    return out;
  }
  if (!hasStatusSubresource(type)) return next;
  if (prev.status === undefined) delete next.status;
  else next.status = prev.status;
  if (type.id === 'namespaces') {
    // A Namespace's spec.finalizers change only through /finalize.
    const finalizers = (prev.spec as JsonObject | undefined)?.finalizers;
    next.spec = { ...((next.spec as JsonObject | undefined) ?? {}) };
    if (finalizers === undefined) delete (next.spec as JsonObject).finalizers;
    else (next.spec as JsonObject).finalizers = finalizers;
  }
  return next;
}

const same = (a: unknown, b: unknown): boolean => a === b || JSON.stringify(a) === JSON.stringify(b);

/**
 * Whether a write changes what `metadata.generation` counts: the spec (and, for Deployments, the
 * annotations); for custom resources, anything outside metadata (status included when it has no
 * status subresource). Writes to a subresource never count.
 *
 * @example
 * ```ts
 * generationChanged(deploymentsType, next, prev, undefined); // true when spec differs
 * ```
 */
export function generationChanged(type: ResourceType, next: JsonObject, prev: JsonObject, subresource: string | undefined): boolean {
  if (subresource) return false;
  if (!type.builtIn) {
    const keys = new Set([...Object.keys(next), ...Object.keys(prev)]);
    for (const k of keys) if (k !== 'metadata' && k !== 'apiVersion' && k !== 'kind' && !same(next[k], prev[k])) return true;
    return false;
  }
  if (!same(next.spec, prev.spec)) return true;
  return type.id === 'deployments.apps' && !same((next.metadata as Meta).annotations, (prev.metadata as Meta).annotations);
}
